import { defaultLexicon, type Lexicon } from '../text/synonyms.js';
import { createBestPerEntry } from './best-per-entry.js';

/** A message term's index terms that occur in some pair, by pair-index id (TermPairs.resolve). */
export interface PairTerms {
  ids: Int32Array;
  relations: Float64Array;
  names: readonly string[];
}

/**
 * Pairs of words that occur together in one phrasing ("delivery" + "cost", "coupon" + "not",
 * 返品 + 方法). A single word rarely tells neighbouring entries apart: "shipping" is in the entries
 * about its cost, its time and abroad; the pair is in one. Each pair of a phrasing's own terms
 * (words and concepts, not bigrams) is indexed with the entries that have it; a message's pairs
 * score each entry by how few entries share the pair (docs/knowledge-engine.md, "Word pairs").
 */
export interface TermPairs {
  /**
   * The index terms among `terms` (a message term's, with their relation: term-expansion.ts) that
   * occur in some pair, as `score` reads them. Depends only on the index: resolve once per term and keep it.
   */
  resolve(terms: ReadonlyArray<readonly [string, number]>): PairTerms;
  /**
   * Adds to `into[entry]` the pair gains of a message: `terms` are the message's own terms, each
   * with its factor and its resolved index terms.
   */
  score(terms: ReadonlyArray<readonly [number, PairTerms]>, siblings: ReadonlySet<string>, into: Float64Array): void;
}

export interface TermPairsBuilder {
  /** Records the pairs of one phrasing's own terms for `entry`; `siblings` as conceptSiblings gives them. */
  add(entry: number, terms: readonly string[], siblings: ReadonlySet<string>): void;
  /** Weighs each pair by `distinctiveness(entries with it)`; no more adds after this. */
  build(distinctiveness: (entriesWithPair: number) => number): TermPairs;
}

/** Terms are numbered as they are first seen; a pair's key is both numbers in one (fewer than 2^20 terms). */
const ID_SPAN = 1 << 20;

function pairKey(a: number, b: number): number {
  return a < b ? a * ID_SPAN + b : b * ID_SPAN + a;
}

/** A word and a concept it yields are one piece of evidence, not a pair ("refund" and "~refund"). */
function sameWord(a: string, b: string, lexicon: Lexicon): boolean {
  return lexicon.conceptsOf(a).includes(b) || lexicon.conceptsOf(b).includes(a);
}

function siblingKey(a: string, b: string): string {
  return a < b ? `${a} ${b}` : `${b} ${a}`;
}

/**
 * The pairs of concepts that one word of a text yields together (快递 → ~deliver and ~parcel): one
 * piece of evidence, not a pair, unless another word of the text yields one of them too ("postage
 * charges": postage → ~deliver and ~cost, charges → ~cost, so ~deliver and ~cost come from two
 * words and count as a pair). Keys for `score` and `add`.
 */
export function conceptSiblings(terms: Iterable<string>, lexicon: Lexicon = defaultLexicon()): Set<string> {
  const siblings = new Set<string>();
  const yielded: (readonly string[])[] = [];
  let several = false;
  for (const term of terms) {
    const concepts = lexicon.conceptsOf(term);
    if (concepts.length === 0) continue;
    yielded.push(concepts);
    if (concepts.length > 1) several = true;
  }
  if (!several) return siblings;
  const words = new Map<string, number>();
  for (const concepts of yielded) for (const concept of concepts) words.set(concept, (words.get(concept) ?? 0) + 1);
  const oneWord = (concept: string): boolean => words.get(concept) === 1;
  for (const concepts of yielded)
    for (let i = 0; i < concepts.length; i++)
      for (let j = i + 1; j < concepts.length; j++) {
        const a = concepts[i] ?? '';
        const b = concepts[j] ?? '';
        if (oneWord(a) && oneWord(b)) siblings.add(siblingKey(a, b));
      }
  return siblings;
}

const EMPTY: PairTerms = { ids: new Int32Array(0), relations: new Float64Array(0), names: [] };

/** An odd multiplier for the pairs' hash (the golden ratio's, as Fibonacci hashing uses). */
const HASH_MULTIPLIER = 0x9e3779b1;

export function createTermPairsBuilder(lexicon: Lexicon = defaultLexicon()): TermPairsBuilder {
  const entriesOf = new Map<number, Set<number>>();
  const termIds = new Map<string, number>();
  const idOf = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = termIds.size;
      termIds.set(term, id);
    }
    return id;
  };
  return {
    add(entry, terms, siblings) {
      for (let i = 0; i < terms.length; i++) {
        for (let j = i + 1; j < terms.length; j++) {
          const a = terms[i] ?? '';
          const b = terms[j] ?? '';
          if (a === b || sameWord(a, b, lexicon) || siblings.has(siblingKey(a, b)) || termIds.size >= ID_SPAN - 2) continue;
          const key = pairKey(idOf(a), idOf(b));
          const set = entriesOf.get(key);
          if (set) set.add(entry);
          else entriesOf.set(key, new Set([entry]));
        }
      }
    },
    build(distinctiveness) {
      // The pairs in typed arrays, found through one open-addressing table of pair numbers (a
      // message's pairs are a few dozen look-ups, each one probe or two in one array, rather than a
      // Map per term and an object per pair: docs/knowledge-engine.md, "Cost").
      const count = entriesOf.size;
      const firstIds = new Int32Array(count);
      const secondIds = new Int32Array(count);
      const weights = new Float64Array(count);
      const entriesFrom = new Int32Array(count + 1);
      const entryList: number[] = [];
      let entryCount = 0;
      let n = 0;
      for (const [key, set] of entriesOf) {
        firstIds[n] = Math.floor(key / ID_SPAN);
        secondIds[n] = key % ID_SPAN;
        weights[n] = distinctiveness(set.size);
        entriesFrom[n] = entryList.length;
        for (const entry of set) {
          entryList.push(entry);
          entryCount = Math.max(entryCount, entry + 1);
        }
        n++;
      }
      entriesFrom[count] = entryList.length;
      const pairEntries = Int32Array.from(entryList);
      entriesOf.clear();
      const slots = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(2, count * 2)))).fill(-1);
      const mask = slots.length - 1;
      const slotOf = (first: number, second: number): number => (Math.imul(first, HASH_MULTIPLIER) ^ second) & mask;
      for (let pair = 0; pair < count; pair++) {
        let slot = slotOf(firstIds[pair] ?? 0, secondIds[pair] ?? 0);
        while ((slots[slot] ?? -1) >= 0) slot = (slot + 1) & mask;
        slots[slot] = pair;
      }
      /** The pair of two term ids (either order), or -1. */
      const paired = (a: number, b: number): number => {
        const first = a < b ? a : b;
        const second = a < b ? b : a;
        for (let slot = slotOf(first, second); ; slot = (slot + 1) & mask) {
          const pair = slots[slot] ?? -1;
          if (pair < 0 || (firstIds[pair] === first && secondIds[pair] === second)) return pair;
        }
      };
      // each entry's best gain from one pair of message terms (best-per-entry.ts)
      const bestOfPair = createBestPerEntry(entryCount);
      return {
        resolve(terms) {
          const ids: number[] = [];
          const relations: number[] = [];
          const names: string[] = [];
          for (const [term, relation] of terms) {
            const id = termIds.get(term);
            if (id === undefined) continue;
            ids.push(id);
            relations.push(relation);
            names.push(term);
          }
          return { ids: Int32Array.from(ids), relations: Float64Array.from(relations), names };
        },
        score(terms, siblings, into) {
          for (let i = 0; i < terms.length; i++) {
            const [factorI, relatedI] = terms[i] ?? [0, EMPTY];
            for (let j = i + 1; j < terms.length; j++) {
              const [factorJ, relatedJ] = terms[j] ?? [0, EMPTY];
              const factor = Math.min(factorI, factorJ);
              // each pair of message terms counts once per entry, through its best-matching index pair
              for (let x = 0; x < relatedI.ids.length; x++) {
                const idA = relatedI.ids[x] ?? 0;
                const relationA = relatedI.relations[x] ?? 0;
                for (let y = 0; y < relatedJ.ids.length; y++) {
                  const idB = relatedJ.ids[y] ?? 0;
                  if (idA === idB) continue;
                  const pair = paired(idA, idB);
                  // the index holds no pair of a word and its own concept (add skips them); siblings depend on the message
                  if (pair < 0 || (siblings.size > 0 && siblings.has(siblingKey(relatedI.names[x] ?? '', relatedJ.names[y] ?? ''))))
                    continue;
                  const gain = (weights[pair] ?? 0) * relationA * (relatedJ.relations[y] ?? 0) * factor;
                  const end = entriesFrom[pair + 1] ?? 0;
                  for (let k = entriesFrom[pair] ?? 0; k < end; k++) bestOfPair.offer(pairEntries[k] ?? 0, gain);
                }
              }
              bestOfPair.addTo(into);
            }
          }
        },
      };
    },
  };
}
