import { expect } from 'chai';
import { parseRetryAfter } from '../src/index.js';

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 0, 15, 12, 0, 0);

  it('reads delta-seconds as milliseconds', () => {
    expect(parseRetryAfter('120', now)).to.equal(120_000);
    expect(parseRetryAfter(' 0 ', now)).to.equal(0);
  });

  it('reads an HTTP-date as the time left until it', () => {
    const header = new Date(now + 30_000).toUTCString();
    const ms = parseRetryAfter(header, now);
    expect(ms).to.be.a('number');
    expect(ms).to.be.within(29_000, 30_000);
  });

  it('gives 0 for a date in the past and for a negative delta', () => {
    expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).to.equal(0);
    expect(parseRetryAfter('-5', now)).to.equal(0);
  });

  it('gives null for garbage, an empty or a missing header', () => {
    expect(parseRetryAfter('soon', now)).to.equal(null);
    expect(parseRetryAfter('1.5', now)).to.equal(null);
    expect(parseRetryAfter('', now)).to.equal(null);
    expect(parseRetryAfter(undefined, now)).to.equal(null);
  });
});
