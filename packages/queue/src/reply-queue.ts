import type { Redis } from '@dialog-relay/redis';
import { Queue } from 'bullmq';
import { QUEUE_NAMES } from './job-catalog.js';

/**
 * The BullMQ queue of replies, as the producer sees it. Completed jobs are kept an hour (so a
 * late duplicate add of the same job id is ignored); failed ones a week for inspection.
 */
export function createReplyQueue(connection: Redis, bullPrefix: string): Queue {
  return new Queue(QUEUE_NAMES.replies, {
    connection,
    prefix: bullPrefix,
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 7 * 86_400 },
    },
  });
}
