import { expect } from 'chai';
import { createRedis } from '@dialog-relay/redis';
import type { Receiver } from './support/receiver.js';
import type { System } from './support/system.js';
import { suiteSystem } from './support/suite-system.js';
import { waitUntil } from '@dialog-relay/testkit';

async function runConversations(system: System, receiver: Receiver, conversations: number, perConversation: number): Promise<void> {
  const sent = new Map<string, string[]>();
  await Promise.all(
    Array.from({ length: conversations }, async (_, c) => {
      const ids: string[] = [];
      for (let m = 0; m < perConversation; m++) {
        const msgId = `c${c}-m${m}-${Date.now()}`;
        const answer = await system.send(
          { msg_id: msgId, from_user_id: `order-customer-${c}`, to_user_id: 'bound-order', content: `question ${m}` },
          { send_url: receiver.url },
        );
        expect(answer.status).to.equal(202);
        ids.push(msgId);
      }
      sent.set(`order-customer-${c}`, ids);
    }),
  );
  const requests = await receiver.waitFor(conversations * perConversation, 60_000);
  const answered = requests.flatMap((r) => r.body.in_reply_to);
  expect(answered).to.have.length(conversations * perConversation);
  expect(new Set(answered).size).to.equal(conversations * perConversation);
  for (const [customer, ids] of sent) {
    const order = requests.filter((r) => r.body.message_info['to_user_id'] === customer).flatMap((r) => r.body.in_reply_to);
    expect(order, customer).to.deep.equal(ids);
  }
}

for (const replicas of [2, 3]) {
  describe(`${replicas} worker replicas`, function () {
    const suite = suiteSystem({ workers: replicas }, (_r, _i, res) => setTimeout(() => res.writeHead(200).end(), 2));

    it('answers 200 messages over 20 conversations exactly once each, every conversation in order', async () => {
      await runConversations(suite.system, suite.receiver, 20, 10);
    });
  });
}

describe('a worker SIGKILLed mid-run', function () {
  const suite = suiteSystem({ workers: 2 }, (_r, _i, res) => setTimeout(() => res.writeHead(200).end(), 30));

  it('still answers every message (the other replica takes up its jobs)', async function () {
    this.timeout(90_000);
    const total = 60;
    const sent: string[] = [];
    const sending = (async () => {
      for (let i = 0; i < total; i++) {
        const msgId = `kill-${i}-${Date.now()}`;
        sent.push(msgId);
        await suite.system.send(
          { msg_id: msgId, from_user_id: `kill-customer-${i % 12}`, to_user_id: 'bound-kill', content: 'hello' },
          { send_url: suite.receiver.url },
        );
      }
    })();
    await suite.receiver.waitFor(10);
    suite.system.workers[0]!.child.kill('SIGKILL');
    await sending;
    const missing = (): string[] => {
      const answered = new Set(suite.receiver.requests.flatMap((r) => r.body.in_reply_to));
      return sent.filter((id) => !answered.has(id));
    };
    await waitUntil(() => Promise.resolve(missing().length === 0), 60_000).catch(() => undefined);
    if (missing().length > 0) {
      const redis = createRedis(suite.system.config.redis, 'worker', { name: 'diagnose' });
      const keys = await redis.keys(`${suite.system.config.redisPrefix}*`);
      const state = await Promise.all(
        keys
          .filter((k) => /:(gen|pending|batch):/.test(k) || k.endsWith(':gen'))
          .map(async (k) => `${k} ${(await redis.type(k)) === 'string' ? await redis.get(k) : `list(${await redis.llen(k)})`}`),
      );
      process.stderr.write(`missing replies: ${missing().join(', ')}\n${state.sort().join('\n')}\n`);
      redis.disconnect();
    }
    expect(missing()).to.deep.equal([]);
  });
});
