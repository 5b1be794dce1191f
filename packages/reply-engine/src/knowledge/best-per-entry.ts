/**
 * The best gain of each entry within one round (one message term in knowledge-index.ts, one pair of
 * message terms in term-pairs.ts), added to running totals when the round ends: an entry reached
 * through several index terms or pairs counts once a round, with its best gain.
 *
 * Made once per index, for its entry count, and reused by every ranking (rank is synchronous). The
 * entries of a round are listed in a typed array of one slot an entry: a list emptied after each
 * round gave its storage back and was grown by push again every round (performance-log.md,
 * twenty-first session). An entry is listed when it first gains, so at most once a round (a gain of 0
 * adds nothing and is not listed).
 */
export interface BestPerEntry {
  /** A gain of `entry` in this round; only its best counts. */
  offer(entry: number, gain: number): void;
  /** Adds each entry's best gain of the round to `totals` (indexed by entry) and starts the next round. */
  addTo(totals: Float64Array): void;
}

export function createBestPerEntry(entryCount: number): BestPerEntry {
  const best = new Float64Array(entryCount);
  const listed = new Int32Array(entryCount);
  let count = 0;
  return {
    offer(entry, gain) {
      const previous = best[entry] ?? 0;
      if (gain > previous) {
        if (previous === 0) listed[count++] = entry;
        best[entry] = gain;
      }
    },
    addTo(totals) {
      for (let i = 0; i < count; i++) {
        const entry = listed[i] ?? 0;
        totals[entry] = (totals[entry] ?? 0) + (best[entry] ?? 0);
        best[entry] = 0;
      }
      count = 0;
    },
  };
}
