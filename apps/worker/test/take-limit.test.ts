import { expect } from 'chai';
import { createTakeLimit } from '../src/take-limit.js';

/** A replica's shard workers as BullMQ runs them: a worker takes a job while it holds fewer than its concurrency. */
function simulate(shards: number, total: number) {
  const concurrency = new Array<number>(shards).fill(0);
  const limit = createTakeLimit(shards, total, (shard, n) => {
    concurrency[shard] = n;
  });
  for (let shard = 0; shard < shards; shard++) concurrency[shard] = limit.limitOf(shard);
  const holding = new Array<number>(shards).fill(0);
  /** Shard `shard` has a job waiting: its worker takes it if its concurrency allows. */
  const offer = (shard: number): boolean => {
    if ((holding[shard] ?? 0) >= (concurrency[shard] ?? 0)) return false;
    holding[shard] = (holding[shard] ?? 0) + 1;
    limit.started(shard);
    return true;
  };
  const finish = (shard: number): void => {
    holding[shard] = (holding[shard] ?? 0) - 1;
    limit.finished(shard);
  };
  const held = (): number => holding.reduce((a, b) => a + b, 0);
  return { limit, concurrency, holding, offer, finish, held };
}

describe("a replica's take limit over its shard workers", () => {
  it('starts each shard worker at one job and caps the replica at WORKER_CONCURRENCY + shards - 1', () => {
    const { limit, concurrency } = simulate(16, 50);
    expect(limit.cap).to.equal(65);
    expect(concurrency).to.deep.equal(new Array(16).fill(1));
  });

  it('lets one busy shard take all of WORKER_CONCURRENCY while the others idle', () => {
    const run = simulate(16, 50);
    let taken = 0;
    while (run.offer(3)) taken += 1;
    expect(taken).to.equal(50);
    expect(run.concurrency[3]).to.equal(50);
  });

  it('never holds more than the cap, whatever the order of jobs arriving and finishing', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (const [shards, total] of [
      [16, 50],
      [4, 4],
      [16, 8],
      [1, 10],
      [3, 1],
    ] as const) {
      const run = simulate(shards, total);
      let most = 0;
      for (let step = 0; step < 20_000; step++) {
        const shard = random(shards);
        if (random(3) > 0 || (run.holding[shard] ?? 0) === 0) run.offer(shard);
        else run.finish(shard);
        most = Math.max(most, run.held());
        expect(run.held()).to.equal(run.limit.held());
      }
      expect(most, `${shards} shards, WORKER_CONCURRENCY ${total}`).to.be.within(total, total + shards - 1);
    }
  });

  it('hands places freed by finished jobs round robin, so a shard that waits gets one', () => {
    const run = simulate(2, 4); // cap 5
    while (run.offer(0)); // shard 0 takes 4, shard 1 keeps its one place
    expect(run.holding).to.deep.equal([4, 0]);
    expect(run.offer(1)).to.equal(true);
    expect(run.offer(1)).to.equal(false); // the replica holds 5: full
    // Shard 0 keeps finishing and asking for more; shard 1 asks after each finish.
    let placesOfShard1 = 0;
    for (let i = 0; i < 4; i++) {
      run.finish(0);
      if (run.offer(1)) placesOfShard1 += 1;
      else expect(run.offer(0)).to.equal(true);
    }
    expect(placesOfShard1).to.be.at.least(2);
    expect(run.held()).to.be.at.most(5);
  });
});
