import { loadConfig } from '@dialog-relay/config';
import { createRedis, createRedisKeys, waitForRedis, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { createDeliveryStore, createTurnStore, newDeliveryId, type DeliveryRecord, type TurnStore } from '@dialog-relay/replies';
import { testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { deliveryRecord } from './support/delivery-records.js';
import { jsonLines, runCli } from './support/run-cli.js';

const timings = { debounceMs: 0, maxWaitMs: 0, pendingTtlMs: 600_000, attemptMarkerTtlMs: 10_000 };

/**
 * docs/design/scaling.md "Changing QUEUE_SHARDS": a conversation's keys move with the shard count, so what
 * lasts (stop flags, contexts, delivery records, dead letters) must be moved, or a stopped
 * conversation would be answered again and the dead letters vanish from the CLI.
 */
describe('cli shards migrate', function () {
  this.timeout(30_000);
  let redis: Redis;
  before(async () => {
    redis = createRedis(loadConfig(testRedisEnv()).redis, 'request', { name: 'cli-shards-test' });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.disconnect());

  const turns = (keys: RedisKeys): TurnStore => createTurnStore({ redis, keys, timings });
  const record = (deliveryId: string, conversation: string): DeliveryRecord =>
    deliveryRecord(deliveryId, { conversation_id: conversation, payload: '{}', generation: 0 });

  it('moves stop flags, contexts, delivery records and dead letters from 8 shards to 16 and records 16', async () => {
    const prefix = uniquePrefix('reshard');
    const [k8, k16] = [createRedisKeys(prefix, 8), createRedisKeys(prefix, 16)];
    await redis.set(k8.shardCount, '8');
    const [stopped, talking, failed] = ['c_reshard_stopped', 'c_reshard_talking', 'c_reshard_failed'];
    await turns(k8).cancel(stopped, { setStop: true, pauseMs: 0 });
    await redis.rpush(k8.contextOrder(talking), 'm-7');
    await redis.hset(k8.contextMessages(talking), 'm-7', '{"msg_id":"m-7"}');
    const deadId = newDeliveryId(k8.shardOf(failed));
    const deliveries8 = createDeliveryStore({ redis, keys: k8, ttlS: 3600, deadLetterTtlS: 86_400 });
    await deliveries8.create(record(deadId, failed));
    await deliveries8.deadLetter(deadId, 'failed', 'the receiver refused it', Date.now());
    expect(k8.autoReplyStopped(stopped)).to.not.equal(k16.autoReplyStopped(stopped));
    // Under 16 shards, before the move, the stop is not seen: the conversation would be answered again.
    expect((await turns(k16).snapshot(stopped)).stopped).to.equal(false);

    const env = { ...testRedisEnv(), REDIS_PREFIX: prefix, QUEUE_SHARDS: '16' };
    const result = await runCli(['shards', 'migrate', '--json'], env);
    expect(result.code, result.stderr + result.stdout).to.equal(0);
    expect(jsonLines(result.stdout)[0]).to.deep.include({ ok: true, from: 8, to: 16, deadLetters: 1, conflicts: [] });

    expect((await turns(k16).snapshot(stopped)).stopped).to.equal(true);
    expect(await redis.lrange(k16.contextOrder(talking), 0, -1)).to.deep.equal(['m-7']);
    expect(await redis.hget(k16.contextMessages(talking), 'm-7')).to.equal('{"msg_id":"m-7"}');
    const deliveries16 = createDeliveryStore({ redis, keys: k16, ttlS: 3600, deadLetterTtlS: 86_400 });
    expect((await deliveries16.get(deadId))?.dead_reason).to.equal('failed');
    expect((await deliveries16.listDead(0, 10)).map((r) => r.delivery_id)).to.deep.equal([deadId]);
    expect(await redis.get(k16.shardCount)).to.equal('16');
    for (const old of [k8.autoReplyStopped(stopped), k8.contextOrder(talking), k8.delivery(deadId)])
      expect(await redis.exists(old), old).to.equal(0);
    // The CLI now runs with 16 shards and sees the dead letter.
    const listed = await runCli(['dead-letters', 'list', '--json'], env);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.include(deadId);
  });

  it('refuses, moving nothing, while a reply is still on its way', async () => {
    const prefix = uniquePrefix('reshard');
    const [k8, k16] = [createRedisKeys(prefix, 8), createRedisKeys(prefix, 16)];
    await redis.set(k8.shardCount, '8');
    await turns(k8).schedule({
      message: {
        msg_id: 'm-1',
        role: 'customer',
        from_user_id: 'u',
        content: [{ type: 'text', content: 'hello' }],
        event_type: 'auto_dialog',
        create_timestamp: Math.floor(Date.now() / 1000),
      },
      client: 'acme',
      conversationId: 'c_reshard_waiting',
      sendUrl: 'https://hooks.example/acme',
      groupId: undefined,
      groupName: undefined,
      boundAccountId: 'b',
      receivedAtMs: Date.now(),
    });
    await turns(k8).cancel('c_reshard_stop', { setStop: true, pauseMs: 0 });
    const result = await runCli(['shards', 'migrate'], { ...testRedisEnv(), REDIS_PREFIX: prefix, QUEUE_SHARDS: '16' });
    expect(result.code).to.equal(1);
    expect(result.stdout).to.include('not drained, nothing moved');
    expect(result.stdout).to.include('messages waiting for their reply');
    expect(await redis.get(k8.shardCount)).to.equal('8');
    expect((await turns(k8).snapshot('c_reshard_stop')).stopped).to.equal(true);
    expect((await turns(k16).snapshot('c_reshard_stop')).stopped).to.equal(false);
  });

  it('knows no --from-untagged (data of unreleased versions is not migrated, docs/development.md): a usage error, nothing changed', async () => {
    const prefix = uniquePrefix('untagged');
    await redis.set(`${prefix}stop:c_old_stopped`, '1');
    const result = await runCli(['shards', 'migrate', '--from-untagged'], { ...testRedisEnv(), REDIS_PREFIX: prefix, QUEUE_SHARDS: '16' });
    expect(result.code).to.not.equal(0);
    expect(result.stdout + result.stderr).to.include('usage: shards migrate');
    expect(await redis.get(`${prefix}stop:c_old_stopped`)).to.equal('1');
    expect(await redis.get(createRedisKeys(prefix, 16).shardCount)).to.equal(null);
  });
});
