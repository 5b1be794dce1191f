import { expect } from 'chai';
import { memoize } from '../src/text/memo.js';
import { compileLexicon, termsOf } from './internals.js';

describe('per-word caches of the tokenizer', () => {
  it('computes a word once while it is remembered', () => {
    const calls: string[] = [];
    const lengthOf = memoize((word: string) => {
      calls.push(word);
      return word.length;
    }, 10);
    expect([lengthOf('refund'), lengthOf('refund'), lengthOf('parcel'), lengthOf('refund')]).to.deep.equal([6, 6, 6, 6]);
    expect(calls).to.deep.equal(['refund', 'parcel']);
  });

  it('forgets everything once the limit is reached, and computes again', () => {
    const calls: string[] = [];
    const upper = memoize((word: string) => {
      calls.push(word);
      return word.toUpperCase();
    }, 2);
    for (const word of ['a', 'b', 'c', 'a', 'b']) upper(word);
    // a and b fill it; c clears it; a is computed again and kept beside c; b, forgotten by the clear, is computed again
    expect(calls).to.deep.equal(['a', 'b', 'c', 'a', 'b']);
    upper('b');
    expect(calls).to.have.length(5);
  });

  it('does not keep a word longer than its bound, so one huge word holds no memory', () => {
    let calls = 0;
    const same = memoize(
      (word: string) => {
        calls += 1;
        return word;
      },
      10,
      8,
    );
    same('x'.repeat(9));
    same('x'.repeat(9));
    same('short');
    same('short');
    expect(calls).to.equal(3);
  });

  it('gives a text the same terms the first time and every time after, whatever the caller did with an earlier result', () => {
    const text = "Cancle my e-mail order, it doesn't arrive";
    const first = termsOf(text);
    const expected = [...first];
    first.clear();
    first.set('tampered', 1);
    expect([...termsOf(text)]).to.deep.equal(expected);
    expect(expected.map(([term]) => term)).to.include.members(['email', 'order', '~not', '~cancel']);
  });

  it("keeps each lexicon's typo concepts apart: one lexicon's cache never answers for another", () => {
    const refunds = compileLexicon([{ synonyms: { refund: { en: ['refund'] } }, englishPhrases: [] }]);
    const parcels = compileLexicon([{ synonyms: { parcel: { en: ['parcel'] } }, englishPhrases: [] }]);
    expect(refunds.conceptsNear('refnud')).to.deep.equal(['~refund']);
    expect(parcels.conceptsNear('refnud')).to.deep.equal([]);
    expect(parcels.conceptsNear('parcle')).to.deep.equal(['~parcel']);
    expect(refunds.conceptsNear('parcle')).to.deep.equal([]);
  });
});
