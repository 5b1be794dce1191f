import { createRedis, createRedisKeys, type Redis } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import type { Queue } from 'bullmq';
import { createReplyQueues } from '../../src/index.js';

/**
 * Registers a suite's hooks: before each test a worker connection named `name` and two shards of
 * reply queues under a fresh prefix, handed to `use`; after it, the queues emptied and closed.
 */
export function replyQueuesPerTest(name: string, use: (redis: Redis, queues: Queue[]) => void): void {
  let redis: Redis;
  let queues: Queue[];
  beforeEach(() => {
    redis = createRedis({ target: { mode: 'single', url: testRedisUrl() }, password: undefined, tls: false }, 'worker', {
      name: `${name}-test`,
    });
    queues = createReplyQueues(redis, createRedisKeys(uniquePrefix(name), 2), { failureAttempts: 3 });
    use(redis, queues);
  });
  afterEach(async () => {
    await Promise.all(queues.map((queue) => queue.obliterate({ force: true })));
    await Promise.all(queues.map((queue) => queue.close()));
    redis.disconnect();
  });
}
