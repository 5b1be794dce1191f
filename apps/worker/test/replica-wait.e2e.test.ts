import { startRedisReplicaPair, waitUntil, type RedisReplicaPairHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/**
 * docs/design/scaling.md "Replicas before the 202": with REDIS_WAIT_REPLICAS=1 an auto_dialog message is
 * acknowledged only once a replica holds it. A replica that cannot answer turns the 202 into a 503
 * with Retry-After (the msg_id stays free for the retry), and the waiting never holds up other requests.
 * The wait is long (6 s) so that "answered before the wait ended" is unambiguous.
 */
describe('Replicas before the 202 (WAIT), replica gone', function () {
  this.timeout(60_000);
  let pair: RedisReplicaPairHandle;
  let system: System;
  let receiver: Receiver;
  let probe: Redis;
  before(async () => {
    pair = await startRedisReplicaPair();
    receiver = await startReceiver();
    system = await startSystem({
      workers: 1,
      redis: { REDIS_URL: pair.master.url },
      env: { REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '6000', QUEUE_SHARDS: '4' },
    });
    probe = new Redis(pair.master.url);
  });
  after(async () => {
    probe?.disconnect();
    await system?.close();
    await receiver?.close();
    await pair?.dispose();
  });

  const customer = (n: number): Record<string, unknown> => ({ from_user_id: `wait-customer-${n}`, to_user_id: 'wait-bound' });
  /** Clients blocked in WAIT right now (CLIENT LIST: flag b, last command wait; BullMQ's blocking pops are not counted). */
  const waiting = async (): Promise<number> =>
    String(await probe.call('CLIENT', 'LIST'))
      .split('\n')
      .filter((line) => /\bcmd=wait\b/.test(line) && /\bflags=\S*b/.test(line)).length;

  it('answers 503 with Retry-After (never 202) while no replica confirms, and answers other requests meanwhile', async () => {
    await pair.replica.stop();
    const settled: string[] = [];
    const autos = [1, 2, 3].map((n) =>
      system.send({ ...customer(n), content: 'where is my parcel?', msg_id: `wait-${n}` }, { send_url: receiver.url }).then((answer) => {
        settled.push(`wait-${n}`);
        return answer;
      }),
    );
    // The three wait at the same time, each on a connection of its own (not one behind the other).
    await waitUntil(async () => (await waiting()) === 3, 5000);
    const assist = await system.send({
      ...customer(1),
      content: 'when do you open?',
      msg_id: 'wait-assist',
      event_type: 'assist_dialog',
      from_user_type: undefined,
    });
    expect(assist.status, JSON.stringify(assist.json)).to.equal(200);
    expect(settled, 'an auto_dialog answered before the assist_dialog sent after it').to.deep.equal([]);
    for (const answer of await Promise.all(autos)) {
      expect(answer.status, JSON.stringify(answer.json)).to.equal(503);
      expect(answer.json.error).to.equal('service_unavailable');
      expect(Number(answer.headers.get('retry-after'))).to.be.greaterThan(0);
    }
  });

  it('once the replica is back, takes the retry with the same msg_id (202) and replies to it exactly once', async () => {
    await pair.replica.start();
    await pair.inSync();
    const retry = await system.send({ ...customer(1), content: 'where is my parcel?', msg_id: 'wait-1' }, { send_url: receiver.url });
    expect(retry.status, JSON.stringify(retry.json)).to.equal(202);
    expect(retry.headers.get('idempotent-replayed')).to.equal(null);
    expect(retry.json.data?.['status']).to.equal('queued');
    // A later message of the same conversation: replies of one conversation go out in order, so once
    // its reply is in, a second reply to wait-1 would have arrived before it.
    const next = await system.send({ ...customer(1), content: 'and the invoice?', msg_id: 'wait-1-next' }, { send_url: receiver.url });
    expect(next.status).to.equal(202);
    await waitUntil(() => receiver.requests.some((r) => r.body.in_reply_to.includes('wait-1-next')), 20_000);
    expect(receiver.requests.filter((r) => r.body.in_reply_to.includes('wait-1'))).to.have.length(1);
  });
});
