import type { JobHandlers } from '@dialog-relay/queue';
import { redeliveryFailedForGood, turnFailedForGood } from './job-failures.js';
import { processRedelivery, processTurn } from './process-turn.js';
import type { WorkerDeps } from './worker-deps.js';

/** The worker's handler per job name: how each job runs, and what its final failure decides. */
export function createReplyJobHandlers(deps: WorkerDeps): JobHandlers {
  return {
    'conversation-turn': {
      process: (payload) => processTurn(deps, payload),
      failedForGood: (payload, error) => turnFailedForGood(deps, payload, error),
    },
    redeliver: {
      process: (payload) => processRedelivery(deps, payload),
      failedForGood: (payload, error) => redeliveryFailedForGood(deps, payload, error),
    },
  };
}
