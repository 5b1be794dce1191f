import { createHash } from 'node:crypto';

/**
 * Whether a function or class of ioredis is still the exact source one of our replacements was written
 * from (the SHA-256 of its text). A replacement (command-promise.ts, command-writable.ts,
 * script-command.ts) is installed only then: another ioredis version keeps its own code, and the test
 * asking for the lean one fails until the new source is reviewed.
 */
export function isReviewedSource(code: { toString(): string }, sha256: string): boolean {
  return createHash('sha256').update(code.toString()).digest('hex') === sha256;
}
