import { loadConfig } from '@dialog-relay/config';
import { createContextStore } from '@dialog-relay/conversations';
import { waitForRedis, type Redis } from '@dialog-relay/redis';
import { createAutoReplies, createTurnStore, turnTimingsOf, type DueMessage } from '@dialog-relay/replies';
import { expect } from 'chai';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/**
 * docs/service-rules.md §15: no conversation is ever left with messages waiting and no job. Here the
 * ingress stored the message (its SCHEDULE script ran) but adding the BullMQ turn job failed (a
 * Redis blip between the two calls), the integrator never retried, and no later message comes.
 */
describe('a turn job lost between scheduling and adding it (real worker process)', function () {
  let system: System;
  let receiver: Receiver;
  let redis: Redis;
  before(async () => {
    receiver = await startReceiver();
    // A short debounce ceiling: a lost job is looked for after a few of its windows.
    system = await startSystem({ workers: 1, env: { AUTO_REPLY_MAX_WAIT_MS: '300' } });
    redis = system.redis();
    await waitForRedis(redis, 5000);
  });
  after(async () => {
    await system.close();
    await receiver.close();
  });

  it('still answers the message, and one that joins it: a worker finds the waiting messages without a job and queues their turn', async () => {
    const config = loadConfig(system.env);
    const conversationId = 'c_lost-turn-job-1';
    const turns = createTurnStore({ redis, keys: system.keys, timings: turnTimingsOf(config) });
    const addFailures: string[] = [];
    const ingress = createAutoReplies({
      turns,
      deliveries: system.deliveries(),
      jobs: {
        addTurn: (id) => {
          addFailures.push(id);
          return Promise.reject(new Error('Connection is closed.'));
        },
        removeTurn: () => Promise.resolve(),
      },
      aborts: { abort: () => Promise.resolve(false), close: () => undefined },
      settings: { debounceMs: config.autoReplyDebounceMs, humanPauseMs: 0, abortWaitMs: 800 },
    });
    const now = Date.now();
    const message: DueMessage['message'] = {
      msg_id: 'lost-1',
      role: 'customer',
      from_user_id: 'lost-customer',
      content: [{ type: 'text', content: 'is anyone there?' }],
      event_type: 'auto_dialog',
      create_timestamp: Math.floor(now / 1000),
    };
    await createContextStore({ redis, keys: system.keys, maxMessages: 50, ttlSeconds: 3600 }).record(conversationId, [message]);
    const due: DueMessage = {
      message,
      client: 'shop',
      conversationId,
      sendUrl: receiver.url,
      groupId: undefined,
      groupName: undefined,
      boundAccountId: 'bound-lost',
      receivedAtMs: now,
    };

    let thrown: unknown;
    await ingress.schedule(due).catch((error: unknown) => (thrown = error));
    expect((thrown as Error).message).to.equal('Connection is closed.');
    expect(addFailures).to.deep.equal([conversationId]);
    expect((await turns.snapshot(conversationId)).pending.map((m) => m.message.msg_id)).to.deep.equal(['lost-1']);
    expect(await system.turnJobState(conversationId, 0)).to.equal('unknown');

    // A second message joins the waiting one: it adds no job (only a message that opens a turn does),
    // so it too waits for the safety net, which must answer both.
    const second: DueMessage = {
      ...due,
      message: { ...message, msg_id: 'lost-2', content: [{ type: 'text', content: 'hello??' }] },
    };
    expect(await ingress.schedule(second)).to.equal('queued');
    expect(addFailures).to.deep.equal([conversationId]);

    const replies = await receiver.waitFor(2, 20_000);
    expect(replies.map((r) => r.body.conversation_id)).to.deep.equal([conversationId, conversationId]);
    expect(replies.flatMap((r) => r.body.in_reply_to)).to.have.members(['lost-1', 'lost-2']);
    expect(receiver.requests).to.have.length(2);
  });
});
