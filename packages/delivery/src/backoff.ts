export interface RetryDelayInput {
  /** Attempts that have failed so far (1 after the first failure). */
  failedAttempts: number;
  baseMs: number;
  maxDelayMs: number;
  /** The receiver's Retry-After, if it gave one. */
  retryAfterMs: number | null;
  /** Upper bound on how long a Retry-After may hold a delivery back. */
  maxRetryAfterMs: number;
  /** [0, 1); Math.random by default. */
  random?: () => number;
}

/**
 * Exponential backoff with full jitter: random() * min(maxDelayMs, baseMs * 2^(failedAttempts-1)),
 * i.e. the delay never exceeds maxDelayMs and is spread over the whole window. A Retry-After
 * (first clamped to maxRetryAfterMs) is a floor: the delay is at least that long.
 */
export function retryDelayMs(input: RetryDelayInput): number {
  const random = input.random ?? Math.random;
  const exponent = Math.max(0, Math.floor(input.failedAttempts) - 1);
  const ceiling = Math.min(Math.max(0, input.maxDelayMs), Math.max(0, input.baseMs) * 2 ** exponent);
  const jittered = Math.round(clampUnit(random()) * ceiling);
  if (input.retryAfterMs === null) return jittered;
  const floor = Math.min(Math.max(0, input.retryAfterMs), Math.max(0, input.maxRetryAfterMs));
  return Math.max(jittered, Math.round(floor));
}

function clampUnit(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
