import { parseClientRecord, toClientRecord, type ClientSettings } from '@dialog-relay/config';
import type { Redis, RedisKeys } from '@dialog-relay/redis';

/**
 * Clients kept in Redis (written by the admin CLI): one hash, client id -> JSON record in the
 * snake_case form of CLIENTS. One HGET per lookup.
 */
export interface ClientStore {
  get(id: string): Promise<ClientSettings | undefined>;
  put(settings: ClientSettings): Promise<void>;
  remove(id: string): Promise<boolean>;
  list(): Promise<ClientSettings[]>;
}

export function createClientStore(deps: { redis: Redis; keys: RedisKeys; defaultRateLimitPerS: number }): ClientStore {
  const { redis, keys, defaultRateLimitPerS } = deps;
  const parse = (id: string, json: string): ClientSettings => parseClientRecord(id, JSON.parse(json), defaultRateLimitPerS);
  return {
    async get(id) {
      const json = await redis.hget(keys.clients, id);
      return json === null ? undefined : parse(id, json);
    },
    async put(settings) {
      await redis.hset(keys.clients, settings.id, JSON.stringify(toClientRecord(settings)));
    },
    async remove(id) {
      return (await redis.hdel(keys.clients, id)) === 1;
    },
    async list() {
      const all = await redis.hgetall(keys.clients);
      return Object.entries(all)
        .map(([id, json]) => parse(id, json))
        .sort((a, b) => a.id.localeCompare(b.id));
    },
  };
}
