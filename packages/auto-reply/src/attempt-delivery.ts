import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';
import { retryDelayMs, type AttemptOutcome } from '@dialog-relay/delivery';
import type { DeadReason, DeliveryRecord } from '@dialog-relay/queue';
import { webhookSigningKey } from '@dialog-relay/signing';
import { DONE, type JobDecision, type WorkerDeps } from './worker-deps.js';

const boundAccountOf = (payload: string): string =>
  (JSON.parse(payload) as { message_info?: { from_user_id?: string } }).message_info?.from_user_id ?? '';

/**
 * One delivery attempt of a reply (CONTRACT §7, §8): refuses to start when the reply is stale or
 * the conversation was stopped (atomically with marking the attempt in flight), records the
 * attempt, and decides: delivered, dead letter, or retry at a time that never passes the deadline.
 * `generation` null is an operator's redelivery, not bound to the conversation's current turn.
 */
export async function attemptDelivery(deps: WorkerDeps, record: DeliveryRecord, generation: number | null): Promise<JobDecision> {
  const { turns, deliveries, settings } = deps;
  const id = record.delivery_id;
  const log = deps.logger.child({ conversation_id: record.conversation_id, delivery_id: id });
  const deadLetter = async (reason: DeadReason): Promise<JobDecision> => {
    if (await deliveries.deadLetter(id, reason, deps.nowMs())) log.warn('reply dead-lettered', { reason });
    else log.info('reply not dead-lettered: it was cancelled meanwhile', { reason });
    return DONE;
  };

  // The stop check comes first: a stopped conversation's reply is cancelled, never dead-lettered.
  // The attempt count is read in the same round trip (reading it is harmless if the attempt is refused).
  const [go, previous] = await Promise.all([
    turns.beginAttempt(record.conversation_id, generation, id, settings.timeoutMs + 5000),
    deliveries.attemptCount(id),
  ]);
  if (!go) {
    await deliveries.cancel(id);
    log.info('delivery cancelled: auto reply stopped');
    return DONE;
  }
  const client = deps.nowMs() >= record.deadline_ms ? undefined : await deps.findClient(record.client);
  if (!client) {
    await turns.endAttempt(record.conversation_id, id);
    return deadLetter(deps.nowMs() >= record.deadline_ms ? 'stale' : 'permanent');
  }
  const attempt = previous + 1;
  const startedAt = deps.nowMs();
  const outcome = await deps.deliverer.deliver({
    url: record.send_url,
    body: record.payload,
    deliveryId: id,
    timestampS: Math.floor(startedAt / 1000),
    signingKey: webhookSigningKey(client.webhookSecret ?? client.secrets[0] ?? ''),
    timeoutMs: settings.timeoutMs,
  });
  log.info('delivery attempt', { attempt, outcome: outcome.kind, status: outcome.status, latency_ms: Math.round(outcome.latencyMs), error: outcome.error });

  // Decide first, then write everything that follows from the attempt in one round trip.
  const next = decide(deps, record, outcome, attempt);
  const recorded = Promise.all([
    turns.endAttempt(record.conversation_id, id),
    deliveries.appendAttempt(id, {
      attempt,
      at: new Date(startedAt).toISOString(),
      status: outcome.status,
      latency_ms: Math.round(outcome.latencyMs),
      error: outcome.error,
      response_body: outcome.responseBody,
    }),
  ]);
  switch (next.kind) {
    case 'delivered': {
      const reply: ContextMessage = {
        msg_id: id,
        role: 'bot',
        from_user_id: boundAccountOf(record.payload),
        content: JSON.parse(record.reply_content) as ReplyPart[],
        event_type: 'auto_dialog',
        create_timestamp: Math.floor(startedAt / 1000),
      };
      // The receiver accepted it, so it belongs in the history even if a stop landed meanwhile.
      await Promise.all([recorded, deliveries.setState(id, 'delivered'), deps.contexts.record(record.conversation_id, [reply])]);
      return DONE;
    }
    case 'dead': {
      const [, decision] = await Promise.all([recorded, deadLetter(next.reason)]);
      return decision;
    }
    case 'retry': {
      // Refused when a stop cancelled the delivery during this attempt: then nothing is retried.
      const [, retrying] = await Promise.all([recorded, deliveries.setState(id, 'retrying')]);
      return retrying ? { kind: 'wait', untilMs: next.untilMs } : DONE;
    }
  }
}

type Next = { kind: 'delivered' } | { kind: 'dead'; reason: DeadReason } | { kind: 'retry'; untilMs: number };

/** What follows an attempt: retry decisions come from the typed outcome, never from HTTP exceptions. */
function decide(deps: WorkerDeps, record: DeliveryRecord, outcome: AttemptOutcome, attempt: number): Next {
  const { settings } = deps;
  switch (outcome.kind) {
    case 'delivered':
      return { kind: 'delivered' };
    case 'permanent':
      return { kind: 'dead', reason: 'permanent' };
    case 'retry': {
      if (attempt - record.attempt_base >= settings.maxAttempts) return { kind: 'dead', reason: 'exhausted' };
      const delay = retryDelayMs({
        failedAttempts: attempt,
        baseMs: settings.backoffMs,
        maxDelayMs: settings.maxBackoffMs,
        retryAfterMs: outcome.retryAfterMs,
        maxRetryAfterMs: settings.replyMaxAgeMs,
        random: deps.random,
      });
      const untilMs = deps.nowMs() + delay;
      return untilMs >= record.deadline_ms ? { kind: 'dead', reason: 'stale' } : { kind: 'retry', untilMs };
    }
  }
}
