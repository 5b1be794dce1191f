import type { RedisKeys } from '@dialog-relay/redis';
import type { Queue } from 'bullmq';
import { JOB_NAMES, turnJobId, type JobName, type JobPayloads } from './job-catalog.js';

export interface AddOptions {
  jobId: string;
  shard: number;
  delayMs?: number;
}

/**
 * The arguments of one add: a job name with its own payload. Distributed over the names, so a name
 * typed only as JobName must still come with a payload that fits whichever name it is (no mixing).
 */
export type JobAddArgs<Name extends JobName> = { [N in Name]: [name: N, payload: JobPayloads[N], options: AddOptions] }[Name];

/** The one typed way to put jobs on the reply queues: a payload of the wrong type does not compile. */
export interface JobProducer {
  /** A job on the queue of `shard` (the shard of the conversation or delivery it is about). */
  add<Name extends JobName>(...args: JobAddArgs<Name>): Promise<void>;
  /** Adds the conversation's turn job unless it exists (BullMQ ignores a duplicate job id). */
  addTurn(conversationId: string, generation: number, delayMs: number): Promise<void>;
  /**
   * Makes sure the conversation's turn job of `generation` can still run (the safety net): adds it
   * when there is none; one that exists but has finished (completed, or failed without its end
   * decided) can never run again and is replaced. Says what it did.
   */
  ensureTurn(conversationId: string, generation: number): Promise<'exists' | 'added' | 'replaced'>;
  /** Removes the turn job if it is waiting or delayed (an active or locked one stays). */
  removeTurn(conversationId: string, generation: number): Promise<void>;
}

export function createJobProducer(queues: readonly Queue[], keys: Pick<RedisKeys, 'shardOf'>): JobProducer {
  const queueOf = (shard: number): Queue => {
    const queue = queues[shard];
    if (!queue) throw new Error(`no reply queue for shard ${shard} (${queues.length} shards)`);
    return queue;
  };
  const add: JobProducer['add'] = async (...[name, payload, options]) => {
    await queueOf(options.shard).add(name, payload, { jobId: options.jobId, ...(options.delayMs ? { delay: options.delayMs } : {}) });
  };
  return {
    add,
    addTurn: (conversationId, generation, delayMs) =>
      add(
        JOB_NAMES.conversationTurn,
        { conversationId, generation },
        { jobId: turnJobId(conversationId, generation), shard: keys.shardOf(conversationId), delayMs },
      ),
    async ensureTurn(conversationId, generation) {
      const queue = queueOf(keys.shardOf(conversationId));
      const jobId = turnJobId(conversationId, generation);
      const state = await queue.getJobState(jobId);
      const finished = state === 'completed' || state === 'failed';
      if (!finished && state !== 'unknown') return 'exists';
      if (finished) await queue.remove(jobId);
      await add(JOB_NAMES.conversationTurn, { conversationId, generation }, { jobId, shard: keys.shardOf(conversationId) });
      return finished ? 'replaced' : 'added';
    },
    async removeTurn(conversationId, generation) {
      await queueOf(keys.shardOf(conversationId))
        .remove(turnJobId(conversationId, generation))
        .catch(() => 0);
    },
  };
}
