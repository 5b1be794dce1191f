import { createRedisKeys } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { runCli } from './support/run-cli.js';

/** The CLI refuses what the services refuse, with the same exit code (78: bad configuration). */
describe('cli configuration refusals', function () {
  this.timeout(30_000);

  it('exits 78 with two Redis modes, naming both', async () => {
    const result = await runCli(['clients', 'list'], { REDIS_URL: testRedisUrl(), REDIS_CLUSTER_NODES: '127.0.0.1:7001' });
    expect(result.code).to.equal(78);
    expect(result.stderr).to.include('REDIS_URL and REDIS_CLUSTER_NODES are both set');
  });

  it('exits 78 naming QUEUE_SHARDS when a command touching shard keys runs with 16 shards against a Redis that recorded 8', async () => {
    const prefix = uniquePrefix('cshards');
    const redis = new Redis(testRedisUrl());
    await redis.set(createRedisKeys(prefix, 8).shardCount, '8');
    redis.disconnect();
    const env = { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, QUEUE_SHARDS: '16' };
    for (const args of [
      ['deliveries', 'list', '--conversation', 'c_x'],
      ['deliveries', 'show', 'dlv_x_s1'],
      ['conversation', 'status', 'c_x'],
      ['dead-letters', 'list'],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(78);
      expect(result.stderr).to.match(/QUEUE_SHARDS is 16 but the data in Redis was written with 8 shards/);
    }
    // clients keys carry no shard tag: that command still works.
    expect((await runCli(['clients', 'list'], env)).code).to.equal(0);
  });
});
