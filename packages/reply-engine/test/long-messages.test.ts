import { expect } from 'chai';
import { createKnowledgeResponder, parseKnowledgeBase, RANKED_TEXT_MAX_CHARS } from './internals.js';

/**
 * A message may be megabytes long (the body limit is 5 MiB): the engine ranks only its first
 * RANKED_TEXT_MAX_CHARS characters, so one message costs at most about a millisecond whatever its size
 * (docs/knowledge-engine.md, "Cost"). Customer questions are far shorter.
 */
describe('knowledge responder with very long messages', () => {
  const responder = createKnowledgeResponder(
    parseKnowledgeBase(
      `
fallback: "A colleague will answer."
entries:
  - id: hours
    questions: ["What are your opening hours?", "When are you open?"]
    answer: "9 to 5."
  - id: refund
    questions: ["How do I get a refund?"]
    answer: "Within 14 days."
`,
      'yaml',
    ),
  );
  const padding = ' '.repeat(RANKED_TEXT_MAX_CHARS);

  it('ranks only the first RANKED_TEXT_MAX_CHARS characters of a message and of its history', () => {
    const late = responder.decide(`${padding}What are your opening hours?`, [`${padding}How do I get a refund?`]);
    expect(late.ranking.weight).to.equal(0);
    expect(late.entry).to.equal(undefined);
  });

  it('still answers the question a long message opens with', () => {
    const decision = responder.decide(`What are your opening hours?${padding}${'x'.repeat(100_000)}`, []);
    expect(decision.entry?.id).to.equal('hours');
  });

  it('cuts a long message without splitting a surrogate pair', () => {
    const text = `${'a'.repeat(RANKED_TEXT_MAX_CHARS - 1)}😀 When are you open?`;
    expect(() => responder.decide(text, [])).not.to.throw();
    expect(responder.decide(text, []).entry).to.equal(undefined);
  });

  it('keeps a short message whole', () => {
    expect(RANKED_TEXT_MAX_CHARS).to.be.at.least(1000);
    expect(responder.decide('When are you open?', []).entry?.id).to.equal('hours');
  });
});
