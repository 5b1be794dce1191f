/** Backoff before retry n (1-based) without Retry-After: 500 ms · 2^(n-1), capped. */
export const RETRY_BASE_DELAY_MS = 500;
/** Longest wait before a retry, also when the server's Retry-After asks for more. */
export const RETRY_WAIT_CAP_MS = 4000;

/**
 * Got's retry.calculateDelay. With enforceRetryRules got calls it only for retryable failures and
 * passes `retryAfter` in milliseconds when the answer had a Retry-After header. The result is at
 * least 1 ms, because 0 would cancel the retry (Retry-After: 0 means "retry now").
 */
export function retryDelay({ attemptCount, retryAfter }: { attemptCount: number; retryAfter?: number | undefined }): number {
  const wanted = retryAfter ?? RETRY_BASE_DELAY_MS * 2 ** (attemptCount - 1);
  return Math.max(1, Math.min(wanted, RETRY_WAIT_CAP_MS));
}
