import { randomUUID } from 'node:crypto';

/**
 * The Redis the current test run uses: the private server started by the mocha global set-up
 * (TEST_REDIS_URL), else REDIS_URL.
 */
export function testRedisUrl(): string {
  const url = process.env['TEST_REDIS_URL'] ?? process.env['REDIS_URL'];
  if (!url) throw new Error('no Redis for tests: install redis-server or set REDIS_URL');
  return url;
}

/** A key prefix no other test uses, so tests can share one server without touching each other's keys. */
export function uniquePrefix(label = 't'): string {
  return `test:${label}:${randomUUID().slice(0, 8)}:`;
}

/**
 * The Redis variables a service under test gets: the cluster of the cluster pass, the sentinels of
 * the Sentinel pass (TEST_REDIS_TOPOLOGY starts them, see mocha-global), or the run's single server.
 */
export function testRedisEnv(): Record<string, string> {
  const nodes = process.env['TEST_REDIS_CLUSTER_NODES'];
  if (nodes) return { REDIS_CLUSTER_NODES: nodes };
  const sentinels = process.env['TEST_REDIS_SENTINELS'];
  if (sentinels) return { REDIS_SENTINELS: sentinels, REDIS_SENTINEL_NAME: process.env['TEST_REDIS_SENTINEL_NAME'] ?? '' };
  return { REDIS_URL: testRedisUrl() };
}

/** True in the cluster pass. */
export const onTestCluster = (): boolean => process.env['TEST_REDIS_CLUSTER_NODES'] !== undefined;
