import { timingSafeEqual } from 'node:crypto';

/**
 * Constant-time string comparison over UTF-8 bytes.
 * When lengths differ, `expected` is compared with itself so the work done
 * depends only on the expected length, and the result is false.
 */
export function constantTimeEqual(actual: string, expected: string): boolean {
  const expectedBytes = Buffer.from(expected, 'utf8');
  const actualBytes = Buffer.from(actual, 'utf8');
  const sameLength = actualBytes.length === expectedBytes.length;
  const equal = timingSafeEqual(sameLength ? actualBytes : expectedBytes, expectedBytes);
  return sameLength && equal;
}

/** True if `actual` equals any of `candidates`; every candidate is compared (no early exit). */
export function constantTimeEqualsAny(actual: string, candidates: readonly string[]): boolean {
  let matched = 0;
  for (const candidate of candidates) {
    matched |= constantTimeEqual(actual, candidate) ? 1 : 0;
  }
  return matched === 1;
}
