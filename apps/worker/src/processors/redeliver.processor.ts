import { processRedelivery, type WorkerDeps } from '@dialog-relay/auto-reply';
import type { JobPayloads } from '@dialog-relay/queue';
import type { Job } from 'bullmq';
import { applyDecision } from './job-runner.js';

export const redeliverProcessor = (deps: WorkerDeps) =>
  async (job: Job, payload: JobPayloads['redeliver'], token: string | undefined): Promise<void> =>
    applyDecision(job, token, await processRedelivery(deps, payload));
