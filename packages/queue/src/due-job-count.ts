import type { Redis } from '@dialog-relay/redis';
import type { Queue } from 'bullmq';
import { DELAYED_SCORE_MS } from './oldest-due-job.js';

/**
 * How many reply jobs are due and wait for a worker, over every shard queue, read on `redis` (the
 * queues' Redis): the wait list, prioritized jobs, and delayed jobs whose time has come (BullMQ moves
 * them to the wait list only when a worker asks for work, so with no worker they stay delayed).
 * Jobs whose delay has not passed (a debounce window, a delivery retry's backoff) are never counted:
 * more workers would not send them sooner. What a worker autoscaler (KEDA) scales on.
 */
export async function dueJobCount(redis: Redis, queues: readonly Queue[], nowMs: number): Promise<number> {
  // A delayed job's score is its due millisecond × 0x1000 plus a counter below 0x1000.
  const lastDueScore = (Math.floor(nowMs) + 1) * DELAYED_SCORE_MS - 1;
  const counts = await Promise.all(
    queues.map(async (queue) => {
      const [waiting, prioritized, due] = await Promise.all([
        redis.llen(queue.toKey('wait')),
        redis.zcard(queue.toKey('prioritized')),
        redis.zcount(queue.toKey('delayed'), '-inf', lastDueScore),
      ]);
      return waiting + prioritized + due;
    }),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}
