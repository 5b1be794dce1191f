import { loadConfig } from '@dialog-relay/config';
import { createRedis, createRedisKeys, waitForRedis, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { createDeliveryStore, newDeliveryId, type DeliveryRecord } from '@dialog-relay/replies';
import { commandCalls, testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { Cluster, type Redis as SingleRedis } from 'ioredis';
import { deliveriesCommand } from '../src/commands/deliveries.command.js';
import { deliveryRecord } from './support/delivery-records.js';

/** `deliveries list --client`: records are not indexed by client, so it scans; each master once, whatever QUEUE_SHARDS is. */
describe('cli deliveries list --client (scanning)', () => {
  let redis: Redis;
  before(async () => {
    redis = createRedis(loadConfig(testRedisEnv()).redis, 'request', { name: 'cli-scan-test', commandTimeoutMs: 10_000 });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.disconnect());

  const masters = (): SingleRedis[] => (redis instanceof Cluster ? redis.nodes('master') : [redis]);
  /** SCAN calls served so far, over every master. */
  const scanCalls = async (): Promise<number> =>
    (await Promise.all(masters().map(async (node) => commandCalls(await node.info('commandstats')).get('scan') ?? 0))).reduce(
      (a, b) => a + b,
      0,
    );
  /** A conversation of the shard (a delivery record lives in its conversation's shard). */
  const conversationIn = (keys: RedisKeys, shard: number): string => {
    for (let n = 0; ; n++) if (keys.shardOf(`c_scan_${n}`) === shard) return `c_scan_${n}`;
  };
  const record = (keys: RedisKeys, shard: number, client: string): DeliveryRecord =>
    deliveryRecord(newDeliveryId(shard), { conversation_id: conversationIn(keys, shard), client, state: 'delivered', payload: '{}' });

  it("finds a client's deliveries in all 16 shards, newest first, scanning each master once", async () => {
    const keys = createRedisKeys(uniquePrefix('cli-scan'), 16);
    const deliveries = createDeliveryStore({ redis, keys, ttlS: 600, deadLetterTtlS: 86_400 });
    const ids: string[] = [];
    for (let shard = 0; shard < 16; shard++) {
      const mine = record(keys, shard, 'acme');
      ids.push(mine.delivery_id);
      await deliveries.create(mine);
      await deliveries.create(record(keys, shard, 'other'));
    }
    const sizes = await Promise.all(masters().map((node) => node.dbsize()));
    const before = await scanCalls();
    const result = await deliveriesCommand({ deliveries, redis, keys }, ['list', '--client', 'acme', '--limit', '50']);
    const calls = (await scanCalls()) - before;
    expect((result.json as { deliveries: { delivery_id: string }[] }).deliveries.map((d) => d.delivery_id)).to.deep.equal(
      [...ids].reverse(),
    );
    // One pass over a master visits about COUNT (1000) keys a call: a pass per shard would take 16 times as many.
    const onePass = sizes.reduce((sum, size) => sum + 2 * Math.ceil(size / 1000) + 2, 0);
    expect(calls, `SCAN calls for ${sizes.join('/')} keys`).to.be.at.most(onePass);
  });

  it('stops once the budget of keys looked at (not keys matched) is spent, and says the list may be incomplete', async () => {
    const prefix = uniquePrefix('cli-scan');
    const keys = createRedisKeys(prefix, 16);
    const deliveries = createDeliveryStore({ redis, keys, ttlS: 600, deadLetterTtlS: 86_400 });
    await deliveries.create(record(keys, 3, 'acme'));
    // Keys that do not match, enough that one SCAN call cannot cover a master.
    const fillers = Array.from({ length: 3000 * masters().length }, (_, i) => `${prefix}filler:${i}`);
    await Promise.all(fillers.map((key) => redis.set(key, '1', 'EX', 300)));
    try {
      const result = await deliveriesCommand({ deliveries, redis, keys, scanBudget: 1000 }, ['list', '--client', 'acme']);
      expect(result.json).to.include({ scan_complete: false });
      expect(result.text).to.include('(scan stopped after 1000 keys: older deliveries may be missing)');
      const full = await deliveriesCommand({ deliveries, redis, keys }, ['list', '--client', 'acme']);
      expect(full.json).to.not.have.property('scan_complete');
      expect((full.json as { deliveries: unknown[] }).deliveries).to.have.length(1);
    } finally {
      await Promise.all(fillers.map((key) => redis.del(key)));
    }
  });
});
