const DELTA_SECONDS = /^-?\d+$/;
/** HTTP-dates always name a weekday or a month; this keeps Date.parse from guessing at bare numbers. */
const HAS_NAME = /[a-z]{3}/i;

/**
 * Milliseconds to wait according to a Retry-After header (RFC 9110 §10.2.3):
 * delta-seconds or an HTTP-date, measured from `nowMs`. Negative waits and past dates
 * give 0; a missing or unparseable header gives null.
 */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | null {
  if (header === undefined) return null;
  const value = header.trim();
  if (value === '') return null;
  if (DELTA_SECONDS.test(value)) {
    const ms = Number(value) * 1000;
    return Number.isFinite(ms) ? Math.min(Math.max(0, ms), Number.MAX_SAFE_INTEGER) : null;
  }
  if (!HAS_NAME.test(value)) return null;
  const at = Date.parse(value);
  if (!Number.isFinite(at)) return null;
  return Math.max(0, at - nowMs);
}
