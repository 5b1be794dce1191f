import { deliveryIdOf, type JobPayloads } from '@dialog-relay/queue';
import { attemptDelivery } from './attempt-delivery.js';
import { produceReply } from './produce-reply.js';
import { DONE, type JobDecision, type WorkerDeps } from './worker-deps.js';

/**
 * One run of a conversation's turn job (CONTRACT §6): take the due messages (waiting out the
 * debounce window), produce one reply, make one delivery attempt; when the turn is over, advance
 * the conversation and queue the next turn if messages arrived meanwhile. Idempotent: a re-run
 * after a crash finds the same batch and the same reply.
 */
export async function processTurn(deps: WorkerDeps, payload: JobPayloads['conversation-turn']): Promise<JobDecision> {
  const { conversationId, generation } = payload;
  const finishTurn = async (): Promise<JobDecision> => {
    const next = await deps.turns.finish(conversationId, generation);
    if (next.next) await deps.addTurnJob(conversationId, next.generation, 0);
    return DONE;
  };

  const taken = await deps.turns.take(conversationId, generation, deps.settings.debounceMs);
  switch (taken.kind) {
    case 'wait':
      return { kind: 'wait', untilMs: deps.nowMs() + taken.ms };
    case 'stale':
    case 'stopped':
      // The turn was stopped (or superseded) while this job waited: its reply, if any, will not be sent.
      await deps.deliveries.cancel(deliveryIdOf(conversationId, generation));
      return finishTurn();
    case 'empty':
      return finishTurn();
    case 'batch': {
      const record = await produceReply(deps, taken.messages, generation);
      if (!record || record.state === 'delivered' || record.state === 'dead' || record.state === 'cancelled') return finishTurn();
      const decision = await attemptDelivery(deps, record, generation);
      return decision.kind === 'wait' ? decision : finishTurn();
    }
  }
}

/** One run of an operator's redelivery of a dead letter: attempts until delivered, dead again, or stopped. */
export async function processRedelivery(deps: WorkerDeps, payload: JobPayloads['redeliver']): Promise<JobDecision> {
  const record = await deps.deliveries.get(payload.deliveryId);
  if (!record || record.state === 'delivered' || record.state === 'cancelled' || record.state === 'dead') return DONE;
  return attemptDelivery(deps, record, null);
}
