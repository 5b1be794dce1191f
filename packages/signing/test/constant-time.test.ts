import { expect } from 'chai';
import { constantTimeEqual, constantTimeEqualsAny } from '../src/index.js';

describe('constant-time comparison', () => {
  it('compares equal and unequal strings of the same length', () => {
    expect(constantTimeEqual('abcd', 'abcd')).to.equal(true);
    expect(constantTimeEqual('abce', 'abcd')).to.equal(false);
  });

  it('fails on different lengths, including a prefix', () => {
    expect(constantTimeEqual('abc', 'abcd')).to.equal(false);
    expect(constantTimeEqual('abcde', 'abcd')).to.equal(false);
    expect(constantTimeEqual('', 'abcd')).to.equal(false);
  });

  it('matches any candidate and none of an empty list', () => {
    expect(constantTimeEqualsAny('b', ['a', 'b', 'c'])).to.equal(true);
    expect(constantTimeEqualsAny('d', ['a', 'b', 'c'])).to.equal(false);
    expect(constantTimeEqualsAny('a', [])).to.equal(false);
  });
});
