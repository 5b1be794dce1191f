import { expect } from 'chai';
import { buildIndexPostings, type IndexPostings } from '../src/knowledge/index-postings.js';
import { defaultLexicon, EXAMPLE_KNOWLEDGE_FILE, loadKnowledgeBase, parseKnowledgeBase } from './internals.js';

/** A term's postings read back from the pool: per entry, its largest factor and its documents with their factors. */
function postingsOf(index: IndexPostings, term: string): { entry: number; factor: number; docs: [number, number][] }[] {
  const found = index.terms.get(term);
  if (!found) return [];
  const { entries, entryFactors, docStart, docs, docFactors } = index.pool;
  const out = [];
  for (let k = found.from; k < found.to; k++) {
    const entryDocs: [number, number][] = [];
    for (let j = docStart[k]!; j < docStart[k + 1]!; j++) entryDocs.push([docs[j]!, docFactors[j]!]);
    out.push({ entry: entries[k]!, factor: entryFactors[k]!, docs: entryDocs });
  }
  return out;
}

describe('index postings (one pool for every term)', () => {
  it("keeps for each entry a term's largest factor over its documents, and each document's own", () => {
    // "refnud" reaches ~refund through a typo (0.7), "refund" fully (1): the larger comes second
    const kb = parseKnowledgeBase(
      `
fallback: "A colleague will answer."
entries:
  - id: a
    questions: ["my refnud please", "refund please"]
    answer: "Yes."
  - id: b
    questions: ["refund please"]
    answer: "Yes."
`,
      'yaml',
    );
    const index = buildIndexPostings(kb.entries, defaultLexicon());
    // documents: a's two phrasings (0, 1) and answer (2), b's phrasing (3) and answer (4)
    expect(postingsOf(index, '~refund')).to.deep.equal([
      {
        entry: 0,
        factor: 1,
        docs: [
          [0, 0.7],
          [1, 1],
        ],
      },
      { entry: 1, factor: 1, docs: [[3, 1]] },
    ]);
  });

  it('holds, for every term of the bundled FAQ, the entries and documents that have it, each run where the last ends', async () => {
    const kb = await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE);
    const index = buildIndexPostings(kb.entries, kb.lexicon ?? defaultLexicon());
    // each term's run starts where the one before ends, its entries ascending, each entry's factor the largest of its documents'
    let next = 0;
    for (const [term, { from, to }] of index.terms) {
      expect(from, term).to.equal(next);
      next = to;
      const postings = postingsOf(index, term);
      expect(postings.length, term).to.be.above(0);
      postings.forEach(({ entry, factor, docs }, i) => {
        if (i > 0) expect(entry, term).to.be.above(postings[i - 1]!.entry);
        expect(docs.length, term).to.be.above(0);
        for (const [doc] of docs) expect(index.docEntry[doc], term).to.equal(entry);
        expect(factor, term).to.equal(Math.max(...docs.map(([, f]) => f)));
      });
    }
    expect(next).to.equal(index.pool.entries.length);
    expect(index.pool.docStart[next]).to.equal(index.pool.docs.length);
    // every phrasing's own terms are in its postings with its factor
    let doc = 0;
    for (const [e, entry] of kb.entries.entries()) {
      for (let q = 0; q < entry.questions.length; q++, doc++) {
        const phrasing = index.phrasingTerms[doc - e]!;
        expect(phrasing.entry).to.equal(e);
        for (const [term, factor] of phrasing.terms) {
          const mine = postingsOf(index, term).find((p) => p.entry === e);
          expect(mine?.docs, term).to.deep.include([doc, factor]);
        }
      }
      doc++; // the entry's answers
    }
  });
});
