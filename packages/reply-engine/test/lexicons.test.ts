import { expect } from 'chai';
import { createKnowledgeResponder, parseKnowledgeBase, type KnowledgeBase } from './internals.js';
import { shippedLexiconNames } from '../src/text/lexicon-data.js';

const ENTRIES = `
fallback: "A colleague will answer."
entries:
  - id: refunds
    questions: ["How do I get a refund?"]
    answer: "Within 30 days."
  - id: hours
    questions: ["When is the studio open?"]
    answer: "Nine to five."
`;

const answer = (kb: KnowledgeBase, text: string): string | undefined => createKnowledgeResponder(kb).decide(text, []).entry?.id;

describe('lexicons', () => {
  it('ships the shop lexicon', () => {
    expect(shippedLexiconNames()).to.include('shop');
  });

  it('uses the shop lexicon for a file that names none, as before lexicons were chosen, and when it names it', () => {
    for (const header of ['', 'lexicons: [shop]\n']) {
      const kb = parseKnowledgeBase(`${header}${ENTRIES}`, 'yaml');
      expect(kb.lexicons).to.deep.equal(['shop']);
      expect(answer(kb, 'I want my money back'), header).to.equal('refunds');
    }
  });

  it('bridges no shop words for a file with lexicons: []', () => {
    const kb = parseKnowledgeBase(`lexicons: []\n${ENTRIES}`, 'yaml');
    expect(kb.lexicons).to.deep.equal([]);
    expect(answer(kb, 'I want my money back')).to.equal(undefined);
    expect(answer(kb, 'How do I get a refund?')).to.equal('refunds');
  });

  it("adds a file's own synonym groups, by language or as one list, to its lexicons", () => {
    const own = `lexicons: []
synonyms:
  hours: [open, opening, hours, 营业, 営業]
  studio: { en: [studio, atelier, workshop], ja: [アトリエ] }
${ENTRIES}`;
    const kb = parseKnowledgeBase(own, 'yaml');
    expect(answer(kb, 'what are the workshop hours')).to.equal('hours');
    expect(answer(kb, 'アトリエの営業は？')).to.equal('hours');
    expect(answer(parseKnowledgeBase(`lexicons: []\n${ENTRIES}`, 'yaml'), 'what are the workshop hours')).to.equal(undefined);
  });

  it('refuses an unknown lexicon, naming the ones there are, and malformed synonyms, naming the field', () => {
    expect(() => parseKnowledgeBase(`lexicons: [bakery]\n${ENTRIES}`, 'yaml')).to.throw(
      /lexicons\[0\] "bakery" is not shipped with the engine \(there are: .*shop/,
    );
    expect(() => parseKnowledgeBase(`lexicons: shop\n${ENTRIES}`, 'yaml')).to.throw(/lexicons must be a list/);
    expect(() => parseKnowledgeBase(`synonyms: {Hours: [open]}\n${ENTRIES}`, 'yaml')).to.throw(
      /^KNOWLEDGE_FILE: synonyms\.Hours has a name that is not lowercase/,
    );
    expect(() => parseKnowledgeBase(`synonyms: {hours: {fr: [ouvert]}}\n${ENTRIES}`, 'yaml')).to.throw(
      /synonyms\.hours has unknown language "fr"/,
    );
    expect(() => parseKnowledgeBase(`synonyms: {hours: []}\n${ENTRIES}`, 'yaml')).to.throw(
      /synonyms\.hours must be a non-empty list of words/,
    );
  });
});
