import { expect } from 'chai';
import { createTermExpansion } from '../src/knowledge/term-expansion.js';
import { withinOneEdit } from '../src/text/one-edit.js';

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
    const near: [string, string][] = [['cancel', 'cancle'], ['refund', 'refnd'], ['ship', 'shipe'], ['adress', 'address'], ['parcel', 'parcal'], ['same', 'same']];
    const far: [string, string][] = [['learn', 'clean'], ['refund', 'fund'], ['cancel', 'clancy'], ['abc', 'cab']];
    for (const [a, b] of near) {
      expect(withinOneEdit(a, b), `${a} ${b}`).to.equal(true);
    }
    for (const [a, b] of far) {
      expect(withinOneEdit(a, b), `${a} ${b}`).to.equal(false);
    }
  });
});
