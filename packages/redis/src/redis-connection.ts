import { Redis, type RedisOptions } from 'ioredis';

export interface RedisConnectionOptions {
  /** Shown in CLIENT LIST, helps operators see who is connected. */
  name: string;
  /** Upper bound of one command, so a hung server turns into a 503 instead of a hung request. */
  commandTimeoutMs?: number;
}

const retryStrategy = (times: number): number => Math.min(50 * 2 ** Math.min(times, 6), 2000);

/**
 * A connection for request handling (the API, the CLI): it fails fast while Redis is away
 * (no offline queue, one retry at most) so the caller answers 503 at once, and it keeps
 * reconnecting in the background. Commands issued in the same tick share one round trip.
 */
export function createRequestRedis(url: string, options: RedisConnectionOptions): Redis {
  const config: RedisOptions = {
    connectionName: options.name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: 2000,
    retryStrategy,
  };
  return new Redis(url, config);
}

/** A connection for BullMQ workers and blocking commands: it waits for Redis instead of failing. */
export function createWorkerRedis(url: string, options: RedisConnectionOptions): Redis {
  return new Redis(url, {
    connectionName: options.name,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy,
  });
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
