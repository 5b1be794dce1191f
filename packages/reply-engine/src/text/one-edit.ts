/**
 * True when `a` becomes `b` by at most one edit: inserting, deleting or replacing one letter, or
 * swapping two neighbours ("cancle" / "cancel"). Matching by shared one-letter deletions alone also
 * pairs words two edits apart ("learn" / "clean" both lose a letter to "lean"); this check rules them out.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Known words by each of their one-letter deletions: finds the words one edit from a term without comparing it with each. */
export interface OneEditIndex {
  /** The known words within one edit of `term` (itself included when known). */
  near(term: string): string[];
  /** The keys `near` looks up: the term and its deletions; none when the term is too long to be one edit from any known word. */
  keysOf(term: string): string[];
}

export function createOneEditIndex(words: Iterable<string>): OneEditIndex {
  const byKey = new Map<string, string[]>();
  let longest = 0;
  const keysOf = (term: string): string[] => {
    // A word two or more letters longer than every known word is one edit from none, and its n
    // deletions of n letters each would cost n² for nothing (docs/knowledge-engine.md, "Cost").
    if (term.length > longest + 1) return [];
    const keys = [term];
    for (let i = 0; i < term.length; i++) keys.push(term.slice(0, i) + term.slice(i + 1));
    return keys;
  };
  for (const word of words) {
    longest = Math.max(longest, word.length);
    for (const key of keysOf(word)) {
      const list = byKey.get(key);
      if (!list) byKey.set(key, [word]);
      else if (!list.includes(word)) list.push(word);
    }
  }
  return {
    keysOf,
    near(term) {
      const found = new Set<string>();
      for (const key of keysOf(term)) for (const word of byKey.get(key) ?? []) if (withinOneEdit(term, word)) found.add(word);
      return [...found];
    },
  };
}
