import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface LuaScript {
  run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

/** A Lua script sent by its SHA (EVALSHA), and in full only when the server does not know it yet. */
export function defineScript(source: string): LuaScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return {
    async run(redis, keys, args) {
      try {
        return await redis.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return redis.eval(source, keys.length, ...keys, ...args);
        throw error;
      }
    },
  };
}
