import { expect } from 'chai';
import { parseKnowledgeBase } from './internals.js';
import { confidenceFeatures, confidentEntry } from '../src/knowledge/confidence.js';
import { createKnowledgeIndex } from '../src/knowledge/knowledge-index.js';

describe('confidence', () => {
  const kb = parseKnowledgeBase(
    `
fallback: []
confidence: { min_score: 5, min_margin: 0.1, min_coverage: 0.9 }
entries:
  - id: opening-hours
    questions: ["When are you open?", "opening hours on holidays"]
    answer: "9 to 5."
  - id: account
    questions: ["How do I open an account?"]
    answer: "Sign up at the top of the page."
  - id: returns
    questions: ["Can I return an opened box?"]
    answer: "Yes, within 30 days."
`,
    'yaml',
  );
  const index = createKnowledgeIndex(kb.entries);

  it('answers a message that says exactly what one phrasing says, though its score is below min_score', () => {
    const ranking = index.rank('when are you OPEN??');
    expect(confidenceFeatures(ranking)).to.include({ whole: true });
    expect(ranking.matches[0]?.score).to.be.below(kb.thresholds.minScore);
    expect(confidentEntry(ranking, kb.thresholds)?.id).to.equal('opening-hours');
  });

  it("answers a message that is one phrasing's words, or the phrasing itself, whatever the margin", () => {
    const near = parseKnowledgeBase(
      `
fallback: []
entries:
  - { id: returns, questions: ["How do I return an item?"], answer: "A" }
  - { id: non-returnable, questions: ["Which items can I not return?"], answer: "B" }
  - { id: refunds, questions: ["Can I get a refund?"], answer: "C" }
  - { id: refund-status, questions: ["can I get my refund"], answer: "D" }
`,
      'yaml',
    );
    const nearIndex = createKnowledgeIndex(near.entries);
    const returns = nearIndex.rank('how do I return an item');
    expect(returns.matches[0]?.whole).to.equal(true);
    expect(confidenceFeatures(returns).margin).to.be.below(near.thresholds.minMargin);
    expect(confidentEntry(returns, near.thresholds)?.id).to.equal('returns');
    // the same words in two entries: the phrasing written letter for letter decides
    expect(confidentEntry(nearIndex.rank('Can I get a refund?'), near.thresholds)?.id).to.equal('refunds');
    expect(confidentEntry(nearIndex.rank('can I get my refund'), near.thresholds)?.id).to.equal('refund-status');
  });

  it('does not count a phrasing as said when the message has a word more, or the phrasing one the message lacks', () => {
    // "when are you open" and "opening hours" both read as hours now, so the extra and the missing word are other ones
    expect(confidenceFeatures(index.rank('when are you open in december')).whole).to.equal(false);
    expect(confidentEntry(index.rank('when are you open in december'), kb.thresholds)).to.equal(undefined);
    expect(confidenceFeatures(index.rank('holidays')).whole).to.equal(false);
  });

  it("needs the lead over the second entry when both have the message's words as a phrasing", () => {
    const tied = parseKnowledgeBase(
      `
fallback: []
entries:
  - { id: a, questions: ["gift"], answer: "A" }
  - { id: b, questions: ["gift"], answer: "B" }
`,
      'yaml',
    );
    const ranking = createKnowledgeIndex(tied.entries).rank('gift');
    expect(ranking.matches.map((match) => match.whole)).to.deep.equal([true, true]);
    expect(ranking.verbatim).to.equal(undefined);
    expect(confidenceFeatures(ranking).whole).to.equal(false);
    expect(confidentEntry(ranking, tied.thresholds)).to.equal(undefined);
  });
});
