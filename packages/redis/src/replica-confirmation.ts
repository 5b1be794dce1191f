import { Redis as SingleRedis } from 'ioredis';
import { waitForRedis, type Redis } from './redis-connection.js';

/** Fewer replicas than asked confirmed a request's writes within the wait: the request must not be acknowledged. */
export class ReplicationLagError extends Error {
  constructor(
    readonly confirmed: number,
    readonly wanted: number,
    readonly timeoutMs: number,
    detail = 'confirmed the writes',
  ) {
    super(`only ${confirmed} of ${wanted} replica(s) ${detail} within ${timeoutMs} ms (WAIT)`);
    this.name = 'ReplicationLagError';
  }
}

/**
 * The request's writes and its fence did not provably reach the same master: the writing connection
 * or the fence's connection reconnected in between, or they are connected to different servers (two
 * masters for a moment in a failover). The writes may be on a master about to be demoted, so the
 * request must not be acknowledged.
 */
export class MasterChangedError extends Error {
  constructor(detail: string) {
    super(`the master changed while the request wrote (${detail}): its writes are not confirmed`);
    this.name = 'MasterChangedError';
  }
}

/** One request's confirmation, started before its first write. */
export interface PendingConfirmation {
  /**
   * Resolves once `replicas` replicas hold every write the writer connection had acknowledged when
   * it is called, made since begin(); rejects with ReplicationLagError or MasterChangedError otherwise.
   */
  confirm(): Promise<void>;
}

export interface ReplicaConfirmation {
  /** Call before the request's writes; call confirm() of the result once they were acknowledged. */
  begin(): PendingConfirmation;
  close(): void;
}

export interface ReplicaConfirmationOptions {
  /** The connection every write of a request goes over (the API's shared one). */
  writer: Redis;
  /** Opens one connection of the pool (the request role, with a command time-out above timeoutMs). */
  open: (name: string) => Redis;
  /** A key of no meaning that each confirmation increments: its write is what WAIT counts. */
  fenceKey: string;
  replicas: number;
  /** How long WAIT may block, and how long a request may wait for a free connection of the pool. */
  timeoutMs: number;
  /** Confirmations that may wait at once; more queue for a free connection. */
  poolSize?: number;
}

/** What a connection is connected to, renewed on every (re)connect: a changed object means a new session. */
interface Session {
  readonly endpoint: string;
}

/**
 * WAIT on connections of its own (docs/design/scaling.md "Replicas before the 202"). WAIT blocks its
 * connection and counts only the replication offset of that connection's own last write, so:
 * - it must not run on a shared connection (every other command would queue behind it), and
 * - a WAIT alone on a fresh connection confirms nothing (that connection wrote nothing).
 * Each confirmation therefore writes a fence (INCR) and WAITs in one round trip on a pooled
 * connection. Redis applies commands one at a time and replicates them in that order, so the fence,
 * sent after the request's writes were acknowledged, lies after all of them in the replication
 * stream, provided it went to the same master: the confirmation checks that the writer and the fence
 * connection are connected to the same address and that neither reconnected from begin() to the
 * WAIT's answer. (A master demoted in between answers the fence's INCR with READONLY.) Single master
 * only (refused on a cluster in config).
 */
export function createReplicaConfirmation(options: ReplicaConfirmationOptions): ReplicaConfirmation {
  const poolSize = options.poolSize ?? 16;
  const all: Redis[] = [];
  const idle: Redis[] = [];
  const queued: ((connection: Redis) => void)[] = [];
  const sessions = new Map<Redis, Session | undefined>();
  let closed = false;

  const track = (connection: Redis): void => {
    if (!(connection instanceof SingleRedis)) throw new Error('replica confirmation needs a single master, not a cluster');
    const renew = (): void => {
      const stream = connection.status === 'ready' ? connection.stream : undefined;
      sessions.set(connection, stream ? { endpoint: `${stream.remoteAddress ?? '?'}:${stream.remotePort ?? '?'}` } : undefined);
    };
    connection.on('ready', renew);
    connection.on('close', () => sessions.set(connection, undefined));
    renew();
  };
  track(options.writer);

  const acquire = async (): Promise<Redis> => {
    const free = idle.pop();
    if (free) return free;
    if (all.length < poolSize) {
      const connection = options.open(`dialog-relay-replica-wait-${all.length + 1}`);
      track(connection);
      all.push(connection);
      return connection;
    }
    // Bounded: a request does not queue behind blocked WAITs for longer than one WAIT may take.
    return new Promise((resolve, reject) => {
      const take = (connection: Redis): void => {
        clearTimeout(timer);
        resolve(connection);
      };
      const timer = setTimeout(() => {
        queued.splice(queued.indexOf(take), 1);
        reject(new ReplicationLagError(0, options.replicas, options.timeoutMs, 'could be asked (no free connection to WAIT on)'));
      }, options.timeoutMs);
      queued.push(take);
    });
  };
  const release = (connection: Redis): void => {
    const next = queued.shift();
    if (next) next(connection);
    else idle.push(connection);
  };

  return {
    begin() {
      const written = sessions.get(options.writer);
      return {
        async confirm() {
          if (closed) throw new Error('replica confirmation closed');
          if (written === undefined || sessions.get(options.writer) !== written)
            throw new MasterChangedError('the writing connection reconnected');
          const connection = await acquire();
          try {
            if (connection.status !== 'ready') await waitForRedis(connection, 2000);
            const fenced = sessions.get(connection);
            const results = await connection.pipeline().incr(options.fenceKey).wait(options.replicas, options.timeoutMs).exec();
            for (const [error] of results ?? []) if (error) throw error;
            const confirmed = Number(results?.[1]?.[1]);
            if (!(confirmed >= options.replicas))
              throw new ReplicationLagError(Number.isFinite(confirmed) ? confirmed : 0, options.replicas, options.timeoutMs);
            if (sessions.get(options.writer) !== written) throw new MasterChangedError('the writing connection reconnected');
            if (fenced === undefined || sessions.get(connection) !== fenced)
              throw new MasterChangedError('the fence connection reconnected');
            if (fenced.endpoint !== written.endpoint)
              throw new MasterChangedError(`writes on ${written.endpoint}, fence on ${fenced.endpoint}`);
          } finally {
            release(connection);
          }
        },
      };
    },
    close() {
      closed = true;
      for (const connection of all) connection.disconnect();
    },
  };
}
