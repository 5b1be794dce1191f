import { expect } from 'chai';
import { parseKnowledgeBase } from '../src/index.js';
import { createKnowledgeIndex } from '../src/knowledge/knowledge-index.js';
import { createTermPairsBuilder } from '../src/knowledge/term-pairs.js';

/** A message term that stands only for itself in the index. */
const own = (term: string, factor = 1): readonly [number, ReadonlyArray<readonly [string, number]>] => [factor, [[term, 1]]];

describe('word pairs', () => {
  it('scores an entry only for two message words found together in one of its phrasings', () => {
    const builder = createTermPairsBuilder();
    builder.add(0, ['deliveri', 'cost']);
    builder.add(1, ['deliveri', 'long']);
    builder.add(1, ['assembl', 'cost']);
    const pairs = builder.build(() => 1);
    const scores = new Float64Array(2);
    pairs.score([own('deliveri'), own('cost')], scores);
    expect([...scores]).to.deep.equal([1, 0]);
  });

  it('weighs a pair by how few entries share it, and by the weaker of the two message words', () => {
    const builder = createTermPairsBuilder();
    builder.add(0, ['order', 'cancel']);
    builder.add(1, ['order', 'cancel']);
    builder.add(2, ['order', 'status']);
    const pairs = builder.build((entries) => 1 / entries);
    const scores = new Float64Array(3);
    pairs.score([own('order'), own('cancel', 0.6), own('status')], scores);
    expect([...scores]).to.deep.equal([0.3, 0.3, 1]);
  });

  it('does not count a word and its own concept as a pair', () => {
    const builder = createTermPairsBuilder();
    builder.add(0, ['refund', '~refund']);
    const pairs = builder.build(() => 1);
    const scores = new Float64Array(1);
    pairs.score([own('refund'), own('~refund')], scores);
    expect(scores[0]).to.equal(0);
  });

  it('ranks the entry that says both words in one phrasing above one that has them apart', () => {
    const kb = parseKnowledgeBase(
      `
fallback: []
entries:
  - id: shipping-cost
    questions: ["What does delivery cost?"]
    answer: "5 USD."
  - id: assembly
    questions: ["When does delivery happen?", "What does assembly cost?", "Do you assemble furniture?"]
    answer: "We assemble furniture for 30 USD."
  - id: opening-hours
    questions: ["When are you open?"]
    answer: "9 to 5."
`,
      'yaml',
    );
    const [first, second] = createKnowledgeIndex(kb.entries).rank('how much for delivery, what does it cost').matches;
    expect(first?.entry.id).to.equal('shipping-cost');
    // without the pair the two entries differ only by their best phrasing's share (30 %): a near tie
    expect(((first?.score ?? 0) - (second?.score ?? 0)) / (first?.score ?? 1)).to.be.above(0.25);
  });
});
