import { expect } from 'chai';
import { parseKnowledgeBase } from './internals.js';
import { createKnowledgeIndex } from '../src/knowledge/knowledge-index.js';
import { termsOf } from '../src/text/tokenize.js';
import { conceptSiblings, createTermPairsBuilder, type PairTerms, type TermPairs } from '../src/knowledge/term-pairs.js';

const none: ReadonlySet<string> = new Set();

/** A message term that stands only for itself in the index. */
const own = (pairs: TermPairs, term: string, factor = 1): readonly [number, PairTerms] => [factor, pairs.resolve([[term, 1]])];

describe('word pairs', () => {
  it('scores an entry only for two message words found together in one of its phrasings', () => {
    const builder = createTermPairsBuilder();
    builder.add(0, ['deliveri', 'cost'], none);
    builder.add(1, ['deliveri', 'long'], none);
    builder.add(1, ['assembl', 'cost'], none);
    const pairs = builder.build(() => 1);
    const scores = new Float64Array(2);
    pairs.score([own(pairs, 'deliveri'), own(pairs, 'cost')], none, scores);
    expect([...scores]).to.deep.equal([1, 0]);
  });

  it('resolves a message term to the index terms that are in some pair, keeping their relation, once for every message', () => {
    const builder = createTermPairsBuilder();
    builder.add(0, ['deliveri', 'cost'], none);
    const pairs = builder.build(() => 1);
    const resolved = pairs.resolve([
      ['deliv', 1],
      ['deliveri', 0.8],
      ['cost', 0.7],
    ]);
    expect(resolved.names).to.deep.equal(['deliveri', 'cost']);
    expect([...resolved.relations]).to.deep.equal([0.8, 0.7]);
    const scores = new Float64Array(1);
    pairs.score(
      [
        [1, pairs.resolve([['deliveri', 0.8]])],
        [1, pairs.resolve([['cost', 1]])],
      ],
      none,
      scores,
    );
    expect(scores[0]).to.be.closeTo(0.8, 1e-12);
    expect(pairs.resolve([['warranti', 1]]).ids).to.have.length(0);
  });

  it('weighs a pair by how few entries share it, and by the weaker of the two message words', () => {
    const builder = createTermPairsBuilder();
    builder.add(0, ['order', 'cancel'], none);
    builder.add(1, ['order', 'cancel'], none);
    builder.add(2, ['order', 'status'], none);
    const pairs = builder.build((entries) => 1 / entries);
    const scores = new Float64Array(3);
    pairs.score([own(pairs, 'order'), own(pairs, 'cancel', 0.6), own(pairs, 'status')], none, scores);
    expect([...scores]).to.deep.equal([0.3, 0.3, 1]);
  });

  it('does not count a word and its own concept as a pair', () => {
    const builder = createTermPairsBuilder();
    builder.add(0, ['refund', '~refund'], none);
    const pairs = builder.build(() => 1);
    const scores = new Float64Array(1);
    pairs.score([own(pairs, 'refund'), own(pairs, '~refund')], none, scores);
    expect(scores[0]).to.equal(0);
  });

  it('does not count two concepts of one word as a pair, in a phrasing or in a message', () => {
    // 快递 (courier) means delivery and parcel at once
    const siblings = conceptSiblings(['快递', '~deliver', '~parcel']);
    expect([...siblings]).to.deep.equal(['~deliver ~parcel']);
    const builder = createTermPairsBuilder();
    builder.add(0, ['快递', '~deliver', '~parcel'], siblings);
    builder.add(1, ['parcel', 'deliveri', '~deliver', '~parcel'], conceptSiblings(['parcel', 'deliveri', '~deliver', '~parcel']));
    const pairs = builder.build(() => 1);
    const fromPhrasing = new Float64Array(2);
    pairs.score([own(pairs, '~deliver'), own(pairs, '~parcel')], none, fromPhrasing);
    expect([...fromPhrasing]).to.deep.equal([0, 1]);
    const fromMessage = new Float64Array(2);
    pairs.score([own(pairs, '~deliver'), own(pairs, '~parcel')], siblings, fromMessage);
    expect([...fromMessage]).to.deep.equal([0, 0]);
  });

  it('counts two concepts of one word as a pair when another word yields one of them too', () => {
    // postage means delivery and cost at once; "charges" says cost again, so the pair has two words behind it
    expect([...conceptSiblings(termsOf('postage').keys())]).to.deep.equal(['~cost ~deliver']);
    expect([...conceptSiblings(termsOf('postage charges?').keys())]).to.deep.equal([]);
    expect([...conceptSiblings(['快递', '~deliver', '~parcel', 'parcel'])]).to.deep.equal([]);
    const kb = parseKnowledgeBase(
      `
fallback: []
entries:
  - id: delivery-cost
    questions: ["How much does delivery cost?", "What are your shipping fees?"]
    answer: "4.95 GBP."
  - id: fabric-samples
    questions: ["Can I order fabric samples?"]
    answer: "Samples are free of charge; we pay the postage."
`,
      'yaml',
    );
    const index = createKnowledgeIndex(kb.entries);
    const scoreOf = (text: string): number => index.rank(text, 2).matches.find((m) => m.entry.id === 'delivery-cost')?.score ?? 0;
    // "charges" says cost a second time: the delivery-and-cost pair of the entry's phrasing now counts
    expect(scoreOf('postage charges?')).to.be.above(scoreOf('postage') * 1.2);
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

  it('finds every pair of a large index in either order, with its entries and weight, and no pair it was not given', () => {
    // 400 terms, 3,000 phrasings of three terms over 50 entries: far more pairs than one probe of the table holds apart
    let seed = 7;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const term = (i: number): string => `t${i}`;
    const builder = createTermPairsBuilder();
    const expected = new Map<string, Set<number>>();
    for (let phrasing = 0; phrasing < 3000; phrasing++) {
      const entry = next(50);
      const words = [...new Set([next(400), next(400), next(400)])].map(term);
      builder.add(entry, words, none);
      for (let i = 0; i < words.length; i++)
        for (let j = i + 1; j < words.length; j++) {
          const key = [words[i], words[j]].sort().join(' ');
          expected.set(key, (expected.get(key) ?? new Set()).add(entry));
        }
    }
    const pairs = builder.build((entries) => 1 / entries);
    for (let trial = 0; trial < 2000; trial++) {
      const a = term(next(400));
      const b = term(next(400));
      if (a === b) continue;
      const scores = new Float64Array(50);
      // the message names them in either order
      pairs.score(trial % 2 === 0 ? [own(pairs, a), own(pairs, b)] : [own(pairs, b), own(pairs, a)], none, scores);
      const entries = expected.get([a, b].sort().join(' '));
      const want = new Float64Array(50);
      for (const entry of entries ?? []) want[entry] = 1 / (entries?.size ?? 1);
      expect([...scores], `${a} ${b}`).to.deep.equal([...want]);
    }
  });
});
