/** How one HTTP status is treated (docs/service-rules.md §7). Retry decisions are made from this, not from exception classes. */
export type StatusClass = 'delivered' | 'retry' | 'permanent';

/** Largest response body kept on an outcome, in bytes. */
export const MAX_RESPONSE_BODY_BYTES = 4096;

const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);

/** 2xx delivered; 408, 425, 429 and 5xx retry; anything else permanent (3xx too: redirects are not followed). */
export function classifyStatus(status: number): StatusClass {
  if (status >= 200 && status <= 299) return 'delivered';
  if (RETRYABLE_STATUSES.has(status) || (status >= 500 && status <= 599)) return 'retry';
  return 'permanent';
}

/** The result of one POST to a send_url; deliver() reports every failure as one of these. */
export type AttemptOutcome = {
  kind: StatusClass;
  /** null when no HTTP answer (network error, time-out, refused address). */
  status: number | null;
  /** Short reason: 'timeout', 'ECONNREFUSED', 'send_url_forbidden: loopback', ...; null when none. */
  error: string | null;
  latencyMs: number;
  /** Parsed Retry-After of a retryable answer, else null. */
  retryAfterMs: number | null;
  /** At most MAX_RESPONSE_BODY_BYTES of the answer's body (UTF-8), null without an answer. */
  responseBody: string | null;
};

/** An outcome without an HTTP answer. */
export function failedOutcome(kind: Exclude<StatusClass, 'delivered'>, error: string, latencyMs: number): AttemptOutcome {
  return { kind, status: null, error, latencyMs, retryAfterMs: null, responseBody: null };
}
