import type { ContextMessage } from '@dialog-relay/contracts';
import { contextMessageFrom } from '@dialog-relay/conversations';
import type { Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { processTurn } from './internals.js';
import { BOUND, CONVERSATION, CUSTOMER, dueOf, T0, testDeliveryId, type Harness } from './harness.js';
import { harnessPerTest } from './support/suite-hooks.js';

/**
 * docs/design/reply-protocol.md "Produce": a due message is answered from its own content even when the
 * context (capped, docs/service-rules.md §5) no longer holds it by the time its turn runs — a busy
 * group, a turn waiting behind an earlier reply's retries, a queue backlog.
 */
describe('a due message pushed out of the context before its turn', () => {
  let redis: Redis;
  let h: Harness;
  harnessPerTest(
    'pushed-out-test',
    (harness, connection) => {
      h = harness;
      redis = connection;
    },
    { contextMaxMessages: 4 },
  );

  /** Someone else in the conversation writes (recorded only, as the API does for a message that is due no reply). */
  const othersWrite = async (msgId: string, atMs: number, text = `chatter ${msgId}`): Promise<void> => {
    const message: ContextMessage = contextMessageFrom(
      {
        msg_id: msgId,
        from_user_id: `other-${msgId}`,
        to_user_id: BOUND,
        content: text,
        message_type: 1,
        event_type: 'auto_dialog',
        from_user_type: 2,
        create_timestamp: Math.floor(atMs / 1000),
      },
      msgId,
    );
    await h.contexts.record(CONVERSATION, [message]);
  };
  const turn = (generation: number) => processTurn(h.deps, { conversationId: CONVERSATION, generation });

  it('is still answered from its own text, with none of the newer messages of other people as history', async () => {
    await h.receive('m-1', { text: 'where is my parcel?' });
    for (let i = 1; i <= 4; i += 1) await othersWrite(`n-${i}`, T0 + i * 1000);
    // A message that reached the service late but was written before m-1: it is older, so history.
    await othersWrite('late', T0 - 5000, 'written before m-1');
    expect((await h.contexts.read(CONVERSATION)).map((m) => m.msg_id)).to.not.include('m-1');

    await turn(0);

    const call = h.engine.calls[0]!;
    expect(call.message.msg_id).to.equal('m-1');
    expect(call.message.content).to.deep.equal([{ type: 'text', content: 'where is my parcel?' }]);
    expect(call.message.from_user_id).to.equal(CUSTOMER);
    expect(call.context.map((m) => m.msg_id)).to.deep.equal(['late']);
    expect(h.deliverer.answered()).to.deep.equal([['m-1']]);
  });

  it('keeps the bot’s own earlier reply in the history, as when the message is found', async () => {
    await h.receive('m-0', { text: 'do you ship abroad?' });
    await h.receive('m-1', { text: 'and to Norway?' });
    h.deps.turnsPerJob = 1; // m-1's turn is a job of its own, run after the others wrote
    await turn(0); // the reply to m-0 joins the context after m-1
    for (let i = 1; i <= 3; i += 1) await othersWrite(`n-${i}`, T0 + i * 1000);
    expect((await h.contexts.read(CONVERSATION)).map((m) => m.msg_id)).to.deep.equal([
      testDeliveryId(CONVERSATION, 0),
      'n-1',
      'n-2',
      'n-3',
    ]);

    await turn(1);

    const call = h.engine.calls[1]!;
    expect(call.message.content).to.deep.equal([{ type: 'text', content: 'and to Norway?' }]);
    expect(call.context.map((m) => [m.msg_id, m.role])).to.deep.equal([[testDeliveryId(CONVERSATION, 0), 'bot']]);
  });

  it('queues a message with large inline files without its content (the queue stays small) and answers it from the context', async () => {
    const inline = `data:image/png;base64,${'A'.repeat(200_000)}`;
    const message = contextMessageFrom(
      {
        msg_id: 'm-big',
        from_user_id: CUSTOMER,
        to_user_id: BOUND,
        files_info: [{ content: inline, file_type: 'image' }],
        message_type: 1,
        event_type: 'auto_dialog',
        from_user_type: 2,
        create_timestamp: Math.floor(T0 / 1000),
      },
      'm-big',
    );
    await h.contexts.record(CONVERSATION, [message]);
    const scheduled = await h.turns.schedule(dueOf(message));
    expect(scheduled.kind).to.equal('queued');
    const stored = await redis.lrange(h.keys.pendingReplies(CONVERSATION), 0, -1);
    expect(stored).to.have.length(1);
    expect(stored[0]!.length).to.be.below(4096);

    await turn(0);

    expect(h.engine.calls[0]!.message.content).to.deep.equal([{ type: 'image', content: inline }]);
  });
});
