import type { ClientSettings } from '@dialog-relay/config';
import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';
import { failedOutcome, retryDelayMs, type AttemptOutcome } from '@dialog-relay/delivery';
import { webhookHmacKey, type HmacSha256Key } from '@dialog-relay/signing';
import type { Settled, Settlement } from './attempt.store.js';
import type { DeadReason, DeliveryAttempt, DeliveryRecord } from './reply.types.js';
import { NO_REPLY_METRICS, statusClassOf } from './reply-metrics.js';
import type { WorkerDeps } from './worker-deps.js';

/** Each client's webhook key, made once per settings object (a client's change of secret comes as new settings). */
const signingKeys = new WeakMap<ClientSettings, HmacSha256Key>();
function signingKeyOf(client: ClientSettings): HmacSha256Key {
  let key = signingKeys.get(client);
  if (key === undefined) {
    key = webhookHmacKey(client.webhookSecret ?? client.secrets[0] ?? '');
    signingKeys.set(client, key);
  }
  return key;
}

const boundAccountOf = (payload: string): string =>
  (JSON.parse(payload) as { message_info?: { from_user_id?: string } }).message_info?.from_user_id ?? '';

/** How an attempt on a stored or just-produced reply begins: the in-flight marker is already set (TAKE or OPEN_ATTEMPT). */
export interface AttemptStart {
  /** The turn's generation; null for an operator's redelivery. */
  generation: number | null;
  /** Attempts made before this one. */
  attemptsMade: number;
  /** The record was produced by this run (not stored yet: SETTLE stores it). */
  produced: boolean;
  /** Local ms when the marker was set: the check runs again before the POST once it may run out. */
  openedAtMs: number;
}

/** What an attempt came to: what SETTLE writes, and what is reported once it has. */
export interface AttemptEnd {
  settlement: Omit<Settlement, 'endTurn'>;
  /**
   * The decision before SETTLE (which may find the reply cancelled meanwhile); refused: the check
   * before the attempt found the conversation stopped or the turn moved on; none: nothing to send.
   */
  next: Next | { kind: 'refused' } | { kind: 'none' };
  /** When the next attempt runs, for a retry. */
  retryAtMs?: number;
  /** Aborted by a stop or a human's message (an abort to acknowledge). */
  aborted: boolean;
  /** When the abort arrived (local ms; 0 when none). */
  abortedAtMs: number;
  /** The reply's deadline (its newest message was accepted REPLY_MAX_AGE_MS before). */
  deadlineMs: number;
  outcome?: AttemptOutcome;
}

/**
 * One delivery attempt of a reply (docs/service-rules.md §7, §8, §14), whose in-flight marker is set:
 * dead-letters a stale reply or one whose client is gone, POSTs (unless aborted meanwhile, or found
 * stopped by the check again once the connection is open, when an abort may have been lost), and
 * decides: delivered, dead letter, or retry at a time that never passes the deadline. Returns the
 * outcome; the caller settles it (settleAttempt) and ends the turn. Writes nothing itself.
 */
export async function attemptDelivery(
  deps: WorkerDeps,
  record: DeliveryRecord,
  start: AttemptStart,
  inFlight: InFlight,
): Promise<AttemptEnd> {
  const { settings } = deps;
  const id = record.delivery_id;
  const base = {
    conversationId: record.conversation_id,
    generation: start.generation,
    deliveryId: id,
    ...(start.produced ? { produced: record } : {}),
  };
  let abortedAtMs = 0;
  inFlight.signal.addEventListener('abort', () => (abortedAtMs = deps.nowMs()), { once: true });
  const dead = (reason: DeadReason, detail: string, sent?: Sent): AttemptEnd => ({
    settlement: { ...base, state: 'dead', dead: { reason, detail, atMs: deps.nowMs() }, ...(sent ? { attempt: attemptEntry(sent) } : {}) },
    next: { kind: 'dead', reason, detail },
    aborted: false,
    abortedAtMs,
    deadlineMs: record.deadline_ms,
  });
  const attempt = start.attemptsMade + 1;
  // The stop check came first (the marker): a stopped conversation's reply is cancelled, never dead-lettered.
  if (deps.nowMs() >= record.deadline_ms)
    return dead('stale', `older than REPLY_MAX_AGE_MS (${settings.replyMaxAgeMs} ms) before attempt ${attempt}`);
  const client = await deps.findClient(record.client);
  if (!client) return dead('unknown_client', `client ${JSON.stringify(record.client)} is not configured any more`);
  const sent = await send(deps, record, start, client, inFlight, attempt);
  let outcome = sent.outcome;
  // Not posted: aborted, or found stopped by the check again, before the request went out.
  const aborted = inFlight.signal.aborted || !sent.posted;
  if (aborted && sent.posted) outcome = { ...outcome, kind: 'permanent', error: 'cancelled: aborted by stop_auto_reply or a human reply' };
  const entry = attemptEntry({ ...sent, outcome });
  const next: Next = aborted ? { kind: 'cancelled' } : decide(deps, record, outcome, attempt);
  deps.logger.info('delivery attempt', {
    conversation_id: record.conversation_id,
    delivery_id: id,
    attempt,
    outcome: aborted ? 'cancelled' : outcome.kind,
    status: outcome.status,
    latency_ms: Math.round(outcome.latencyMs),
    error: outcome.error,
  });
  switch (next.kind) {
    case 'cancelled':
      return {
        settlement: { ...base, state: 'cancelled', attempt: entry },
        next,
        aborted,
        abortedAtMs,
        deadlineMs: record.deadline_ms,
        outcome,
      };
    case 'delivered': {
      const reply: ContextMessage = {
        msg_id: id,
        role: 'bot',
        from_user_id: boundAccountOf(record.payload),
        content: JSON.parse(record.reply_content) as ReplyPart[],
        event_type: 'auto_dialog',
        create_timestamp: Math.floor(sent.startedAt / 1000),
      };
      return {
        settlement: { ...base, state: 'delivered', attempt: entry, reply },
        next,
        aborted,
        abortedAtMs,
        deadlineMs: record.deadline_ms,
        outcome,
      };
    }
    case 'dead':
      return { ...dead(next.reason, next.detail, { ...sent, outcome }), outcome };
    case 'retry':
      return {
        settlement: { ...base, state: 'retrying', attempt: entry },
        next,
        retryAtMs: next.untilMs,
        aborted,
        abortedAtMs,
        deadlineMs: record.deadline_ms,
        outcome,
      };
  }
}

/**
 * Writes what an attempt came to (SETTLE: the record, its log, the context once delivered, and the
 * end of the turn when `endTurn`), then reports it: logs, metrics, and the acknowledgement a waiting
 * stop listens for. A stop or a human's message that cancelled the reply during the attempt keeps it
 * cancelled (SETTLE sees the stop or the turn moved on): the context holds only delivered replies.
 */
export async function settleAttempt(deps: WorkerDeps, result: AttemptEnd, endTurn: boolean, goOn?: Settlement['goOn']): Promise<Settled> {
  const { settlement, next, outcome } = result;
  const metrics = deps.metrics ?? NO_REPLY_METRICS;
  // Only the rare outcomes log: no child logger per reply.
  const ids = { conversation_id: settlement.conversationId, delivery_id: settlement.deliveryId };
  const log = deps.logger;
  const settled = await deps.attemptStore.settle({ ...settlement, endTurn, ...(goOn ? { goOn } : {}) });
  if (outcome && next.kind !== 'refused' && next.kind !== 'none')
    metrics.attempt(next.kind, statusClassOf(outcome.status), outcome.latencyMs / 1000);
  if (result.aborted) {
    metrics.cancelled('in_flight');
    if (result.abortedAtMs > 0) metrics.abortLatency(Math.max(0, deps.nowMs() - result.abortedAtMs) / 1000);
    await deps.attempts.acknowledge(settlement.conversationId, settlement.deliveryId);
  }
  switch (next.kind) {
    case 'delivered':
      if (settled.moved === 'delivered') {
        metrics.delivered(Math.max(0, deps.nowMs() - (result.deadlineMs - deps.settings.replyMaxAgeMs)) / 1000);
      } else
        log.info('the receiver accepted a reply cancelled during its attempt: kept cancelled, not recorded in the context', {
          ...ids,
          status: outcome?.status,
        });
      break;
    case 'dead':
      if (settled.moved === 'dead') {
        log.warn('reply dead-lettered', { ...ids, reason: next.reason, detail: next.detail });
        metrics.deadLetter(next.reason);
      } else log.info('reply not dead-lettered: it was cancelled meanwhile', { ...ids, reason: next.reason });
      break;
    case 'refused':
      // Counted by whoever moved the record to cancelled: here, or the stop or human message at the ingress.
      if (settled.moved === 'cancelled') metrics.cancelled('before_attempt');
      log.info('delivery cancelled: auto reply stopped or a human answered', ids);
      break;
    case 'retry':
    case 'cancelled':
    case 'none':
      break;
  }
  return settled;
}

type InFlight = { signal: AbortSignal; heardThroughout: () => boolean };

/** posted false: aborted, or found stopped by the second check, before the request went out (nothing reached the receiver). */
type Sent = { attempt: number; startedAt: number; outcome: AttemptOutcome; posted: boolean };

const attemptEntry = (sent: Sent): DeliveryAttempt => ({
  attempt: sent.attempt,
  at: new Date(sent.startedAt).toISOString(),
  status: sent.outcome.status,
  latency_ms: Math.round(sent.outcome.latencyMs),
  error: sent.outcome.error,
  response_body: sent.outcome.responseBody,
});

const cancelledBeforeSent = 'cancelled: aborted by stop_auto_reply or a human reply before the request was sent';

/**
 * POSTs, unless the attempt was aborted meanwhile. "No attempt starts after the stop's answer"
 * (docs/design/reply-protocol.md, Stop, resume, status): the attempt was marked in flight atomically with
 * the stop check (TAKE or OPEN_ATTEMPT), so a later stop finds the marker and publishes an abort.
 * When that abort may have been lost on the way (the worker's subscriber was away since the attempt
 * registered), or the marker may run out before the attempt ends (a slow engine), the check runs
 * again once the connection is open, right before the request is written.
 */
async function send(
  deps: WorkerDeps,
  record: DeliveryRecord,
  start: AttemptStart,
  client: ClientSettings,
  inFlight: InFlight,
  attempt: number,
): Promise<Sent> {
  const { turns, settings } = deps;
  const id = record.delivery_id;
  const startedAt = deps.nowMs();
  if (inFlight.signal.aborted) return { attempt, startedAt, posted: false, outcome: failedOutcome('permanent', cancelledBeforeSent, 0) };
  // The marker must outlast the attempt (its time-out and a second's margin), or a stop would not see it.
  const markerLasts = start.openedAtMs + turns.attemptMarkerTtlMs - settings.timeoutMs - 1000 > startedAt;
  let stoppedBeforeSend = false;
  const beforeSend = async (): Promise<boolean> => {
    if (markerLasts && inFlight.heardThroughout()) return true;
    stoppedBeforeSend = !(await turns.beginAttempt(record.conversation_id, start.generation, id));
    return !stoppedBeforeSend;
  };
  const outcome = await deps.deliverer.deliver({
    url: record.send_url,
    body: record.payload,
    deliveryId: id,
    timestampS: Math.floor(startedAt / 1000),
    signingKey: signingKeyOf(client),
    timeoutMs: settings.timeoutMs,
    allowPrivate: client.allowPrivateSendUrls,
    signal: inFlight.signal,
    beforeSend,
  });
  if (stoppedBeforeSend) return { attempt, startedAt, posted: false, outcome: { ...outcome, error: cancelledBeforeSent } };
  return { attempt, startedAt, posted: true, outcome };
}

export type Next =
  { kind: 'delivered' } | { kind: 'cancelled' } | { kind: 'dead'; reason: DeadReason; detail: string } | { kind: 'retry'; untilMs: number };

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
      return untilMs >= record.deadline_ms
        ? { kind: 'dead', reason: 'stale', detail: `the next retry (after ${describe(outcome)}) would pass the reply's deadline` }
        : { kind: 'retry', untilMs };
    }
  }
}
