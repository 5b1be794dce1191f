import { defaultLexicon, type Lexicon } from '../text/synonyms.js';
import { MIN_OWN_FACTOR, termsOf } from '../text/tokenize.js';
import type { KnowledgeEntry } from './knowledge-base.js';
import { createBestPerEntry } from './best-per-entry.js';
import { buildIndexPostings, distinctiveness } from './index-postings.js';
import { memoize } from '../text/memo.js';
import { createTermExpansion, TERM_CACHE_SIZE } from './term-expansion.js';
import { conceptSiblings, createTermPairsBuilder, type PairTerms } from './term-pairs.js';

export { ANSWER_FACTOR, ANSWER_SPREAD } from './index-postings.js';

export interface KnowledgeMatch {
  entry: KnowledgeEntry;
  score: number;
  /** One of the entry's phrasings says exactly what the message says: the same words, none left over on either side. */
  whole: boolean;
}

/** Share of a phrasing's own weight (and of the message's) that must match for the two to say the same. */
const WHOLE_SHARE = 0.99;

export interface KnowledgeRanking {
  /** The best entries that matched at all (as many as the depth asked for), best first. */
  matches: KnowledgeMatch[];
  /** The message's own term weight (what a perfect entry would explain); 0 when it has no terms. */
  weight: number;
  /** The entry one of whose phrasings is the message itself, letter for letter (case, spaces and punctuation aside), if one entry has it. */
  verbatim?: KnowledgeEntry | undefined;
}

export interface KnowledgeIndex {
  /** Ranks the entries for a text; `depth`: how many of the best are returned, with exact scores (default DEFAULT_RANK_DEPTH). */
  rank(text: string, depth?: number): KnowledgeRanking;
}

/** How many entries a ranking returns unless told otherwise. */
export const DEFAULT_RANK_DEPTH = 6;
/** Weight of a term never seen in the FAQ: unknown topics lower a message's coverage. */
export const UNKNOWN_TERM_WEIGHT = 0.4;
/** Share of an entry's score from its best single phrasing (words that occur together); the rest from all its words. */
export const PHRASING_SHARE = 0.3;
/** How much two of the message's words found together in one phrasing add, besides each word's own gain (term-pairs.ts). */
export const PAIR_FACTOR = 0.5;

/** A text as compared letter for letter with a phrasing: case, width, spaces and punctuation aside. */
export function verbatimKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** What a term of a message stands for in the index; depends only on the index, so kept per term. */
interface Related {
  /** For the word pairs: the index terms that occur in pairs, with their relation. */
  pairTerms: PairTerms;
  /** The pooled postings' runs of the index terms it stands for (index-postings.ts): from[r] … to[r]. */
  from: Int32Array;
  to: Int32Array;
  /** distinctiveness × relation of each of those index terms. */
  gains: Float64Array;
  /** The largest of `gains` (0 without postings). */
  weight: number;
}

/** The position of `entry` in the ascending run entries[from … to), or -1. */
function find(entries: Int32Array, from: number, to: number, entry: number): number {
  let low = from;
  let high = to - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = entries[middle] ?? 0;
    if (value === entry) return middle;
    if (value < entry) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * Indexes a FAQ (index-postings.ts) and ranks its entries for a message. A message's terms are
 * matched against index terms (themselves, stem variants, one-typo neighbours: term-expansion.ts);
 * a match gains distinctiveness × relation factor × the smaller of the two term factors. An entry's
 * score blends its best document (words that occur together in one phrasing) with the best gain of
 * each message term anywhere in the entry, plus the gains of the message's word pairs found
 * together in one of its phrasings (term-pairs.ts). docs/knowledge-engine.md explains the ranking.
 *
 * One pass over the entries' postings gives every entry's term and pair sums, and with them bounds
 * of its score (the best document scores between 0 and the term sum); the phrasings are then read
 * only for the entries that can still reach the first `depth`, best bound first.
 */
export function createKnowledgeIndex(entries: readonly KnowledgeEntry[], lexicon: Lexicon = defaultLexicon()): KnowledgeIndex {
  const index = buildIndexPostings(entries, lexicon);
  const { terms, docEntry, docWeights } = index;
  const { entries: poolEntries, entryFactors: poolEntryFactors, docStart, docs, docFactors } = index.pool;
  const entryCount = entries.length;
  const pairsBuilder = createTermPairsBuilder(lexicon);
  for (const { entry, terms: phrasing } of index.phrasingTerms) {
    pairsBuilder.add(
      entry,
      [...phrasing].filter(([, factor]) => factor >= MIN_OWN_FACTOR).map(([term]) => term),
      conceptSiblings(phrasing.keys(), lexicon),
    );
  }
  index.phrasingTerms.length = 0;
  const pairs = pairsBuilder.build((entriesWithPair) => distinctiveness(entriesWithPair, entryCount));
  const expansion = createTermExpansion(terms.keys());
  const verbatim = new Map<string, number>();
  entries.forEach((entry, i) => {
    for (const question of entry.questions) {
      const key = verbatimKey(question);
      const known = verbatim.get(key);
      if (key !== '') verbatim.set(key, known === undefined || known === i ? i : -1);
    }
  });
  // each entry's documents, consecutive: firstDoc[e] … firstDoc[e + 1]
  const firstDoc = new Int32Array(entryCount + 1);
  docEntry.forEach((entry) => void (firstDoc[entry + 1] = (firstDoc[entry + 1] ?? 0) + 1));
  let mostDocs = 0;
  for (let e = 0; e < entryCount; e++) {
    mostDocs = Math.max(mostDocs, firstDoc[e + 1] ?? 0);
    firstDoc[e + 1] = (firstDoc[e + 1] ?? 0) + (firstDoc[e] ?? 0);
  }
  const relatedOf = memoize((term: string): Related => {
    const expanded = expansion.expand(term);
    const from: number[] = [];
    const to: number[] = [];
    const gains: number[] = [];
    let weight = 0;
    for (const [indexTerm, relation] of expanded) {
      const found = terms.get(indexTerm);
      if (found) {
        from.push(found.from);
        to.push(found.to);
        const gain = found.weight * relation;
        gains.push(gain);
        if (gain > weight) weight = gain;
      }
    }
    return {
      pairTerms: pairs.resolve(expanded),
      from: Int32Array.from(from),
      to: Int32Array.from(to),
      gains: Float64Array.from(gains),
      weight,
    };
  }, TERM_CACHE_SIZE);
  // scratch buffers, one set per index: rank is synchronous
  const entryTotals = new Float64Array(entryCount);
  const pairTotals = new Float64Array(entryCount);
  // each entry's best gain from one message term (best-per-entry.ts)
  const bestOfTerm = createBestPerEntry(entryCount);
  const upper = new Float64Array(entryCount);
  // the message's terms that match in the index (the first `queried` of each list; kept across calls, never shrunk):
  // each term's factor, whether it is one of the message's own words, and what it stands for (term-expansion.ts)
  const queryFactors: number[] = [];
  const queryOwn: boolean[] = [];
  const queryRelated: Related[] = [];
  const raw = new Float64Array(mostDocs);
  const own = new Float64Array(mostDocs);
  const bestOfDoc = new Float64Array(mostDocs);
  const bestOwnOfDoc = new Float64Array(mostDocs);

  /** The exact score of entry `e` and whether one of its phrasings is the message whole. */
  const exactScore = (e: number, queried: number, weight: number): KnowledgeMatch => {
    const first = firstDoc[e] ?? 0;
    const count = (firstDoc[e + 1] ?? 0) - first;
    raw.fill(0, 0, count);
    own.fill(0, 0, count);
    // bestOfDoc and bestOwnOfDoc are all 0 between terms: each term's loop below resets what it set
    for (let q = 0; q < queried; q++) {
      let matched = false;
      const queryFactor = queryFactors[q] ?? 0;
      const ownTerm = queryOwn[q] ?? false;
      const { from, to, gains } = queryRelated[q] as Related;
      for (let r = 0; r < from.length; r++) {
        const k = find(poolEntries, from[r] ?? 0, to[r] ?? 0, e);
        if (k < 0) continue;
        matched = true;
        const distinct = gains[r] ?? 0;
        const end = docStart[k + 1] ?? 0;
        for (let j = docStart[k] ?? 0; j < end; j++) {
          const d = (docs[j] ?? 0) - first;
          const factor = docFactors[j] ?? 0;
          const gain = distinct * (queryFactor < factor ? queryFactor : factor);
          if (gain > (bestOfDoc[d] ?? 0)) bestOfDoc[d] = gain;
          if (ownTerm && factor >= MIN_OWN_FACTOR && gain > (bestOwnOfDoc[d] ?? 0)) bestOwnOfDoc[d] = gain;
        }
      }
      if (!matched) continue;
      for (let d = 0; d < count; d++) {
        raw[d] = (raw[d] ?? 0) + (bestOfDoc[d] ?? 0);
        own[d] = (own[d] ?? 0) + (bestOwnOfDoc[d] ?? 0);
        bestOfDoc[d] = 0;
        bestOwnOfDoc[d] = 0;
      }
    }
    let bestDoc = 0;
    let whole = false;
    for (let d = 0; d < count; d++) {
      const score = raw[d] ?? 0;
      const ownScore = own[d] ?? 0;
      const docWeight = docWeights[first + d] ?? 0;
      if (weight > 0 && ownScore >= WHOLE_SHARE * weight && ownScore >= WHOLE_SHARE * docWeight) whole = true;
      const precision = Math.min(1, score / Math.max(docWeight, 1e-9));
      const scored = score * (0.5 + 0.5 * precision);
      if (scored > bestDoc) bestDoc = scored;
    }
    const score = PHRASING_SHARE * bestDoc + (1 - PHRASING_SHARE) * ((entryTotals[e] ?? 0) + PAIR_FACTOR * (pairTotals[e] ?? 0));
    return { entry: entries[e] as KnowledgeEntry, score, whole };
  };

  return {
    rank(text, depth = DEFAULT_RANK_DEPTH) {
      entryTotals.fill(0);
      pairTotals.fill(0);
      let queried = 0;
      const ownTerms: (readonly [number, PairTerms])[] = [];
      let weight = 0;
      const messageTerms = termsOf(text, lexicon);
      // by key, not by entry: a Map's entries iterator makes a [term, factor] array per term
      for (const term of messageTerms.keys()) {
        const factor = messageTerms.get(term) ?? 0;
        const related = relatedOf(term);
        const own = factor >= MIN_OWN_FACTOR;
        if (related.from.length === 0) {
          if (own) weight += factor * UNKNOWN_TERM_WEIGHT;
          continue;
        }
        if (own) ownTerms.push([factor, related.pairTerms]);
        const { from, to, gains } = related;
        for (let r = 0; r < from.length; r++) {
          const distinct = gains[r] ?? 0;
          const end = to[r] ?? 0;
          for (let k = from[r] ?? 0; k < end; k++) {
            const entryFactor = poolEntryFactors[k] ?? 0;
            bestOfTerm.offer(poolEntries[k] ?? 0, distinct * (factor < entryFactor ? factor : entryFactor));
          }
        }
        if (own) weight += factor * related.weight;
        bestOfTerm.addTo(entryTotals);
        queryFactors[queried] = factor;
        queryOwn[queried] = own;
        queryRelated[queried] = related;
        queried += 1;
      }
      if (ownTerms.length > 1) pairs.score(ownTerms, conceptSiblings(messageTerms.keys(), lexicon), pairTotals);
      // bounds: the best document scores between 0 and the entry's term sum
      let candidates = 0;
      for (let e = 0; e < entryCount; e++) {
        const total = entryTotals[e] ?? 0;
        upper[e] = total > 0 ? (1 - PHRASING_SHARE) * (total + PAIR_FACTOR * (pairTotals[e] ?? 0)) + PHRASING_SHARE * total : -1;
        if (total > 0) candidates += 1;
      }
      const wanted = Math.max(1, Math.floor(depth));
      const scored: { match: KnowledgeMatch; e: number }[] = [];
      let floor = Number.NEGATIVE_INFINITY;
      // best bound first (a linear pick: a few entries are scored, far fewer than a sort would compare)
      for (; candidates > 0; candidates--) {
        let e = -1;
        let bound = -1;
        for (let i = 0; i < entryCount; i++) {
          if ((upper[i] ?? -1) > bound) {
            bound = upper[i] ?? -1;
            e = i;
          }
        }
        if (bound < floor) break;
        upper[e] = -1;
        const match = exactScore(e, queried, weight);
        if (match.score <= 0) continue;
        // kept in order (score, then entry) by insertion: a handful of entries
        let at = scored.length;
        while (
          at > 0 &&
          ((scored[at - 1]?.match.score ?? 0) < match.score ||
            ((scored[at - 1]?.match.score ?? 0) === match.score && (scored[at - 1]?.e ?? 0) > e))
        )
          at--;
        scored.splice(at, 0, { match, e });
        if (scored.length >= wanted) floor = scored[wanted - 1]?.match.score ?? floor;
      }
      const matches = scored.slice(0, wanted).map((item) => item.match);
      const said = verbatim.get(verbatimKey(text));
      return { matches, weight, verbatim: said === undefined || said < 0 ? undefined : entries[said] };
    },
  };
}
