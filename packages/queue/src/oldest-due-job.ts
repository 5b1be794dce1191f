import type { Redis } from '@dialog-relay/redis';
import type { Job, Queue } from 'bullmq';

/** BullMQ scores a delayed job by the millisecond it is due times 0x1000 (plus a counter for order within that ms). */
export const DELAYED_SCORE_MS = 0x1000;

/**
 * When a waiting job became due: when it was added plus the delay it was added with (a promoted
 * job's `delay` is reset to 0, its options keep it), and never before its last run started.
 */
const dueOfWaiting = (job: Job): number => Math.max(job.timestamp + Math.max(job.delay ?? 0, job.opts.delay ?? 0), job.processedOn ?? 0);

/** When the job that is due first in the delayed set is (or was) due, from its score; undefined when the set is empty. */
async function firstDueOfDelayed(redis: Redis, queue: Queue): Promise<number | undefined> {
  const [, score] = await redis.zrange(queue.toKey('delayed'), 0, '0', 'WITHSCORES');
  return score === undefined ? undefined : Math.floor(Number(score) / DELAYED_SCORE_MS);
}

/**
 * How long the oldest reply job that is due has waited for a worker, over every shard queue
 * (0: none waits), read on `redis` (the queues' Redis). A due job counts whether it is already in the wait list or still in the delayed
 * set: BullMQ moves due jobs to the wait list only when a worker asks for work, so with no worker
 * (or stuck ones) they stay delayed.
 */
export async function oldestDueJobAgeMs(redis: Redis, queues: readonly Queue[], nowMs: number): Promise<number> {
  const dues = await Promise.all(
    queues.map(async (queue) => {
      const [waiting] = await queue.getJobs(['waiting'], 0, 0, true);
      const delayed = await firstDueOfDelayed(redis, queue);
      return [waiting === undefined ? undefined : dueOfWaiting(waiting), delayed];
    }),
  );
  const ages = dues.flat().map((due) => (due === undefined || due > nowMs ? 0 : nowMs - due));
  return Math.max(0, ...ages);
}
