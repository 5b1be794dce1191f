import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/** WORKER_CONCURRENCY is one replica's total over all shard queues (docs/design/scaling.md). */
describe('one worker replica with WORKER_CONCURRENCY=2 over 16 shard queues', function () {
  let system: System;
  let receiver: Receiver;
  const held: ServerResponse[] = [];
  before(async () => {
    receiver = await startReceiver((_request, _index, res) => void held.push(res));
    system = await startSystem({ workers: 1, env: { WORKER_CONCURRENCY: '2', DELIVERY_TIMEOUT_MS: '20000', WORKER_LOCK_MS: '30000' } });
  });
  after(async () => {
    for (const res of held) res.end();
    await system.close();
    await receiver.close();
  });

  it('never delivers to more than two conversations at once, and delivers all once slots free', async () => {
    const conversations = Array.from({ length: 6 }, (_, i) => ({ from_user_id: `limit-customer-${i}`, to_user_id: 'limit-bound' }));
    const shards = new Set<unknown>();
    for (const [i, who] of conversations.entries()) {
      const answer = await system.send({ ...who, content: 'hello', msg_id: `limit-${i}` }, { send_url: receiver.url });
      shards.add(system.keys.shardOf(String(answer.json.data!['conversation_id'])));
    }
    expect(shards.size).to.be.greaterThan(2); // the conversations sit in several shard queues
    await receiver.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // proving an absence: no third attempt while two are held
    expect(receiver.requests).to.have.length(2);

    const released = (): void => {
      while (held.length > 0) held.shift()!.writeHead(200).end('ok');
    };
    released();
    for (let delivered = 2; delivered < 6; delivered = receiver.requests.length) {
      await receiver.waitFor(delivered + 1);
      expect(held.length).to.be.at.most(2);
      released();
    }
    expect(new Set(receiver.requests.flatMap((r) => r.body.in_reply_to)).size).to.equal(6);
  });
});
