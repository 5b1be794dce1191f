import type { RedisConfig } from '@dialog-relay/config';
import { Cluster, Redis as SingleRedis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { installLeanCommandPromise } from './command-promise.js';
import { installLeanCommandWritable } from './command-writable.js';
import { installLeanScriptCommand } from './script-command.js';
import { coalesceWrites } from './coalesced-writes.js';
import { enforceCommandDeadlines } from './command-deadlines.js';

/** A connection to whichever Redis the configuration names: one server, Sentinel, or a cluster. */
export type Redis = SingleRedis | Cluster;

/**
 * What a connection is for:
 * - `request` (the API, the CLI): fails fast while Redis is away (no offline queue, one retry at
 *   most) so the caller answers 503 at once.
 * - `worker` (BullMQ, blocking commands): waits for Redis instead of failing (maxRetriesPerRequest null).
 * - `subscriber` (pub/sub signals): waits and resubscribes after a reconnect.
 */
export type ConnectionRole = 'request' | 'worker' | 'subscriber';

export interface RedisConnectionOptions {
  /** Shown in CLIENT LIST, helps operators see who is connected. */
  name: string;
  /**
   * Upper bound of one command (request role, default 2,000), so a hung server turns into a 503
   * instead of a hung request: a command fails within this bound plus two eighths of it
   * (command-deadlines.ts).
   */
  commandTimeoutMs?: number;
  /**
   * Commands issued in one tick share one write and one round trip (ioredis auto-pipelining): off
   * unless asked, and the service asks for it nowhere. Each batch is an ioredis Pipeline that
   * defines an accessor on itself (`length`), and V8 allocates an accessor's pair in the old
   * generation: every batch, its commands and their callers' objects then outlive the scavenges
   * until a full collection. On the API's and the worker's connections that was most of what their
   * scavenges promoted, and turning it off cost no CPU per request or reply
   * (docs/design/performance-log.md, twelfth session). Only for connections that never block and on
   * which no script is defined: not for BullMQ's (assertNoDefinedScripts). Kept as an opt-in for the
   * tests that show the cost (packages/redis/test/command-promise.test.ts). What the request role
   * has instead is `coalesceWrites`: the same one write per turn, without a Pipeline per batch.
   */
  autoPipelining?: boolean;
  /**
   * The commands of one event-loop turn leave in one write (coalesced-writes.ts). Default: on for
   * the request role (the API, where it took 5-17 % off the CPU per request), off for the others
   * (the worker's replies measured no gain: its commands follow answers that arrive one by one).
   */
  coalesceWrites?: boolean;
  /** A worker-role connection for the reply protocol's own commands, not one BullMQ takes (it keeps the cluster's ready check). */
  commands?: boolean;
}

/** The worker connection BullMQ takes (and duplicates for its blocking commands): not the commands one. */
const isBullConnection = (role: ConnectionRole, options: RedisConnectionOptions): boolean => role === 'worker' && options.commands !== true;

const retryStrategy = (times: number): number => Math.min(50 * 2 ** Math.min(times, 6), 2000);

function roleOptions(role: ConnectionRole, options: RedisConnectionOptions): RedisOptions {
  switch (role) {
    case 'request':
      return {
        connectionName: options.name,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        enableAutoPipelining: options.autoPipelining === true,
        connectTimeout: 2000,
        retryStrategy,
      };
    case 'worker':
    case 'subscriber':
      return {
        connectionName: options.name,
        maxRetriesPerRequest: null,
        enableReadyCheck: true,
        retryStrategy,
        ...(role === 'worker' && options.autoPipelining === true ? { enableAutoPipelining: true } : {}),
      };
  }
}

/**
 * Opens a pub/sub connection named `name` (CLIENT LIST) when called: what createReplyServices'
 * `openSubscriber` wants. Its errors are left to ioredis's reconnection, not reported.
 */
export const subscriberOpener =
  (config: Pick<RedisConfig, 'target' | 'password' | 'tls'>, name: string): (() => Redis) =>
  () => {
    const subscriber = createRedis(config, 'subscriber', { name });
    subscriber.on('error', () => undefined);
    return subscriber;
  };

/**
 * An auto-pipelined batch is an ioredis Pipeline, and each Pipeline copies every script defined on
 * its connection (defineCommand; BullMQ defines 64 on a connection it is given): 2-3 us per batch
 * without, 26-28 us with BullMQ's, paid by every command when the load is light enough for one per
 * batch. Our scripts run through EVALSHA (lua-script.ts); a library that defines scripts gets a
 * connection of its own without auto-pipelining (the API's queues, the worker's BullMQ connection).
 */
function assertNoDefinedScripts(redis: Redis): Redis {
  redis.defineCommand = (name: string): never => {
    throw new Error(
      `${name}: a script defined on an auto-pipelined connection is copied into every batch; give its library a connection of its own without auto-pipelining`,
    );
  };
  return redis;
}

/** The one factory: the right ioredis client for the configured mode, with the options the role needs. */
export function createRedis(
  config: Pick<RedisConfig, 'target' | 'password' | 'tls'>,
  role: ConnectionRole,
  options: RedisConnectionOptions,
): Redis {
  // Every connection's commands, BullMQ's included, are built and spelled by the one Command class
  // (command-promise.ts, command-writable.ts), and every defined script's (BullMQ's) by the one Script (script-command.ts).
  installLeanCommandPromise();
  installLeanCommandWritable();
  installLeanScriptCommand();
  const redis = connect(config, role, options);
  // ioredis's commandTimeout, at one timer per connection instead of one per command (command-deadlines.ts).
  if (role === 'request') enforceCommandDeadlines(redis, options.commandTimeoutMs ?? 2000);
  if (options.coalesceWrites ?? role === 'request') coalesceWrites(redis);
  return redis.options.enableAutoPipelining === true ? assertNoDefinedScripts(redis) : redis;
}

function connect(config: Pick<RedisConfig, 'target' | 'password' | 'tls'>, role: ConnectionRole, options: RedisConnectionOptions): Redis {
  const base: RedisOptions = {
    ...roleOptions(role, options),
    // RESP2, as ioredis 5 spoke: ioredis 6 defaults to RESP3 (a HELLO round trip per connection and
    // pub/sub as push frames) and nothing here uses a RESP3-only type. The hostile-reply hardening of
    // ioredis 6 is its decoder's, which parses both (docs/dependencies.md).
    protocol: 2,
    ...(config.password !== undefined ? { password: config.password } : {}),
    ...(config.tls ? { tls: {} } : {}),
  };
  const { target } = config;
  switch (target.mode) {
    case 'single':
      return new SingleRedis(target.url, base);
    case 'sentinel':
      return new SingleRedis({
        ...base,
        sentinels: target.sentinels.map((n) => ({ host: n.host, port: n.port })),
        name: target.name,
        ...(config.password !== undefined ? { sentinelPassword: config.password } : {}),
        // ioredis speaks plain text to the master a sentinel names unless told, and to the sentinels
        // themselves unless given sentinelTLS.
        ...(config.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
        // After a failover the old master may answer READONLY for a moment: reconnect to the new one.
        reconnectOnError: (error) => error.message.startsWith('READONLY'),
      });
    case 'cluster': {
      const { enableOfflineQueue, enableAutoPipelining, ...redisOptions } = base;
      const clusterOptions: ClusterOptions = {
        redisOptions,
        clusterRetryStrategy: retryStrategy,
        // A request connection is usable as soon as the slots are known: with the ready check, BullMQ
        // (which treats a cluster's 'connect' as ready) would send its first commands into the gap and
        // fail them for good, as the offline queue is off. BullMQ's own connection goes without it too:
        // ioredis's connect() never settles when the ready check fails (the cluster is still down), and
        // BullMQ awaits connect() when it resets its blocking connection after a BZPOPMIN hung (a master
        // killed or stalled): the replica would stop taking jobs for good (docs/design/scaling.md).
        enableReadyCheck: role !== 'request' && !isBullConnection(role, options),
        ...(enableOfflineQueue === false ? { enableOfflineQueue: false } : {}),
        ...(enableAutoPipelining ? { enableAutoPipelining: true } : {}),
        ...(role === 'request' ? {} : { maxRedirections: 64 }),
      };
      return new Cluster(
        target.nodes.map((n) => ({ host: n.host, port: n.port })),
        clusterOptions,
      );
    }
  }
}

/** @deprecated for tests and scripts that know a single server's URL; services use createRedis. */
export function createRequestRedis(url: string, options: RedisConnectionOptions): Redis {
  return createRedis({ target: { mode: 'single', url }, password: undefined, tls: false }, 'request', options);
}

/** Resolves once the connection is ready, or rejects after timeoutMs. */
export async function waitForRedis(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = (): void => {
      cleanup();
      resolve();
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}
