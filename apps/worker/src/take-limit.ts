/**
 * How many jobs one replica may hold at once over all its shard workers (docs/design/scaling.md).
 *
 * Every replica runs one BullMQ worker per shard, and WORKER_CONCURRENCY is the replica's total: a
 * limit around the dispatcher caps what runs. What a replica *takes* (moves to active and locks) is
 * capped here: each shard worker's BullMQ `concurrency` is adjusted at run time so that their sum
 * never exceeds `cap` = WORKER_CONCURRENCY + shards − 1. BullMQ needs a concurrency of at least
 * one per worker (an idle shard must be able to notice a job), hence the shards − 1: with that
 * margin one busy shard can still use all of WORKER_CONCURRENCY while the others idle. A worker
 * that has taken all it may gets one more, round robin, whenever the sum allows; a finishing job's
 * place goes back to that pool. BullMQ's worker takes a job only while it holds fewer than its
 * concurrency (a job finishing may fetch the next only within it), so the replica holds at most `cap`.
 */
export interface TakeLimit {
  /** The most jobs the replica may hold at once. */
  readonly cap: number;
  /** The concurrency a shard's worker is created with. */
  limitOf(shard: number): number;
  /** A job of the shard reached the processor (it is held until `finished`). */
  started(shard: number): void;
  finished(shard: number): void;
  /** Jobs held now (started, not finished). */
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

  return {
    cap,
    limitOf: (shard) => limit[shard] ?? 1,
    started(shard) {
      held[shard] = (held[shard] ?? 0) + 1;
      grow();
    },
    finished(shard) {
      const now = Math.max(0, (held[shard] ?? 0) - 1);
      held[shard] = now;
      // The place goes back to the pool; it is handed out again in turn (this worker included).
      if ((limit[shard] ?? 1) > Math.max(1, now)) set(shard, Math.max(1, now));
      grow();
    },
    held: () => held.reduce((sum, n) => sum + n, 0),
  };
}
