import { expect } from 'chai';
import { retryDelayMs } from '../src/index.js';

const base = { baseMs: 1000, maxDelayMs: 10_000, retryAfterMs: null, maxRetryAfterMs: 60_000 };

describe('retryDelayMs', () => {
  it('doubles the window per failed attempt up to maxDelayMs (random = 1)', () => {
    const delays = [1, 2, 3, 4, 5, 6, 60].map((failedAttempts) => retryDelayMs({ ...base, failedAttempts, random: () => 1 }));
    expect(delays).to.deep.equal([1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it('is full jitter: random = 0 gives no delay, random = 0.5 half the window', () => {
    expect(retryDelayMs({ ...base, failedAttempts: 3, random: () => 0 })).to.equal(0);
    expect(retryDelayMs({ ...base, failedAttempts: 3, random: () => 0.5 })).to.equal(2000);
    expect(retryDelayMs({ ...base, failedAttempts: 2000, random: () => 0 })).to.equal(0);
  });

  it('stays within the window with the default random', () => {
    for (let i = 0; i < 50; i += 1) {
      expect(retryDelayMs({ ...base, failedAttempts: 2 })).to.be.within(0, 2000);
    }
  });

  it('waits at least Retry-After', () => {
    expect(retryDelayMs({ ...base, failedAttempts: 1, retryAfterMs: 5000, random: () => 0 })).to.equal(5000);
    expect(retryDelayMs({ ...base, failedAttempts: 1, retryAfterMs: 5000, random: () => 1 })).to.equal(5000);
    expect(retryDelayMs({ ...base, failedAttempts: 4, retryAfterMs: 5000, random: () => 1 })).to.equal(8000);
  });

  it('clamps Retry-After to maxRetryAfterMs', () => {
    const delay = retryDelayMs({ ...base, failedAttempts: 1, retryAfterMs: 3_600_000, random: () => 0 });
    expect(delay).to.equal(60_000);
  });
});
