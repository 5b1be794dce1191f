import { expect } from 'chai';
import { createBestPerEntry } from '../src/knowledge/best-per-entry.js';

/** The per-round maxima the ranking and the word pairs add up (best-per-entry.ts). */
describe("an entry's best gain of a round", () => {
  it('adds only the best gain of each entry a round, once, and starts the next round from nothing', () => {
    const best = createBestPerEntry(4);
    const totals = new Float64Array(4);
    best.offer(2, 0.5);
    best.offer(2, 0.75);
    best.offer(2, 0.25);
    best.offer(0, 1);
    best.offer(3, 0);
    best.addTo(totals);
    expect([...totals]).to.deep.equal([1, 0, 0.75, 0]);
    best.offer(2, 0.25);
    best.addTo(totals);
    expect([...totals]).to.deep.equal([1, 0, 1, 0]);
    best.addTo(totals);
    expect([...totals]).to.deep.equal([1, 0, 1, 0]);
  });

  it('takes every entry in one round, each offered many times, without running out of room', () => {
    const best = createBestPerEntry(3);
    const totals = new Float64Array(3);
    for (let i = 1; i <= 10; i++) for (let entry = 0; entry < 3; entry++) best.offer(entry, i * (entry + 1));
    best.addTo(totals);
    expect([...totals]).to.deep.equal([10, 20, 30]);
  });
});
