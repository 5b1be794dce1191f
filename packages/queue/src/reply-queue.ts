import type { Redis, RedisKeys } from '@dialog-relay/redis';
import { Queue, type Telemetry } from 'bullmq';
import { QUEUE_NAMES } from './job-catalog.js';

export interface ReplyQueueOptions {
  /** Failed runs of one job before its handler's failedForGood decides (config's jobFailureAttempts). */
  failureAttempts: number;
  /** BullMQ's telemetry (tracing on): a job carries the trace of the request that added it. */
  telemetry?: Telemetry | undefined;
}

/** Name of the capped backoff strategy the worker registers (see job-dispatcher.ts). */
export const CAPPED_BACKOFF = 'capped-exponential';

/**
 * The BullMQ queue of replies, as the producer sees it. BullMQ's own attempt limit sits far above
 * the failure budget: the dispatcher gives up first (through the handler's failedForGood), and a
 * failing give-up is simply retried, so a job never rests in the failed set while Redis is reachable.
 * Completed jobs are kept an hour (so a late duplicate add of the same job id is ignored); failed ones a week.
 */
export function createReplyQueue(connection: Redis, bullPrefix: string, options: ReplyQueueOptions): Queue {
  return new Queue(QUEUE_NAMES.replies, {
    connection,
    prefix: bullPrefix,
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    defaultJobOptions: {
      attempts: options.failureAttempts + 1000,
      backoff: { type: CAPPED_BACKOFF },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 7 * 86_400 },
    },
  });
}

/**
 * The keys of a shard's reply queue that a script of ours reads or writes, as BullMQ names them
 * (QueueBase.toKey: prefix, queue name, type): its list of waiting jobs, its prioritized jobs, and
 * the marker a worker's blocking read waits on. TAKE drops a marker BullMQ left with no job behind it
 * (docs/design/reply-protocol.md, "Round trips of a reply").
 */
export interface ReplyQueueKeys {
  jobsWaiting: string;
  jobsPrioritized: string;
  jobsMarker: string;
}

export function replyQueueKeys(bullPrefix: string): ReplyQueueKeys {
  const key = (type: string): string => `${bullPrefix}:${QUEUE_NAMES.replies}:${type}`;
  return { jobsWaiting: key('wait'), jobsPrioritized: key('prioritized'), jobsMarker: key('marker') };
}

/**
 * One reply queue per shard (docs/service-rules.md §13, docs/design/scaling.md): the same queue name under each shard's
 * hash-tagged prefix, so all of a queue's keys live in one slot, next to its conversations' keys.
 */
export function createReplyQueues(connection: Redis, keys: RedisKeys, options: ReplyQueueOptions): Queue[] {
  return Array.from({ length: keys.shards }, (_, shard) => createReplyQueue(connection, keys.bullPrefix(shard), options));
}
