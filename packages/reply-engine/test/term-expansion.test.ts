import { expect } from 'chai';
import { createTermExpansion } from '../src/knowledge/term-expansion.js';
import { createOneEditIndex, withinOneEdit } from '../src/text/one-edit.js';
import { defaultLexicon } from '../src/text/synonyms.js';

describe('term expansion', () => {
  const expansion = createTermExpansion(['deliveri', 'refund', 'cancel', 'ship', '退款']);
  const related = (term: string): string[] => expansion.expand(term).map(([other]) => other);

  it('matches a term itself, and stems that differ by a short suffix', () => {
    expect(expansion.expand('refund')).to.deep.equal([['refund', 1]]);
    expect(related('deliv')).to.deep.equal(['deliveri']);
  });

  it('matches one typo in a longer Latin word, but not in short words or CJK terms', () => {
    expect(related('refnud')).to.deep.equal(['refund']);
    expect(related('cancle')).to.deep.equal(['cancel']);
    expect(related('shp')).to.deep.equal([]);
    expect(related('退钱')).to.deep.equal([]);
  });

  it('finds nothing for an unrelated word', () => {
    expect(related('weather')).to.deep.equal([]);
  });
});

describe('withinOneEdit', () => {
  it('accepts one insertion, deletion, replacement or swap of neighbours, and nothing further', () => {
    const near: [string, string][] = [
      ['cancel', 'cancle'],
      ['refund', 'refnd'],
      ['ship', 'shipe'],
      ['adress', 'address'],
      ['parcel', 'parcal'],
      ['same', 'same'],
    ];
    const far: [string, string][] = [
      ['learn', 'clean'],
      ['refund', 'fund'],
      ['cancel', 'clancy'],
      ['abc', 'cab'],
    ];
    for (const [a, b] of near) {
      expect(withinOneEdit(a, b), `${a} ${b}`).to.equal(true);
    }
    for (const [a, b] of far) {
      expect(withinOneEdit(a, b), `${a} ${b}`).to.equal(false);
    }
  });
});

/**
 * A message may hold one very long "word" (a 5 MiB body allows millions of letters): trying each of
 * its one-letter deletions would build n strings of n letters (docs/knowledge-engine.md, "Cost").
 * No word longer than the longest known word plus one can be one edit from it, so none are tried.
 */
describe('one-edit lookups of very long words', () => {
  it('tries no deletion keys for a word longer than every known word by more than one letter', () => {
    const index = createOneEditIndex(['refund', 'cancel', 'delivery']);
    expect(index.keysOf('a'.repeat(10_000))).to.deep.equal([]);
    expect(index.keysOf('deliveryxx')).to.deep.equal([]);
    expect(index.keysOf('deliveryx')).to.have.length(10);
    expect(index.near('deliveryx')).to.deep.equal(['delivery']);
    expect(index.near('refnud')).to.deep.equal(['refund']);
    expect(index.near('cancle')).to.deep.equal(['cancel']);
  });

  it('finds no typo concept and no typo expansion for a 10,000-letter word', () => {
    expect(defaultLexicon().conceptsNear('a'.repeat(10_000))).to.deep.equal([]);
    expect(createTermExpansion(['refund', 'shipping']).expand('s'.repeat(10_000))).to.deep.equal([]);
  });
});
