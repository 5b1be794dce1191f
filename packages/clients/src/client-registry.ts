import type { ClientSettings } from '@dialog-relay/config';
import type { ClientStore } from './client-store.js';

/** Looks a client up: CLIENTS from the environment first, then the Redis store (cached for cacheMs). */
export interface ClientRegistry {
  get(id: string): Promise<ClientSettings | undefined>;
}

interface CacheEntry {
  settings: ClientSettings | undefined;
  expiresAt: number;
}

/** Bound on cached ids, so random unknown client ids cannot grow memory without limit. */
const MAX_CACHED = 10_000;

export function createClientRegistry(deps: {
  fromEnv: ReadonlyMap<string, ClientSettings>;
  store: ClientStore;
  cacheMs: number;
  now?: () => number;
}): ClientRegistry {
  const { fromEnv, store, cacheMs } = deps;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, CacheEntry>();
  return {
    async get(id) {
      const configured = fromEnv.get(id);
      if (configured) return configured;
      const hit = cache.get(id);
      if (hit && hit.expiresAt > now()) return hit.settings;
      const settings = await store.get(id);
      if (cacheMs > 0) {
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(id, { settings, expiresAt: now() + cacheMs });
      }
      return settings;
    },
  };
}
