import { memoize } from '../text/memo.js';
import { createOneEditIndex } from '../text/one-edit.js';

/**
 * Index terms a query term may stand for, besides itself: English stems that differ by a suffix
 * ("deliv" / "deliveri"), and one typo in a longer English word ("shiping", "refnud", "cancle").
 * Built once per index; lookups are Map reads.
 */
export interface TermExpansion {
  /** Index terms related to `term` with their factor (exact 1, prefix PREFIX_FACTOR, typo TYPO_FACTOR). */
  expand(term: string): ReadonlyArray<readonly [string, number]>;
}

export const PREFIX_FACTOR = 0.8;
export const TYPO_FACTOR = 0.7;
/** How many message terms the expansion (and the index's per-term cache) keeps before starting afresh. */
export const TERM_CACHE_SIZE = 20_000;
const MIN_LENGTH = 4;
const MAX_SUFFIX = 3;
const LATIN_TERM = /^[a-z]+$/;

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

export function createTermExpansion(vocabulary: Iterable<string>): TermExpansion {
  const known = new Set<string>();
  const byPrefix = new Map<string, string[]>();
  const typoTargets: string[] = [];
  for (const term of vocabulary) {
    known.add(term);
    if (term.length < MIN_LENGTH || !LATIN_TERM.test(term)) continue;
    for (let length = Math.max(MIN_LENGTH, term.length - MAX_SUFFIX); length < term.length; length++)
      push(byPrefix, term.slice(0, length), term);
    typoTargets.push(term);
  }
  const oneEdit = createOneEditIndex(typoTargets);
  const compute = (term: string): ReadonlyArray<readonly [string, number]> => {
    const found = new Map<string, number>();
    const note = (other: string, factor: number): void => {
      if ((found.get(other) ?? 0) < factor) found.set(other, factor);
    };
    if (known.has(term)) note(term, 1);
    if (term.length < MIN_LENGTH || !LATIN_TERM.test(term)) return [...found];
    for (const longer of byPrefix.get(term) ?? []) note(longer, PREFIX_FACTOR);
    for (let length = Math.max(MIN_LENGTH, term.length - MAX_SUFFIX); length < term.length; length++) {
      const shorter = term.slice(0, length);
      if (known.has(shorter)) note(shorter, PREFIX_FACTOR);
    }
    if (found.size === 0 && term.length >= MIN_LENGTH + 1) {
      for (const other of oneEdit.near(term)) note(other, TYPO_FACTOR);
    }
    return [...found];
  };

  return { expand: memoize(compute, TERM_CACHE_SIZE) };
}
