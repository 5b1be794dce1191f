import { parseClientRecord } from '@dialog-relay/config';
import type { ChatMessageRequest } from '@dialog-relay/contracts';
import type { ScenarioDeps } from '../src/scenarios/scenario.js';
import { autoDialog } from '../src/scenarios/auto-dialog.js';
import { expect } from 'chai';

/**
 * docs/design/scaling.md "Replicas before the 202": the accept script's writes are confirmed on the replicas
 * before the 202 (the chat service begins the confirmation before that script and confirms after it),
 * and the message is queued first in that script, so a full conversation writes nothing.
 */
describe('auto_dialog accept script', () => {
  const client = parseClientRecord('shop', { secret: 'shop-secret-0001' }, 50);
  const request = {
    client: 'shop',
    timestamp: 1_700_000_000,
    signature: 'x',
    send_url: 'http://127.0.0.1:9/hook',
    message_info: {
      msg_id: 'm-1',
      from_user_id: 'customer',
      to_user_id: 'bound',
      content: 'hello',
      message_type: 1,
      event_type: 'auto_dialog',
      from_user_type: 2,
      create_timestamp: 1_700_000_000,
    },
  } as unknown as ChatMessageRequest;

  const run = async (scheduled: string) => {
    const step =
      (name: string, value: unknown = 1) =>
      () => ({ call: name, settle: () => Promise.resolve(value) });
    const deps = {
      contexts: { recordStep: () => 'context.record' },
      messageIndex: { rememberStep: () => 'index.remember' },
      autoReplies: { scheduleStep: step('schedule', scheduled), humanReplied: () => Promise.resolve() },
      newId: () => 'id',
      nowMs: () => 1_700_000_000_000,
    } as unknown as ScenarioDeps;
    const result = await autoDialog(deps, {
      request,
      client,
      msgId: 'm-1',
      sendUrl: 'http://127.0.0.1:9/hook',
      command: undefined,
      logger: undefined as never,
      answerInReads: false,
    }).finish([]);
    return {
      result,
      data: await result.settle(['queued']).then(
        (d) => d,
        (e: unknown) => `error ${String(e)}`,
      ),
    };
  };

  it('queues first, then records and indexes, in one script confirmed on the replicas, and answers queued', async () => {
    const { result, data } = await run('queued');
    expect(result.writes).to.deep.equal(['schedule', 'context.record', 'index.remember']);
    expect(result.replicated).to.equal(true);
    expect(data).to.deep.include({ status: 'queued' });
  });

  it('answers suppressed while auto replies are stopped, and refuses with pending_limit when the conversation is full', async () => {
    expect((await run('stopped')).data).to.deep.include({ status: 'suppressed' });
    expect((await run('full')).data).to.match(/^error .*most messages that may wait/);
  });
});
