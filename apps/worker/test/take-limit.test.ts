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
  /**
   * A job of `shard` ends: its processor ends (ending), then BullMQ finishes it, taking the shard's
   * next job in the same call when one waits (`nextWaiting`) and its concurrency still counts the
   * finishing job (holding <= concurrency), then `done`. Returns whether the next job came with it.
   */
  const finish = (shard: number, nextWaiting = false): boolean => {
    const released = limit.ending(shard);
    const carried = nextWaiting && (holding[shard] ?? 0) <= (concurrency[shard] ?? 0);
    if (!carried) holding[shard] = (holding[shard] ?? 0) - 1;
    limit.done(shard, { released, carried });
    if (carried) limit.started(shard);
    return carried;
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
        else run.finish(shard, random(2) === 0);
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

  it("passes a finishing job's place to the shard's next job when BullMQ's finish takes it, and no one else waits", () => {
    const run = simulate(16, 50);
    for (let i = 0; i < 10; i++) expect(run.offer(5)).to.equal(true);
    const before = run.concurrency[5];
    // the shard's worker still counts the finishing job: BullMQ takes the next one in the same call
    expect(run.finish(5, true)).to.equal(true);
    expect(run.holding[5]).to.equal(10);
    expect(run.limit.held()).to.equal(10);
    expect(run.concurrency[5]).to.equal(before);
    // with nothing waiting, the place goes back as before
    expect(run.finish(5, false)).to.equal(false);
    expect(run.limit.held()).to.equal(9);
    expect(run.concurrency[5]).to.be.at.most(10);
  });

  it("gives a finishing job's place back at once when the pool is spent and another shard holds all it may", () => {
    const run = simulate(2, 4); // cap 5
    while (run.offer(0)); // shard 0 takes 4 of the 5
    expect(run.offer(1)).to.equal(true); // shard 1 holds its one place: the pool is spent
    // shard 0's finish may not take its next job: the place goes to shard 1 in turn
    expect(run.finish(0, true)).to.equal(false);
    expect(run.holding).to.deep.equal([3, 1]);
    expect(run.offer(1)).to.equal(true);
    expect(run.held()).to.equal(5);
  });
});
