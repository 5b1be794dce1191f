import { DelayedError, type Job } from 'bullmq';
import { isJobName, type JobDecision, type JobHandlers, type JobName, type JobPayloads, type WaitingProgress } from './job-catalog.js';

export interface DispatchOptions {
  /** Failed runs of one job before its handler's failedForGood runs (the job then completes). */
  failureAttempts: number;
  /** Told of each failed run (with the error) before the job is retried or given up. */
  onError?: (job: Job, error: Error, givingUp: boolean) => void;
}

/** The capped exponential retry delay of a failed run: 1 s, 2 s, 4 s … at most 30 s. */
export const cappedBackoffMs = (attemptsMade: number): number => Math.min(1000 * 2 ** Math.max(0, attemptsMade - 1), 30_000);

/**
 * Runs a BullMQ job through its typed handler and turns the decision into BullMQ: done, or back to
 * the delayed set until `untilMs` (with why, when a step failed: the job's progress). A run that throws is retried (with the capped backoff) until the
 * failure budget is spent; then the handler's failedForGood settles the domain state and the job
 * completes. If failedForGood throws too (Redis away), the job is retried later, running only failedForGood.
 */
export function createJobDispatcher(handlers: JobHandlers, options: DispatchOptions) {
  // Generic in the job name, so handlers[name] is JobHandler<Name> and takes JobPayloads[Name]: no cast
  // but the one from the job's stored data to its catalog type.
  const process = <Name extends JobName>(name: Name, data: unknown): Promise<JobDecision> =>
    handlers[name].process(data as JobPayloads[Name]);
  const giveUp = <Name extends JobName>(name: Name, data: unknown, error: Error): Promise<void> =>
    handlers[name].failedForGood(data as JobPayloads[Name], error);

  return async function dispatch(job: Job, token: string | undefined): Promise<void> {
    const name = job.name;
    if (!isJobName(name)) throw new Error(`no handler for job ${name}`);
    // Past its budget (an earlier give-up failed, e.g. Redis was away): only the give-up is retried.
    if (job.attemptsMade >= options.failureAttempts) {
      await giveUp(name, job.data, new Error(job.failedReason || 'failed earlier runs'));
      return;
    }
    let decision: JobDecision;
    try {
      decision = await process(name, job.data);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      const givingUp = job.attemptsMade + 1 >= options.failureAttempts;
      options.onError?.(job, failure, givingUp);
      if (!givingUp) throw failure;
      await giveUp(name, job.data, failure);
      return;
    }
    if (decision.kind === 'done') return;
    if (decision.lastError === undefined) await job.moveToDelayed(decision.untilMs, token);
    else {
      // Only after a failed step (not a debounce wait): one more command, sent with the move in one round trip.
      const progress: WaitingProgress = { last_error: decision.lastError };
      await Promise.all([job.updateProgress(progress), job.moveToDelayed(decision.untilMs, token)]);
    }
    throw new DelayedError();
  };
}

/** BullMQ's reason for a job it gave up on because it stalled more than maxStalledCount times. */
const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/**
 * For a job BullMQ itself gave up on without running the dispatcher's decision. One that stalled more
 * than maxStalledCount times (its lock lapsed: Redis away, a replica gone) never failed a run of its
 * own: it is handed back as due, same job id, so its work is done once Redis is back; each give-up
 * counts as one failed run, so a job that keeps stalling meets the failure budget and the dispatcher
 * decides its end. Any other (BullMQ's own attempt limit): the handler's failedForGood runs once the
 * job is in the failed set. Attach to the Worker's 'failed' event.
 */
export function createFailedJobListener(handlers: JobHandlers, onError: (job: Job, error: Error) => void) {
  const giveUp = <Name extends JobName>(name: Name, data: unknown, error: Error): Promise<void> =>
    handlers[name].failedForGood(data as JobPayloads[Name], error);
  return async (job: Job | undefined, error: Error): Promise<void> => {
    if (!job || !isJobName(job.name)) return;
    try {
      if (!(await job.isFailed())) return; // a failed run that BullMQ will retry
      if (error.message === STALLED_TOO_OFTEN) await job.retry('failed');
      else await giveUp(job.name, job.data, error);
    } catch (failure) {
      onError(job, failure instanceof Error ? failure : new Error(String(failure)));
    }
  };
}
