import { defaultLexicon, type Lexicon } from '../text/synonyms.js';

/**
 * Pairs of words that occur together in one phrasing ("delivery" + "cost", "coupon" + "not",
 * 返品 + 方法). A single word rarely tells neighbouring entries apart: "shipping" is in the entries
 * about its cost, its time and abroad; the pair is in one. Each pair of a phrasing's own terms
 * (words and concepts, not bigrams) is indexed with the entries that have it; a message's pairs
 * score each entry by how few entries share the pair (docs/knowledge-engine.md, "Word pairs").
 */
export interface TermPairs {
  /**
   * Adds to `into[entry]` the pair gains of a message: `terms` are the message's own terms, each
   * with its factor and the index terms it stands for (term-expansion.ts) with their relation.
   */
  score(
    terms: ReadonlyArray<readonly [number, ReadonlyArray<readonly [string, number]>]>,
    siblings: ReadonlySet<string>,
    into: Float64Array,
  ): void;
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
 * piece of evidence, not a pair. Keys for `score` and `add`.
 */
export function conceptSiblings(terms: Iterable<string>, lexicon: Lexicon = defaultLexicon()): Set<string> {
  const siblings = new Set<string>();
  for (const term of terms) {
    const concepts = lexicon.conceptsOf(term);
    for (let i = 0; i < concepts.length; i++)
      for (let j = i + 1; j < concepts.length; j++) siblings.add(siblingKey(concepts[i] ?? '', concepts[j] ?? ''));
  }
  return siblings;
}

interface WeightedPair {
  weight: number;
  entries: number[];
}

export function createTermPairsBuilder(lexicon: Lexicon = defaultLexicon()): TermPairsBuilder {
  const entriesOf = new Map<number, Set<number>>();
  const ids = new Map<string, number>();
  const idOf = (term: string): number => {
    let id = ids.get(term);
    if (id === undefined) {
      id = ids.size;
      ids.set(term, id);
    }
    return id;
  };
  return {
    add(entry, terms, siblings) {
      for (let i = 0; i < terms.length; i++) {
        for (let j = i + 1; j < terms.length; j++) {
          const a = terms[i] ?? '';
          const b = terms[j] ?? '';
          if (a === b || sameWord(a, b, lexicon) || siblings.has(siblingKey(a, b)) || ids.size >= ID_SPAN - 2) continue;
          const key = pairKey(idOf(a), idOf(b));
          const set = entriesOf.get(key);
          if (set) set.add(entry);
          else entriesOf.set(key, new Set([entry]));
        }
      }
    },
    build(distinctiveness) {
      const pairs = new Map<number, WeightedPair>();
      for (const [key, set] of entriesOf) pairs.set(key, { weight: distinctiveness(set.size), entries: [...set] });
      entriesOf.clear();
      let entryCount = 0;
      for (const pair of pairs.values()) for (const entry of pair.entries) entryCount = Math.max(entryCount, entry + 1);
      // the best gain per entry of one pair of message terms, and the entries it was set for
      const best = new Float64Array(entryCount);
      const touched: number[] = [];
      return {
        score(terms, siblings, into) {
          for (let i = 0; i < terms.length; i++) {
            const [factorI, relatedI] = terms[i] ?? [0, []];
            for (let j = i + 1; j < terms.length; j++) {
              const [factorJ, relatedJ] = terms[j] ?? [0, []];
              const factor = Math.min(factorI, factorJ);
              // each pair of message terms counts once per entry, through its best-matching index pair
              for (const [a, relationA] of relatedI) {
                const idA = ids.get(a);
                if (idA === undefined) continue;
                for (const [b, relationB] of relatedJ) {
                  const idB = ids.get(b);
                  if (idB === undefined || idA === idB) continue;
                  const pair = pairs.get(pairKey(idA, idB));
                  // the index holds no pair of a word and its own concept (add skips them); siblings depend on the message
                  if (!pair || (siblings.size > 0 && siblings.has(siblingKey(a, b)))) continue;
                  const gain = pair.weight * relationA * relationB * factor;
                  for (const entry of pair.entries) {
                    const previous = best[entry] ?? 0;
                    if (previous === 0) touched.push(entry);
                    if (gain > previous) best[entry] = gain;
                  }
                }
              }
              for (const entry of touched) {
                into[entry] = (into[entry] ?? 0) + (best[entry] ?? 0);
                best[entry] = 0;
              }
              touched.length = 0;
            }
          }
        },
      };
    },
  };
}
