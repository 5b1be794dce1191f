import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';
import { failedOutcome, retryDelayMs, type AttemptOutcome } from '@dialog-relay/delivery';
import { DONE, type JobDecision } from '@dialog-relay/queue';
import { webhookSigningKey } from '@dialog-relay/signing';
import type { DeadReason, DeliveryRecord } from './reply.types.js';
import { NO_REPLY_METRICS, statusClassOf } from './reply-metrics.js';
import type { WorkerDeps } from './worker-deps.js';

const boundAccountOf = (payload: string): string =>
  (JSON.parse(payload) as { message_info?: { from_user_id?: string } }).message_info?.from_user_id ?? '';

/**
 * One delivery attempt of a reply (docs/service-rules.md §7, §8, §14): refuses to start when the conversation
 * was stopped or the turn cancelled (atomically with marking the attempt in flight, and again once
 * the connection is open when an abort may have been lost), dead-letters a
 * stale reply or one whose client is gone, records the attempt, and decides: delivered, dead letter,
 * or retry at a time that never passes the deadline. An attempt aborted by a stop or a human's
 * message is recorded as cancelled. `generation` null is an operator's redelivery.
 */
export async function attemptDelivery(deps: WorkerDeps, record: DeliveryRecord, generation: number | null, finish?: () => Promise<JobDecision>): Promise<JobDecision> {
  const { turns, deliveries, settings } = deps;
  const id = record.delivery_id;
  const conversationId = record.conversation_id;
  const log = deps.logger.child({ conversation_id: conversationId, delivery_id: id });
  const metrics = deps.metrics ?? NO_REPLY_METRICS;
  // Every way this attempt ends other than a retry ends the turn too.
  const over = finish ?? (() => Promise.resolve(DONE));
  const deadLetter = async (reason: DeadReason, detail: string): Promise<JobDecision> => {
    if (await deliveries.deadLetter(id, reason, detail, deps.nowMs())) {
      log.warn('reply dead-lettered', { reason, detail });
      metrics.deadLetter(reason);
    } else log.info('reply not dead-lettered: it was cancelled meanwhile', { reason });
    return over();
  };

  // Registered before the attempt is marked in flight: a stop or a human's message that finds the
  // marker always reaches this attempt (if its signal is not lost: send checks that).
  const inFlight = deps.attempts.register(conversationId, id);
  let abortedAtMs = 0;
  inFlight.signal.addEventListener('abort', () => (abortedAtMs = deps.nowMs()), { once: true });
  let sent: Sent;
  try {
    sent = await send(deps, record, generation, inFlight);
  } finally {
    inFlight.release();
  }
  switch (sent.kind) {
    case 'refused':
      // Counted by whoever moved the record to cancelled: here, or the stop or human message at the ingress.
      if (await deliveries.cancel(id)) metrics.cancelled('before_attempt');
      log.info('delivery cancelled: auto reply stopped or a human answered');
      return over();
    case 'stale':
      await turns.endAttempt(conversationId, id);
      return deadLetter('stale', `older than REPLY_MAX_AGE_MS (${settings.replyMaxAgeMs} ms) before attempt ${sent.attempt}`);
    case 'unknown_client':
      await turns.endAttempt(conversationId, id);
      return deadLetter('unknown_client', `client ${JSON.stringify(record.client)} is not configured any more`);
    case 'attempted':
      break;
  }
  const { attempt, startedAt } = sent;
  let outcome = sent.outcome;
  // Not posted: aborted, or found stopped by the check again, before the request went out.
  const aborted = inFlight.signal.aborted || !sent.posted;
  if (aborted && sent.posted) outcome = { ...outcome, kind: 'permanent', error: 'cancelled: aborted by stop_auto_reply or a human reply' };
  log.info('delivery attempt', { attempt, outcome: aborted ? 'cancelled' : outcome.kind, status: outcome.status, latency_ms: Math.round(outcome.latencyMs), error: outcome.error });

  // Decide first, then write everything that follows from the attempt in one round trip.
  const next: Next = aborted ? { kind: 'cancelled' } : decide(deps, record, outcome, attempt);
  metrics.attempt(next.kind, statusClassOf(outcome.status), outcome.latencyMs / 1000);
  if (aborted) {
    metrics.cancelled('in_flight');
    if (abortedAtMs > 0) metrics.abortLatency(Math.max(0, deps.nowMs() - abortedAtMs) / 1000);
  }
  const recorded = Promise.all([
    turns.endAttempt(conversationId, id),
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
    case 'cancelled':
      await Promise.all([recorded, deliveries.cancel(id)]);
      await deps.attempts.acknowledge(conversationId, id);
      return over();
    case 'delivered': {
      const reply: ContextMessage = {
        msg_id: id,
        role: 'bot',
        from_user_id: boundAccountOf(record.payload),
        content: JSON.parse(record.reply_content) as ReplyPart[],
        event_type: 'auto_dialog',
        create_timestamp: Math.floor(startedAt / 1000),
      };
      // A stop or a human's message that cancelled the reply during the attempt, without its abort
      // reaching it in time, keeps it cancelled (its attempt shows the receiver's answer): the
      // context holds only replies recorded as delivered.
      const [, delivered] = await Promise.all([recorded, deliveries.setState(id, 'delivered')]);
      if (!delivered) {
        log.info('the receiver accepted a reply cancelled during its attempt: kept cancelled, not recorded in the context', { status: outcome.status });
        return over();
      }
      // The reply joins the context and the turn ends in one round trip (docs/design/performance.md). The
      // commands go out in this order, so the next turn's reply sees this one; only a context script
      // Redis must load first (NOSCRIPT, after a restart) lands a moment after the turn ends.
      const [, decision] = await Promise.all([deps.contexts.record(conversationId, [reply]), over()]);
      // The newest message it answers was accepted REPLY_MAX_AGE_MS before the reply's deadline.
      metrics.delivered(Math.max(0, deps.nowMs() - (record.deadline_ms - settings.replyMaxAgeMs)) / 1000);
      return decision;
    }
    case 'dead': {
      // The attempt is written first, then the record dies: dying gives the attempt log the dead
      // letter's longer expiry, which it could not if a script reload (NOSCRIPT after a restart)
      // let the attempt's append land after it (docs/design/reply-protocol.md, "How long" under dead letters).
      await recorded;
      return deadLetter(next.reason, next.detail);
    }
    case 'retry': {
      // Refused when a stop cancelled the delivery during this attempt: then nothing is retried.
      const [, retrying] = await Promise.all([recorded, deliveries.setState(id, 'retrying')]);
      return retrying ? { kind: 'wait', untilMs: next.untilMs } : over();
    }
  }
}

type Sent =
  | { kind: 'refused' }
  | { kind: 'stale'; attempt: number }
  | { kind: 'unknown_client' }
  /** posted false: aborted, or found stopped by the second check, before the request went out (nothing reached the receiver). */
  | { kind: 'attempted'; attempt: number; startedAt: number; outcome: AttemptOutcome; posted: boolean };

const cancelledBeforeSent = 'cancelled: aborted by stop_auto_reply or a human reply before the request was sent';

/**
 * Looks up the client, marks the attempt in flight (refused once stopped or superseded) and POSTs,
 * unless the attempt was aborted meanwhile. An attempt marked in flight ends in the caller's
 * endAttempt (the outcomes other than refused).
 *
 * "No attempt starts after the stop's answer" (docs/design/reply-protocol.md, Stop, resume, status): nothing
 * slow lies between the atomic check in BEGIN_ATTEMPT and the POST, and when an abort may have been
 * lost on the way (the worker's subscriber was away since the attempt registered), the check runs
 * again once the connection is open, right before the request is written.
 */
async function send(deps: WorkerDeps, record: DeliveryRecord, generation: number | null, inFlight: { signal: AbortSignal; heardThroughout: () => boolean }): Promise<Sent> {
  const { turns, deliveries, settings } = deps;
  const id = record.delivery_id;
  const conversationId = record.conversation_id;
  // The slow step comes before the check: the client lookup (on a cache miss a Redis read, which may
  // wait out a reconnect). The attempt count is read meanwhile; with a cached client it goes out in
  // the check's round trip (reading it is harmless if the attempt is refused).
  const counted = deliveries.attemptCount(id);
  counted.catch(() => undefined); // awaited below; a failed lookup must not leave it unhandled
  const client = await deps.findClient(record.client);
  // The stop check comes before the deadline and the client: a stopped conversation's reply is
  // cancelled, never dead-lettered (not even when its client is gone).
  const [go, previous] = await Promise.all([turns.beginAttempt(conversationId, generation, id), counted]);
  if (!go) return { kind: 'refused' };
  const attempt = previous + 1;
  if (deps.nowMs() >= record.deadline_ms) return { kind: 'stale', attempt };
  if (!client) return { kind: 'unknown_client' };
  const startedAt = deps.nowMs();
  if (inFlight.signal.aborted) return { kind: 'attempted', attempt, startedAt, posted: false, outcome: failedOutcome('permanent', cancelledBeforeSent, 0) };
  // A stop that found this attempt's marker published an abort; if the worker may have missed it,
  // the same check again (idempotent: it only renews the marker) decides, once the connection is
  // open, whether the request is written.
  let stoppedBeforeSend = false;
  const beforeSend = async (): Promise<boolean> => {
    if (inFlight.heardThroughout()) return true;
    stoppedBeforeSend = !(await turns.beginAttempt(conversationId, generation, id));
    return !stoppedBeforeSend;
  };
  const outcome = await deps.deliverer.deliver({
    url: record.send_url,
    body: record.payload,
    deliveryId: id,
    timestampS: Math.floor(startedAt / 1000),
    signingKey: webhookSigningKey(client.webhookSecret ?? client.secrets[0] ?? ''),
    timeoutMs: settings.timeoutMs,
    allowPrivate: client.allowPrivateSendUrls,
    signal: inFlight.signal,
    beforeSend,
  });
  if (stoppedBeforeSend) return { kind: 'attempted', attempt, startedAt, posted: false, outcome: { ...outcome, error: cancelledBeforeSent } };
  return { kind: 'attempted', attempt, startedAt, posted: true, outcome };
}

type Next = { kind: 'delivered' } | { kind: 'cancelled' } | { kind: 'dead'; reason: DeadReason; detail: string } | { kind: 'retry'; untilMs: number };

const describe = (outcome: AttemptOutcome): string => (outcome.status !== null ? `HTTP ${outcome.status}` : (outcome.error ?? 'no answer'));

/** What follows an attempt: retry decisions come from the typed outcome, never from HTTP exceptions. */
function decide(deps: WorkerDeps, record: DeliveryRecord, outcome: AttemptOutcome, attempt: number): Next {
  const { settings } = deps;
  switch (outcome.kind) {
    case 'delivered':
      return { kind: 'delivered' };
    case 'permanent':
      return { kind: 'dead', reason: 'permanent_status', detail: `${describe(outcome)} is not retried` };
    case 'retry': {
      if (attempt - record.attempt_base >= settings.maxAttempts) {
        return { kind: 'dead', reason: 'attempts_exhausted', detail: `${settings.maxAttempts} attempts, the last: ${describe(outcome)}` };
      }
      const delay = retryDelayMs({
        // A replay starts a fresh series (attempt_base): its backoff too, as its count of attempts.
        failedAttempts: attempt - record.attempt_base,
        baseMs: settings.backoffMs,
        maxDelayMs: settings.maxBackoffMs,
        retryAfterMs: outcome.retryAfterMs,
        maxRetryAfterMs: settings.replyMaxAgeMs,
        random: deps.random,
      });
      const untilMs = deps.nowMs() + delay;
      return untilMs >= record.deadline_ms ? { kind: 'dead', reason: 'stale', detail: `the next retry (after ${describe(outcome)}) would pass the reply's deadline` } : { kind: 'retry', untilMs };
    }
  }
}
