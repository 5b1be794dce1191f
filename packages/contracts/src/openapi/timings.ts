/** The configured values the document's prose states, so a deployment's document tells its own. */
export interface DocumentedTimings {
  /** TIMESTAMP_TOLERANCE_S */
  timestampToleranceS: number;
  /** IDEMPOTENCY_TTL_S */
  idempotencyTtlS: number;
  /** DELIVERY_TIMEOUT_MS */
  deliveryTimeoutMs: number;
  /** REPLY_MAX_AGE_MS */
  replyMaxAgeMs: number;
}

export const DEFAULT_TIMINGS: DocumentedTimings = {
  timestampToleranceS: 300,
  idempotencyTtlS: 86_400,
  deliveryTimeoutMs: 10_000,
  replyMaxAgeMs: 900_000,
};

/** A duration for prose: whole hours, whole minutes, or seconds. */
export function describeSeconds(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} s`;
}
