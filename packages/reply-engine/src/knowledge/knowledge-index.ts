import { MIN_OWN_FACTOR, termsOf } from '../text/tokenize.js';
import type { KnowledgeEntry } from './knowledge-base.js';
import { createTermExpansion } from './term-expansion.js';
import { conceptSiblings, createTermPairsBuilder } from './term-pairs.js';

export interface KnowledgeMatch {
  entry: KnowledgeEntry;
  score: number;
  /** One of the entry's phrasings says exactly what the message says: the same words, none left over on either side. */
  whole: boolean;
}

/** Share of a phrasing's own weight (and of the message's) that must match for the two to say the same. */
const WHOLE_SHARE = 0.99;

export interface KnowledgeRanking {
  /** Entries that matched at all, best first. */
  matches: KnowledgeMatch[];
  /** The message's own term weight (what a perfect entry would explain); 0 when it has no terms. */
  weight: number;
}

export interface KnowledgeIndex {
  rank(text: string): KnowledgeRanking;
}

interface Posting {
  doc: number;
  factor: number;
}

/** Answers are indexed too, their words counting this much: they name what the questions leave out. */
export const ANSWER_FACTOR = 0.5;
/** How much an entry that has a term only in its answer counts towards the term's spread. */
export const ANSWER_SPREAD = 0.6;
/** Weight of a term never seen in the FAQ: unknown topics lower a message's coverage. */
export const UNKNOWN_TERM_WEIGHT = 0.4;
/** Share of an entry's score from its best single phrasing (words that occur together); the rest from all its words. */
export const PHRASING_SHARE = 0.3;
/** How much two of the message's words found together in one phrasing add, besides each word's own gain (term-pairs.ts). */
export const PAIR_FACTOR = 0.5;

/**
 * Distinctiveness of a term found in `df` of `n` entries: 1 for one entry, falling towards 0 for a
 * term every entry has. Squared, so shared words ("order", "订单", "注文") count far less than words
 * of one entry, and normalised by log(1 + n), so scores read the same for any FAQ size.
 */
function distinctiveness(df: number, n: number): number {
  const idf = Math.log(1 + n / df) / Math.log(1 + n);
  return idf * idf;
}

function termsWithScale(text: string, scale: number, into: Map<string, number>): void {
  for (const [term, factor] of termsOf(text)) if ((into.get(term) ?? 0) < factor * scale) into.set(term, factor * scale);
}

/**
 * Indexes a FAQ: each phrasing of a question is a document, and so are each entry's answers (their
 * words at ANSWER_FACTOR). A message's terms are matched against index terms (themselves, stem
 * variants, one-typo neighbours: term-expansion.ts); a match gains
 * distinctiveness × relation factor × the smaller of the two term factors. An entry's score blends
 * its best document (words that occur together in one phrasing) with the best gain of each
 * message term anywhere in the entry, plus the gains of the message's word pairs found together in
 * one of its phrasings (term-pairs.ts). docs/knowledge-engine.md explains the whole ranking.
 */
export function createKnowledgeIndex(entries: readonly KnowledgeEntry[]): KnowledgeIndex {
  const docEntry: number[] = [];
  const postings = new Map<string, Posting[]>();
  const entriesOf = new Map<string, Set<number>>();
  const answerEntriesOf = new Map<string, Set<number>>();
  const pairsBuilder = createTermPairsBuilder();
  const addDoc = (entry: number, terms: Map<string, number>, owners: Map<string, Set<number>>): void => {
    const doc = docEntry.length;
    docEntry.push(entry);
    for (const [term, factor] of terms) {
      const list = postings.get(term);
      if (list) list.push({ doc, factor });
      else postings.set(term, [{ doc, factor }]);
      const set = owners.get(term);
      if (set) set.add(entry);
      else owners.set(term, new Set([entry]));
    }
  };
  entries.forEach((entry, index) => {
    for (const question of entry.questions) {
      const terms = new Map<string, number>();
      termsWithScale(question, 1, terms);
      addDoc(index, terms, entriesOf);
      pairsBuilder.add(index, [...terms].filter(([, factor]) => factor >= MIN_OWN_FACTOR).map(([term]) => term), conceptSiblings(terms.keys()));
    }
    const answerTerms = new Map<string, number>();
    for (const parts of Object.values(entry.answer)) for (const part of parts) if (part.type === 'text') termsWithScale(part.content, ANSWER_FACTOR, answerTerms);
    addDoc(index, answerTerms, answerEntriesOf);
  });
  const weights = new Map<string, number>();
  for (const term of postings.keys()) {
    // answers use common words freely ("open My account"); they count ANSWER_SPREAD towards a term's spread
    const inQuestions = entriesOf.get(term) ?? new Set<number>();
    let onlyInAnswers = 0;
    for (const entry of answerEntriesOf.get(term) ?? []) if (!inQuestions.has(entry)) onlyInAnswers += 1;
    weights.set(term, distinctiveness(Math.max(1, inQuestions.size + ANSWER_SPREAD * onlyInAnswers), entries.length));
  }
  // a document's own weight: a phrasing that is all about the message's words beats a long one that mentions them
  const docWeights = new Float64Array(docEntry.length);
  for (const [term, list] of postings) {
    for (const posting of list) if (posting.factor >= MIN_OWN_FACTOR) docWeights[posting.doc] = (docWeights[posting.doc] ?? 0) + posting.factor * (weights.get(term) ?? 0);
  }
  const expansion = createTermExpansion(postings.keys());
  const pairs = pairsBuilder.build((entriesWithPair) => distinctiveness(entriesWithPair, entries.length));
  const docCount = docEntry.length;

  return {
    rank(text) {
      const docScores = new Float64Array(docCount);
      const entryTotals = new Float64Array(entries.length);
      const bestOfDoc = new Float64Array(docCount);
      // the gains of own terms (words, concepts) alone, to tell a message that is exactly one phrasing
      const ownScores = new Float64Array(docCount);
      const bestOwnOfDoc = new Float64Array(docCount);
      const bestOfEntry = new Float64Array(entries.length);
      const touched: number[] = [];
      const ownTerms: (readonly [number, ReadonlyArray<readonly [string, number]>])[] = [];
      let weight = 0;
      const messageTerms = termsOf(text);
      for (const [term, queryFactor] of messageTerms) {
        const related = expansion.expand(term);
        if (queryFactor >= MIN_OWN_FACTOR && related.length > 0) ownTerms.push([queryFactor, related]);
        if (related.length === 0) {
          if (queryFactor >= MIN_OWN_FACTOR) weight += queryFactor * UNKNOWN_TERM_WEIGHT;
          continue;
        }
        let termWeight = 0;
        for (const [indexTerm, relation] of related) {
          const distinct = (weights.get(indexTerm) ?? 0) * relation;
          termWeight = Math.max(termWeight, distinct);
          for (const posting of postings.get(indexTerm) ?? []) {
            const gain = distinct * Math.min(queryFactor, posting.factor);
            const previous = bestOfDoc[posting.doc] ?? 0;
            if (previous === 0) touched.push(posting.doc);
            if (gain > previous) bestOfDoc[posting.doc] = gain;
            if (queryFactor >= MIN_OWN_FACTOR && posting.factor >= MIN_OWN_FACTOR && gain > (bestOwnOfDoc[posting.doc] ?? 0)) bestOwnOfDoc[posting.doc] = gain;
          }
        }
        if (queryFactor >= MIN_OWN_FACTOR) weight += queryFactor * termWeight;
        for (const doc of touched) {
          const gain = bestOfDoc[doc] ?? 0;
          docScores[doc] = (docScores[doc] ?? 0) + gain;
          const entry = docEntry[doc] ?? 0;
          if (gain > (bestOfEntry[entry] ?? 0)) bestOfEntry[entry] = gain;
          bestOfDoc[doc] = 0;
          ownScores[doc] = (ownScores[doc] ?? 0) + (bestOwnOfDoc[doc] ?? 0);
          bestOwnOfDoc[doc] = 0;
        }
        touched.length = 0;
        for (let i = 0; i < entryTotals.length; i++) {
          entryTotals[i] = (entryTotals[i] ?? 0) + (bestOfEntry[i] ?? 0);
          bestOfEntry[i] = 0;
        }
      }
      const bestDoc = new Float64Array(entries.length);
      const whole = new Uint8Array(entries.length);
      docScores.forEach((raw, doc) => {
        const entry = docEntry[doc] ?? 0;
        const own = ownScores[doc] ?? 0;
        if (weight > 0 && own >= WHOLE_SHARE * weight && own >= WHOLE_SHARE * (docWeights[doc] ?? 0)) whole[entry] = 1;
        const precision = Math.min(1, raw / Math.max(docWeights[doc] ?? 0, 1e-9));
        const score = raw * (0.5 + 0.5 * precision);
        if (score > (bestDoc[entry] ?? 0)) bestDoc[entry] = score;
      });
      const pairTotals = new Float64Array(entries.length);
      pairs.score(ownTerms, conceptSiblings(messageTerms.keys()), pairTotals);
      const matches: KnowledgeMatch[] = [];
      entryTotals.forEach((total, i) => {
        const entry = entries[i];
        const score = PHRASING_SHARE * (bestDoc[i] ?? 0) + (1 - PHRASING_SHARE) * (total + PAIR_FACTOR * (pairTotals[i] ?? 0));
        if (score > 0 && entry) matches.push({ entry, score, whole: whole[i] === 1 });
      });
      matches.sort((a, b) => b.score - a.score);
      return { matches, weight };
    },
  };
}
