import { processTurn, type WorkerDeps } from '@dialog-relay/auto-reply';
import type { JobPayloads } from '@dialog-relay/queue';
import type { Job } from 'bullmq';
import { applyDecision } from './job-runner.js';

export const conversationTurnProcessor = (deps: WorkerDeps) =>
  async (job: Job, payload: JobPayloads['conversation-turn'], token: string | undefined): Promise<void> =>
    applyDecision(job, token, await processTurn(deps, payload));
