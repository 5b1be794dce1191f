import { fieldList } from './field-list.js';

/**
 * A delivery as the API shows it (auto_reply_status) and the reply protocol stores it
 * (docs/service-rules.md §7, §15): its states, why it became a dead letter, and its attempts.
 */
export const DELIVERY_STATES = ['pending', 'retrying', 'delivered', 'dead', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Why a reply became a dead letter (docs/service-rules.md §7, §15). */
export const DEAD_LETTER_REASONS = ['permanent_status', 'attempts_exhausted', 'stale', 'unknown_client', 'failed'] as const;
export type DeadLetterReason = (typeof DEAD_LETTER_REASONS)[number];

/** One delivery attempt as auto_reply_status shows it. */
export interface DeliveryAttemptView {
  attempt: number;
  /** ISO time the attempt started. */
  at: string;
  /** The receiver's HTTP status, or null (network error, time-out, cancelled). */
  status: number | null;
  latency_ms: number;
  error: string | null;
}

export const DELIVERY_ATTEMPT_FIELDS = fieldList<DeliveryAttemptView>({
  attempt: true,
  at: true,
  status: true,
  latency_ms: true,
  error: true,
});

/** A delivery as auto_reply_status shows it. */
export interface DeliveryView {
  delivery_id: string;
  state: DeliveryState;
  in_reply_to: string[];
  dead_reason?: DeadLetterReason;
  attempts: DeliveryAttemptView[];
}

export const DELIVERY_VIEW_FIELDS = fieldList<DeliveryView>({
  delivery_id: true,
  state: true,
  in_reply_to: true,
  dead_reason: false,
  attempts: true,
});
