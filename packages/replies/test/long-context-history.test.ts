import type { ContextMessage } from '@dialog-relay/contracts';
import { expect } from 'chai';
import { testDeliveryId, type Harness } from './harness.js';
import { harnessPerTest } from './support/suite-hooks.js';

type Role = 'customer' | 'agent' | 'bot';

/**
 * docs/design/reply-protocol.md "Produce": the history a turn hands the engine, in contexts up to their cap
 * (50) and with the answered message anywhere in them: near the end (the usual case), far back behind
 * later messages (a backlog), or pushed out. What the turn reads is checked against the rule written
 * out here: the window before the message and the message, then only the bot's replies; with
 * customer texts, the latest that many of the customer's texts within the window, then the message;
 * every message when the message is not in the context.
 */
describe('the history of a turn in a long context', () => {
  let h: Harness;
  harnessPerTest('long-context-history-test', (harness) => (h = harness));

  const stored = (msgId: string, role: Role, text: boolean): ContextMessage => ({
    msg_id: msgId,
    role,
    from_user_id: 'someone',
    content: [text ? { type: 'text', content: `${role} says ${msgId}` } : { type: 'image', content: 'https://files.test/a.png' }],
    event_type: 'auto_dialog',
    create_timestamp: 1_700_000_000,
  });
  const hasText = (m: ContextMessage): boolean => m.content.some((part) => part.type === 'text');

  /** The rule, on the context as it stands (oldest first) when the turn reads it. */
  function expected(context: readonly ContextMessage[], answered: string, window: number, customerTexts?: number): string[] {
    const at = context.map((m) => m.msg_id).lastIndexOf(answered);
    if (at < 0) return context.map((m) => m.msg_id);
    const before = context.slice(Math.max(0, at - window), at);
    if (customerTexts !== undefined) {
      const texts = before.filter((m) => m.role === 'customer' && hasText(m));
      return [...texts.slice(Math.max(0, texts.length - customerTexts)).map((m) => m.msg_id), answered];
    }
    const after = context.slice(at + 1).filter((m) => m.role === 'bot');
    return [...before, context[at]!, ...after].map((m) => m.msg_id);
  }

  let seed = 11;
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const roles: readonly Role[] = ['customer', 'customer', 'agent', 'bot', 'bot'];
  const sequence = (prefix: string, length: number) =>
    Array.from({ length }, (_, i) => stored(`${prefix}${i}`, roles[Math.floor(next() * roles.length)]!, next() > 0.2));

  /** `earlier` messages, the answered one (q), `later` messages; then the turn takes q. */
  async function take(conversationId: string, earlier: number, later: number, window: number, customerTexts?: number) {
    for (const message of sequence('e', earlier)) await h.contexts.record(conversationId, [message]);
    await h.receive('q', { conversationId });
    for (const message of sequence('l', later)) await h.contexts.record(conversationId, [message]);
    const context = await h.contexts.read(conversationId);
    const taken = await h.turns.take(conversationId, 0, testDeliveryId(conversationId, 0), { window, customerTexts });
    if (taken.kind !== 'batch' || !taken.opened) throw new Error(`not taken: ${taken.kind}`);
    return { got: taken.opened.context.map((m) => m.msg_id), want: expected(context, 'q', window, customerTexts) };
  }

  const shapes: readonly [earlier: number, later: number][] = [
    [60, 0], // at the cap, the message the newest
    [60, 3],
    [60, 9],
    [60, 10],
    [60, 11],
    [60, 15],
    [60, 30], // far back: its window reaches past the latest ids
    [60, 45],
    [60, 49], // the oldest message kept
    [60, 55], // pushed out: every message
    [5, 0], // short contexts
    [5, 20],
    [0, 0],
    [0, 12],
    [25, 25],
  ];
  for (const window of [0, 3, 10, 40]) {
    for (const customerTexts of [undefined, 2]) {
      it(`window ${window}${customerTexts === undefined ? '' : `, ${customerTexts} customer texts`}: the rule's messages, wherever the message is`, async () => {
        for (const [index, [earlier, later]] of shapes.entries()) {
          const { got, want } = await take(`c_long${index}`, earlier, later, window, customerTexts);
          expect(got, `${earlier} before, ${later} after`).to.deep.equal(want);
        }
      });
    }
  }
});
