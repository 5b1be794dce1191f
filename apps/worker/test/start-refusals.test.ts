import { createRedisKeys } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { spawnSync } from 'node:child_process';

const MAIN = new URL('../src/main.js', import.meta.url).pathname;

/** A worker process refuses configurations that would strand or misplace data, with exit code 78. */
describe('worker start-up refusals', function () {
  this.timeout(30_000);

  it('refuses two Redis modes at once, naming both (exit 78)', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, REDIS_URL: testRedisUrl(), REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'relay' }, encoding: 'utf8', timeout: 20_000,
    });
    expect(result.status).to.equal(78);
    expect(result.stderr).to.include('REDIS_URL and REDIS_SENTINELS are both set');
  });

  it('refuses 16 shards against a Redis that recorded 8 (exit 78, naming QUEUE_SHARDS)', async () => {
    const prefix = uniquePrefix('wshards');
    const redis = new Redis(testRedisUrl());
    await redis.set(createRedisKeys(prefix, 8).shardCount, '8');
    redis.disconnect();
    const result = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, QUEUE_SHARDS: '16' }, encoding: 'utf8', timeout: 20_000,
    });
    expect(result.status, result.stderr).to.equal(78);
    expect(result.stderr).to.match(/QUEUE_SHARDS is 16 but the data in Redis was written with 8 shards/);
  });
});
