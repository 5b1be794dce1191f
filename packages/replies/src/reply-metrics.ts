import type { DeadReason } from './reply.types.js';

/** How one delivery attempt ended, as the worker decided it. */
export type AttemptResult = 'delivered' | 'retry' | 'dead' | 'cancelled';

/**
 * What the reply protocol reports for operators (a port: the worker app implements it with
 * Prometheus; this package knows no metrics library). Every method is synchronous and must not throw.
 */
export interface ReplyMetrics {
  /** One delivery attempt ended; statusClass is "2xx" … "5xx", or "none" without an HTTP answer. */
  attempt(result: AttemptResult, statusClass: string, seconds: number): void;
  /** A reply was accepted by its receiver this long after the API accepted the newest message it answers. */
  delivered(acceptToDeliveredSeconds: number): void;
  /** One engine call: "reply", "empty" (nothing to send) or "error". */
  engine(outcome: 'reply' | 'empty' | 'error', seconds: number): void;
  /** One run of a turn job: "finished" (the turn is over) or "waiting" (debounce or a retry later). */
  turn(outcome: 'finished' | 'waiting', seconds: number): void;
  /** A reply cancelled by a stop or a human: before its attempt started, or aborted in flight. */
  cancelled(when: 'before_attempt' | 'in_flight'): void;
  /** From the abort signal to the end of the aborted attempt (the worker's share of stop latency). */
  abortLatency(seconds: number): void;
  deadLetter(reason: DeadReason): void;
}

/** Why the ingress cancelled a reply: stop_auto_reply, or a person writing to the customer (docs/service-rules.md §8, §14). */
export type CancelCause = 'stop' | 'human';

/**
 * What the ingress side of auto replies reports (a port: the API implements it with Prometheus).
 * Synchronous and never throws.
 */
export interface AutoReplyMetrics {
  /**
   * Replies a stop or a human's message cancelled while none of their attempts was in flight:
   * messages still waiting for their turn (debounce window, queued) count as one reply, and so does
   * a produced reply waiting for its first attempt or a retry whose record this cancel moved to
   * cancelled. Attempts in flight, and replies the worker refuses at its attempt, the worker counts.
   */
  pendingCancelled(cause: CancelCause, replies: number): void;
}

const ignore = (): void => undefined;

/** Records nothing (tests, tools). */
export const NO_AUTO_REPLY_METRICS: AutoReplyMetrics = Object.freeze({ pendingCancelled: ignore });

/** Records nothing (tests, tools). */
export const NO_REPLY_METRICS: ReplyMetrics = Object.freeze({
  attempt: ignore,
  delivered: ignore,
  engine: ignore,
  turn: ignore,
  cancelled: ignore,
  abortLatency: ignore,
  deadLetter: ignore,
});

/** "2xx" … "5xx" for an HTTP status, "none" without one. */
export const statusClassOf = (status: number | null): string => (status === null ? 'none' : `${Math.floor(status / 100)}xx`);
