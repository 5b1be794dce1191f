import type { Logger } from '@dialog-relay/logger';
import type { JobProducer } from '@dialog-relay/queue';
import type { TurnStore } from './turn.store.js';

/** Conversations looked at per shard and sweep (the rest wait for the next sweep). */
const SWEEP_LIMIT = 200;

export interface TurnSweeperDeps {
  turns: Pick<TurnStore, 'claimOverdue' | 'waitingTurn'>;
  jobs: Pick<JobProducer, 'ensureTurn'>;
  shards: number;
  logger: Logger;
  settings: {
    /** Messages waiting this long are checked for a turn job (config's replies.rescueAfterMs). */
    rescueAfterMs: number;
    /** Mean time between two sweeps of one worker (config's replies.sweepIntervalMs). */
    intervalMs: number;
  };
  random?: () => number;
}

/**
 * The safety net of docs/service-rules.md §15, "no conversation is ever left with messages waiting
 * and no job": the ingress stores a message (SCHEDULE) and then adds the turn job, two calls; if the
 * second fails and the integrator never retries, the message would wait until the conversation's
 * next message. SCHEDULE also records the conversation in its shard's sorted set of waiting
 * conversations (TAKE and CANCEL take it out once nothing waits); this sweep makes sure a turn job
 * exists for each one that has waited longer than rescueAfterMs. Adding an existing job is a no-op,
 * so the sweep is safe whatever the turn is doing. Returns how many turn jobs it had to add.
 */
export async function sweepWaitingTurns(deps: TurnSweeperDeps, shard: number): Promise<number> {
  const overdue = await deps.turns.claimOverdue(shard, deps.settings.rescueAfterMs, SWEEP_LIMIT);
  let added = 0;
  for (const conversationId of overdue) {
    const generation = await deps.turns.waitingTurn(conversationId);
    if (generation === undefined) continue;
    const done = await deps.jobs.ensureTurn(conversationId, generation);
    if (done === 'exists') continue;
    added += 1;
    deps.logger.warn('messages were waiting without a turn job: job added', { conversation_id: conversationId, generation, job: done });
  }
  return added;
}

export interface TurnSweeper {
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

/** Sweeps every shard, again and again, at jittered intervals (so replicas do not sweep in step). */
export function startTurnSweeper(deps: TurnSweeperDeps): TurnSweeper {
  const random = deps.random ?? Math.random;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const sweepAll = async (): Promise<void> => {
    for (let shard = 0; shard < deps.shards && !stopped; shard++) {
      try {
        await sweepWaitingTurns(deps, shard);
      } catch (error) {
        deps.logger.warn('sweep for waiting messages failed: retried at the next sweep', {
          shard,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = sweepAll().finally(schedule);
      },
      deps.settings.intervalMs * (0.5 + random()),
    );
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
