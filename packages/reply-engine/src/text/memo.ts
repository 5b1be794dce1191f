/**
 * How many words each per-word cache of the tokenizer keeps (the stems and phrase starts of a run,
 * a term's typo concepts): 5,000 cover the words customers mostly use; filled with distinct random
 * words, the three caches together hold about 2.3 MiB.
 */
export const WORD_CACHE_SIZE = 5_000;

/**
 * A function of one string remembered for up to `limit` distinct arguments, then forgotten all at
 * once (cheaper than an LRU's bookkeeping on every call, and words repeat far more often than the
 * limit is reached). For results that depend only on the argument and on data fixed at start-up
 * (a word's stem, an index term's postings): never for anything a customer's whole message decides.
 * An argument longer than `maxLength` is computed and not kept, so one huge word cannot hold memory.
 */
export function memoize<T>(compute: (key: string) => T, limit: number, maxLength = 64): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = compute(key);
      if (key.length <= maxLength) {
        if (known.size >= limit) known.clear();
        known.set(key, value);
      }
    }
    return value;
  };
}
