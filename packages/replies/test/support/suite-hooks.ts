import { createRequestRedis, waitForRedis, type Redis } from '@dialog-relay/redis';
import { testRedisUrl } from '@dialog-relay/testkit';
import { createHarness, type Harness } from '../harness.js';

/** Registers a suite's hooks for one connection to the test Redis, named `name`: opened (and handed to `use`) before its tests, closed after them. */
export function testRedisForSuite(name: string, use: (redis: Redis) => void): void {
  let redis: Redis | undefined;
  before(async () => {
    redis = createRequestRedis(testRedisUrl(), { name });
    use(redis);
    await waitForRedis(redis, 5000);
  });
  after(() => redis?.disconnect());
}

/**
 * Registers a suite's hooks for the reply protocol's harness: one connection to the test Redis for the
 * suite, and before each test a fresh harness (keys under a prefix of its own) handed to `use`.
 */
export function harnessPerTest(
  name: string,
  use: (h: Harness, redis: Redis) => void,
  overrides?: Parameters<typeof createHarness>[1],
): void {
  let redis: Redis;
  testRedisForSuite(name, (connection) => (redis = connection));
  beforeEach(() => use(createHarness(redis, overrides), redis));
}
