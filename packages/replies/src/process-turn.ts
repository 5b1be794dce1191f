import { DONE, type JobDecision, type JobPayloads } from '@dialog-relay/queue';
import { attemptDelivery } from './attempt-delivery.js';
import { produceReply } from './produce-reply.js';
import { NO_REPLY_METRICS } from './reply-metrics.js';
import type { WorkerDeps } from './worker-deps.js';

/**
 * Advances the conversation past turn G and queues the next turn when messages wait. A turn whose
 * reply handed off pauses the conversation's bot replies in the same script (docs/service-rules.md §17).
 */
export async function finishTurn(deps: WorkerDeps, conversationId: string, generation: number, pauseMs = 0): Promise<JobDecision> {
  const next = await deps.turns.finish(conversationId, generation, pauseMs);
  if (next.next) await deps.jobs.addTurn(conversationId, next.generation, 0);
  return DONE;
}

/**
 * One run of a conversation's turn job (docs/service-rules.md §6, §14): take the due messages (waiting out the
 * debounce window, never past its ceiling), produce one reply, make one delivery attempt; when the
 * turn is over, advance the conversation and queue the next turn if messages arrived meanwhile.
 * Idempotent: a re-run after a crash finds the same batch, the same delivery id and the same reply.
 */
export async function processTurn(deps: WorkerDeps, payload: JobPayloads['conversation-turn']): Promise<JobDecision> {
  const started = deps.nowMs();
  const decision = await runTurn(deps, payload);
  (deps.metrics ?? NO_REPLY_METRICS).turn(decision.kind === 'wait' ? 'waiting' : 'finished', (deps.nowMs() - started) / 1000);
  return decision;
}

async function runTurn(deps: WorkerDeps, payload: JobPayloads['conversation-turn']): Promise<JobDecision> {
  const { conversationId, generation } = payload;
  const deliveryId = deps.newDeliveryId(conversationId);
  // Without a debounce a due turn's take takes its batch: the context the reply needs is read in the
  // same round trip (docs/performance.md). With one, the first take usually waits, so it is not.
  const context = deps.turns.debounces ? undefined : deps.contexts.read(conversationId);
  context?.catch(() => undefined); // awaited below when used; a take that answers otherwise leaves it
  const taken = await deps.turns.take(conversationId, generation, deliveryId);
  switch (taken.kind) {
    case 'wait':
      return { kind: 'wait', untilMs: deps.nowMs() + taken.ms };
    case 'stale':
    case 'stopped':
    case 'empty':
      // Superseded or stopped while this job waited (the stop cancelled its record), or nothing to answer.
      return finishTurn(deps, conversationId, generation);
    case 'batch': {
      // A batch taken just now carries the new delivery id, so no record of it can exist yet.
      let record: Awaited<ReturnType<typeof produceReply>>;
      try {
        record = await produceReply(deps, taken.batch, taken.batch.deliveryId === deliveryId ? { context } : undefined);
      } catch (error) {
        if (!deps.stopping?.aborted) throw error;
        // Draining (docs/service-rules.md §12): handed back, due now; the next run takes the same batch and id.
        deps.logger.info('worker draining: reply production handed back', { conversation_id: conversationId, delivery_id: taken.batch.deliveryId });
        return { kind: 'wait', untilMs: deps.nowMs() };
      }
      const pauseMs = record?.handoff ? (deps.settings.handoffPauseMs ?? 0) : 0;
      if (!record || record.state === 'delivered' || record.state === 'dead' || record.state === 'cancelled') return finishTurn(deps, conversationId, generation, pauseMs);
      return attemptDelivery(deps, record, generation, () => finishTurn(deps, conversationId, generation, pauseMs));
    }
  }
}

/** One run of an operator's redelivery of a dead letter: attempts until delivered, dead again, or stopped. */
export async function processRedelivery(deps: WorkerDeps, payload: JobPayloads['redeliver']): Promise<JobDecision> {
  const record = await deps.deliveries.get(payload.deliveryId);
  if (!record || record.state === 'delivered' || record.state === 'cancelled' || record.state === 'dead') return DONE;
  return attemptDelivery(deps, record, null);
}
