import { randomUUID } from 'node:crypto';

/**
 * The Redis the current test run uses: the private server started by the mocha global set-up
 * (TEST_REDIS_URL), else REDIS_URL.
 */
export function testRedisUrl(): string {
  const url = process.env['TEST_REDIS_URL'] ?? process.env['REDIS_URL'];
  if (!url) throw new Error('no Redis for tests: install redis-server or set REDIS_URL');
  return url;
}

/** A key prefix no other test uses, so tests can share one server without touching each other's keys. */
export function uniquePrefix(label = 't'): string {
  return `test:${label}:${randomUUID().slice(0, 8)}:`;
}
