import { expect } from 'chai';
import { EXAMPLE_KNOWLEDGE_FILE, loadKnowledgeBase } from './internals.js';
import { createKnowledgeIndex } from '../src/knowledge/knowledge-index.js';

describe('ranking by bounds', () => {
  it('gives the first entries and scores that scoring every entry gives, for any depth', async () => {
    const kb = await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE);
    const index = createKnowledgeIndex(kb.entries);
    const phrasings = kb.entries.flatMap((entry) => entry.questions);
    // the phrasings, and pairs of phrasings of different entries (messages about two things)
    const texts = [
      ...phrasings,
      ...phrasings.slice(0, 400).map((text, i) => `${text} ${phrasings[(i * 7 + 101) % phrasings.length] ?? ''}`),
    ];
    const differing: string[] = [];
    for (const text of texts) {
      const every = index
        .rank(text, kb.entries.length)
        .matches.map((match) => `${match.entry.id} ${match.score.toFixed(12)} ${match.whole}`);
      for (const depth of [1, 2, 6]) {
        const pruned = index.rank(text, depth).matches.map((match) => `${match.entry.id} ${match.score.toFixed(12)} ${match.whole}`);
        if (pruned.join('|') !== every.slice(0, depth).join('|')) differing.push(`${depth}: ${text}`);
      }
    }
    expect(texts.length).to.be.above(1600);
    expect(differing).to.deep.equal([]);
  });
});
