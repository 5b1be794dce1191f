import { parseClientRecord } from '@dialog-relay/config';
import type { ChatMessageRequest } from '@dialog-relay/contracts';
import type { ScenarioDeps } from '../src/scenarios/scenario.js';
import { autoDialog } from '../src/scenarios/auto-dialog.js';
import { expect } from 'chai';

/**
 * docs/design/scaling.md "Replicas before the 202": the confirmation must begin before the request's first
 * write, or a reconnect between a write and the fence (writes and fence on two masters) goes unseen.
 */
describe('auto_dialog with replica confirmation', () => {
  const client = parseClientRecord('shop', { secret: 'shop-secret-0001' }, 50);
  const request = {
    client: 'shop', timestamp: 1_700_000_000, signature: 'x', send_url: 'http://127.0.0.1:9/hook',
    message_info: { msg_id: 'm-1', from_user_id: 'customer', to_user_id: 'bound', content: 'hello', message_type: 1, event_type: 'auto_dialog', from_user_type: 2, create_timestamp: 1_700_000_000 },
  } as unknown as ChatMessageRequest;

  const run = async (confirm: () => Promise<void>): Promise<string[]> => {
    const calls: string[] = [];
    const note = <T>(name: string, value: T) => (): Promise<T> => (calls.push(name), Promise.resolve(value));
    const deps = {
      contexts: { record: note('context.record', 1) },
      messageIndex: { remember: note('index.remember', undefined) },
      autoReplies: { schedule: note('schedule', 'queued'), humanReplied: note('humanReplied', undefined) },
      replication: { begin: () => (calls.push('replication.begin'), { confirm: () => (calls.push('replication.confirm'), confirm()) }) },
      newId: () => 'id', nowMs: () => 1_700_000_000_000,
    } as unknown as ScenarioDeps;
    const result = await autoDialog(deps, { request, client, msgId: 'm-1', sendUrl: 'http://127.0.0.1:9/hook', command: undefined, logger: undefined as never })
      .finish().then((r) => String(r.status), (e: unknown) => `error ${String(e)}`);
    return [...calls, result];
  };

  it('begins the confirmation before the first write and confirms after the last, then answers 202', async () => {
    expect(await run(() => Promise.resolve())).to.deep.equal(['replication.begin', 'context.record', 'index.remember', 'schedule', 'replication.confirm', '202']);
  });

  it('does not answer 202 when the confirmation fails', async () => {
    const calls = await run(() => Promise.reject(new Error('only 0 of 1 replica(s) confirmed the writes')));
    expect(calls.at(-1)).to.match(/^error .*only 0 of 1/);
  });
});
