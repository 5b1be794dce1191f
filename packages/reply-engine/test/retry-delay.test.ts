import { expect } from 'chai';
import { RETRY_WAIT_CAP_MS, retryDelay } from '../src/openai/retry-delay.js';

describe('openai retry delay', () => {
  it('backs off exponentially from 500 ms without Retry-After, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((attemptCount) => retryDelay({ attemptCount }))).to.deep.equal([500, 1000, 2000, 4000, RETRY_WAIT_CAP_MS]);
  });

  it('waits as long as Retry-After asks, but never longer than the cap, and retries at once for 0', () => {
    expect(retryDelay({ attemptCount: 1, retryAfter: 1500 })).to.equal(1500);
    expect(retryDelay({ attemptCount: 1, retryAfter: 3_600_000 })).to.equal(RETRY_WAIT_CAP_MS);
    expect(retryDelay({ attemptCount: 3, retryAfter: 0 })).to.equal(1);
  });
});
