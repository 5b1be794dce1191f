/**
 * How many jobs one replica may hold at once over all its shard workers (docs/design/scaling.md).
 *
 * Every replica runs one BullMQ worker per shard, and WORKER_CONCURRENCY is the replica's total: a
 * limit around the dispatcher caps what runs. What a replica *takes* (moves to active and locks) is
 * capped here: each shard worker's BullMQ `concurrency` is adjusted at run time so that their sum
 * never exceeds `cap` = WORKER_CONCURRENCY + shards − 1. BullMQ needs a concurrency of at least
 * one per worker (an idle shard must be able to notice a job), hence the shards − 1: with that
 * margin one busy shard can still use all of WORKER_CONCURRENCY while the others idle. A worker
 * that has taken all it may gets one more, round robin, whenever the sum allows; a finished job's
 * place goes back to that pool. BullMQ's worker takes a job only while it holds fewer than its
 * concurrency (a job finishing may fetch the next only within it), so the replica holds at most `cap`.
 *
 * A job whose processor has ended is still BullMQ's to finish, and BullMQ's finish takes the shard's
 * next waiting job in the same call when the worker's concurrency still counts the finishing job
 * (moveToFinished fetching the next). So the place is kept until BullMQ is done (`done`): passed on
 * to the next job when one came with the finish (`carried`), given back otherwise. Only when the
 * pool is spent and another shard has taken all it may does the place go back as the processor
 * ends (`ending`), so that shard gets it in turn rather than this one keeping it job after job.
 */
export interface TakeLimit {
  /** The most jobs the replica may hold at once. */
  readonly cap: number;
  /** The concurrency a shard's worker is created with. */
  limitOf(shard: number): number;
  /** A job of the shard is being processed (held until `done`); a place carried from the last job is its. */
  started(shard: number): void;
  /**
   * The job's processor ended, before BullMQ finishes the job. Returns true when the place went back
   * to the pool here (the pool is spent and another shard has taken all it may): BullMQ's finish then
   * takes no next job within it.
   */
  ending(shard: number): boolean;
  /** BullMQ is done with the job (`released`: the place went back at `ending`); `carried`: the next job came with the finish and takes the place. */
  done(shard: number, outcome: { released: boolean; carried: boolean }): void;
  /** Jobs held now (started, not done; a carried place counts once). */
  held(): number;
}

export function createTakeLimit(shards: number, total: number, setConcurrency: (shard: number, concurrency: number) => void): TakeLimit {
  const cap = total + shards - 1;
  const held = new Array<number>(shards).fill(0);
  const limit = new Array<number>(shards).fill(1);
  let granted = shards;
  let turn = 0;

  const set = (shard: number, value: number): void => {
    granted += value - (limit[shard] ?? 0);
    limit[shard] = value;
    setConcurrency(shard, value);
  };
  /** Spare places go, one each, to the workers that have taken all they may, round robin from after the last one served. */
  const grow = (): void => {
    for (let scanned = 0, shard = turn; scanned < shards && granted < cap; scanned++, shard = (shard + 1) % shards) {
      if ((held[shard] ?? 0) < (limit[shard] ?? 1)) continue;
      set(shard, (limit[shard] ?? 1) + 1);
      turn = (shard + 1) % shards;
    }
  };

  const carriedPlaces = new Array<number>(shards).fill(0);
  const release = (shard: number): void => {
    const now = Math.max(0, (held[shard] ?? 0) - 1);
    held[shard] = now;
    // The place goes back to the pool; it is handed out again in turn (this worker included).
    if ((limit[shard] ?? 1) > Math.max(1, now)) set(shard, Math.max(1, now));
    grow();
  };
  /** The pool is spent and a shard other than `shard` holds all it may: it may be waiting for a place. */
  const contended = (shard: number): boolean => granted >= cap && held.some((n, other) => other !== shard && n >= (limit[other] ?? 1));

  return {
    cap,
    limitOf: (shard) => limit[shard] ?? 1,
    started(shard) {
      if ((carriedPlaces[shard] ?? 0) > 0) {
        carriedPlaces[shard] = (carriedPlaces[shard] ?? 1) - 1;
        return;
      }
      held[shard] = (held[shard] ?? 0) + 1;
      grow();
    },
    ending(shard) {
      if (!contended(shard)) return false;
      release(shard);
      return true;
    },
    done(shard, { released, carried }) {
      if (released) {
        // given back at `ending`; a next job that still came is held in its own right (started)
        return;
      }
      if (carried) carriedPlaces[shard] = (carriedPlaces[shard] ?? 0) + 1;
      else release(shard);
    },
    held: () => held.reduce((sum, n) => sum + n, 0),
  };
}
