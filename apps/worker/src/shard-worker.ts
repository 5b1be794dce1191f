import { Worker, type Job, type WorkerOptions } from 'bullmq';
import type { TakeLimit } from './take-limit.js';

/** What a shard worker runs for each job. */
export type JobProcessor = (job: Job, token: string | undefined) => Promise<void>;

/**
 * One shard's BullMQ worker under the replica's take limit (take-limit.ts): a job holds its place
 * from the moment BullMQ processes it until BullMQ has finished it, and passes the place on when
 * BullMQ's finish took the shard's next job too (BullMQ returns that job from processJob and
 * processes it next).
 */
export class ShardWorker extends Worker {
  private readonly limit: TakeLimit;
  private readonly shard: number;
  /** Jobs whose place went back as their processor ended (TakeLimit.ending). */
  private readonly released: WeakSet<Job>;

  constructor(name: string, processor: JobProcessor, options: WorkerOptions, limit: TakeLimit, shard: number) {
    const released = new WeakSet<Job>();
    super(
      name,
      async (job: Job, token?: string): Promise<void> => {
        try {
          await processor(job, token);
        } finally {
          if (limit.ending(shard)) released.add(job);
        }
      },
      options,
    );
    this.limit = limit;
    this.shard = shard;
    this.released = released;
  }

  override async processJob(job: Job, token: string, fetchNextCallback?: () => boolean): Promise<void | Job> {
    this.limit.started(this.shard);
    let next: void | Job = undefined;
    try {
      next = await super.processJob(job, token, fetchNextCallback);
      return next;
    } finally {
      this.limit.done(this.shard, { released: this.released.has(job), carried: next !== undefined });
    }
  }
}
