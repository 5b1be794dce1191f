import MiniSearch, { type SearchOptions } from 'minisearch';
import { tokenize } from '../tokenize.js';
import type { KnowledgeEntry } from './knowledge-base.js';

interface PhrasingDocument {
  id: number;
  entry: number;
  question: string;
}

export interface KnowledgeMatch {
  entry: KnowledgeEntry;
  /** The best score among the entry's phrasings. */
  score: number;
}

export interface KnowledgeIndex {
  /** Entries ranked by their best-scoring phrasing, best first; only entries that matched at all. */
  search(text: string): KnowledgeMatch[];
}

const LATIN_WORD = /^[a-z]+$/;

const SEARCH_OPTIONS: SearchOptions = {
  tokenize,
  processTerm: (term) => term,
  combineWith: 'OR',
  /** "deliver" also finds "delivery", "ship" finds "shipping"; weighted down by MiniSearch. */
  prefix: (term) => term.length >= 4 && LATIN_WORD.test(term),
  /** One typo in a longer English word ("shiping", "refnud"); weighted down by MiniSearch. */
  fuzzy: (term) => (term.length >= 6 && LATIN_WORD.test(term) ? 1 : false),
};

/** Indexes every phrasing of every entry as its own document, once. */
export function createKnowledgeIndex(entries: readonly KnowledgeEntry[]): KnowledgeIndex {
  const miniSearch = new MiniSearch<PhrasingDocument>({
    fields: ['question'],
    storeFields: ['entry'],
    tokenize,
    processTerm: (term) => term,
    searchOptions: SEARCH_OPTIONS,
  });
  const documents: PhrasingDocument[] = [];
  entries.forEach((entry, entryIndex) => {
    for (const question of entry.questions) documents.push({ id: documents.length, entry: entryIndex, question });
  });
  miniSearch.addAll(documents);

  return {
    search(text) {
      const best = new Map<number, number>();
      for (const result of miniSearch.search(text, SEARCH_OPTIONS)) {
        const entryIndex = result['entry'] as number;
        if (result.score > (best.get(entryIndex) ?? 0)) best.set(entryIndex, result.score);
      }
      const matches: KnowledgeMatch[] = [];
      for (const [entryIndex, score] of best) {
        const entry = entries[entryIndex];
        if (entry) matches.push({ entry, score });
      }
      return matches.sort((a, b) => b.score - a.score);
    },
  };
}
