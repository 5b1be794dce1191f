import { waitForRedis, type Redis } from './redis-connection.js';

/** Fewer replicas than asked confirmed a request's writes within the wait: the request must not be acknowledged. */
export class ReplicationLagError extends Error {
  constructor(readonly confirmed: number, readonly wanted: number, readonly timeoutMs: number) {
    super(`only ${confirmed} of ${wanted} replica(s) confirmed the writes within ${timeoutMs} ms (WAIT)`);
    this.name = 'ReplicationLagError';
  }
}

export interface ReplicaConfirmation {
  /**
   * Resolves once `replicas` replicas hold every write the master had already acknowledged to this
   * process when the call was made; rejects with ReplicationLagError when fewer confirm in time.
   */
  confirm(): Promise<void>;
  close(): void;
}

export interface ReplicaConfirmationOptions {
  /** Opens one connection of the pool (the request role, with a command time-out above timeoutMs). */
  open: (name: string) => Redis;
  /** A key of no meaning that each confirmation increments: its write is what WAIT counts. */
  fenceKey: string;
  replicas: number;
  timeoutMs: number;
  /** Confirmations that may wait at once; more queue for a free connection. */
  poolSize?: number;
}

/**
 * WAIT on connections of its own (docs/scaling.md "Replicas before the 202"). WAIT blocks its
 * connection and counts only the replication offset of that connection's own last write, so:
 * - it must not run on a shared connection (every other command would queue behind it), and
 * - a WAIT alone on a fresh connection confirms nothing (that connection wrote nothing).
 * Each confirmation therefore writes a fence (INCR) and WAITs in one round trip on a pooled
 * connection. Redis applies commands one at a time and replicates them in that order, so the fence,
 * sent after the request's writes were acknowledged, lies after all of them in the replication
 * stream: a replica that has the fence has them too. Single master only (refused on a cluster in config).
 */
export function createReplicaConfirmation(options: ReplicaConfirmationOptions): ReplicaConfirmation {
  const poolSize = options.poolSize ?? 16;
  const all: Redis[] = [];
  const idle: Redis[] = [];
  const queued: ((connection: Redis) => void)[] = [];
  let closed = false;

  const acquire = async (): Promise<Redis> => {
    const free = idle.pop();
    if (free) return free;
    if (all.length < poolSize) {
      const connection = options.open(`dialog-relay-replica-wait-${all.length + 1}`);
      all.push(connection);
      return connection;
    }
    return new Promise((resolve) => queued.push(resolve));
  };
  const release = (connection: Redis): void => {
    const next = queued.shift();
    if (next) next(connection);
    else idle.push(connection);
  };

  return {
    async confirm() {
      if (closed) throw new Error('replica confirmation closed');
      const connection = await acquire();
      try {
        if (connection.status !== 'ready') await waitForRedis(connection, 2000);
        const results = await connection.pipeline().incr(options.fenceKey).wait(options.replicas, options.timeoutMs).exec();
        for (const [error] of results ?? []) if (error) throw error;
        const confirmed = Number(results?.[1]?.[1] ?? 0);
        if (confirmed < options.replicas) throw new ReplicationLagError(confirmed, options.replicas, options.timeoutMs);
      } finally {
        release(connection);
      }
    },
    close() {
      closed = true;
      for (const connection of all) connection.disconnect();
    },
  };
}
