import { config } from 'chai';
import { redisServerInstalled, startRedisServer, type RedisServerHandle } from './redis-server.js';
import { startRedisCluster, startRedisSentinel, type RedisClusterHandle, type RedisSentinelHandle } from './redis-topologies.js';

/**
 * A failed assertion shows up to 4,000 characters of the value it read (chai's default: 40), so a
 * failure in a CI run, which cannot be run again to look, shows a process's output or a body whole.
 */
config.truncateThreshold = 4_000;

let server: RedisServerHandle | undefined;
let cluster: RedisClusterHandle | undefined;
let sentinel: RedisSentinelHandle | undefined;

/**
 * Mocha global fixture: one private redis-server for the whole run (else REDIS_URL), and with
 * TEST_REDIS_TOPOLOGY=cluster also a private 3-master cluster that the services under test use, or
 * with TEST_REDIS_TOPOLOGY=sentinel a master, a replica and three sentinels.
 */
export async function mochaGlobalSetup(): Promise<void> {
  if (redisServerInstalled()) {
    server = await startRedisServer();
    process.env['TEST_REDIS_URL'] = server.url;
  } else if (!process.env['REDIS_URL']) {
    throw new Error('Tests need Redis: install redis-server (apt-get install -y redis-server) or set REDIS_URL.');
  }
  if (process.env['TEST_REDIS_TOPOLOGY'] === 'cluster') {
    cluster = await startRedisCluster(3);
    process.env['TEST_REDIS_CLUSTER_NODES'] = cluster.nodes;
  }
  if (process.env['TEST_REDIS_TOPOLOGY'] === 'sentinel') {
    sentinel = await startRedisSentinel('dialog-relay-suite');
    process.env['TEST_REDIS_SENTINELS'] = sentinel.sentinels;
    process.env['TEST_REDIS_SENTINEL_NAME'] = sentinel.name;
  }
}

export async function mochaGlobalTeardown(): Promise<void> {
  await cluster?.dispose();
  await sentinel?.dispose();
  await server?.dispose();
}
