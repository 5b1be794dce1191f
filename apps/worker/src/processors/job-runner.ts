import type { JobDecision } from '@dialog-relay/auto-reply';
import { DelayedError, type Job } from 'bullmq';

/** Turns a domain decision into BullMQ: done, or back to the delayed set until `untilMs` (not a failed attempt). */
export async function applyDecision(job: Job, token: string | undefined, decision: JobDecision): Promise<void> {
  if (decision.kind === 'done') return;
  await job.moveToDelayed(decision.untilMs, token);
  throw new DelayedError();
}
