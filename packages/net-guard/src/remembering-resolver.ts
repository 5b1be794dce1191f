import type { LookupAddress, Resolver } from './resolver.js';

/** How long the accept-time check remembers a send_url host's addresses (docs/service-rules.md §4). */
const SEND_URL_HOST_MEMORY_MS = 30_000;

/** Host names remembered at most; past it all are forgotten at once (random names cannot grow memory). */
const SEND_URL_HOSTS_REMEMBERED = 1_000;

export interface RememberingOptions {
  memoryMs?: number;
  maxHosts?: number;
  now?: () => number;
}

/**
 * A resolver that remembers each host's addresses for `memoryMs`, for the check of a send_url when a
 * message is accepted: an integrator sends every message to the same host, and looking it up for
 * each one costs a resolver call (with a cluster's search domains, several DNS queries) for the same
 * answer. Lookups of one host under way at once share one call. A failed lookup or an empty answer
 * is not remembered. It gives addresses only: the caller checks them against its own policy on every
 * call. The worker does not use it: it resolves again when it connects and connects to the address it
 * checked (guarded-lookup.ts), so a remembered answer never decides where a delivery goes.
 */
export function rememberingResolver(resolve: Resolver, options: RememberingOptions = {}): Resolver {
  const memoryMs = options.memoryMs ?? SEND_URL_HOST_MEMORY_MS;
  const maxHosts = options.maxHosts ?? SEND_URL_HOSTS_REMEMBERED;
  const now = options.now ?? Date.now;
  const remembered = new Map<string, { addresses: readonly LookupAddress[]; until: number }>();
  const underWay = new Map<string, Promise<LookupAddress[]>>();
  return (hostname) => {
    const known = remembered.get(hostname);
    if (known !== undefined && known.until > now()) return Promise.resolve([...known.addresses]);
    let lookup = underWay.get(hostname);
    if (lookup === undefined) {
      lookup = resolve(hostname)
        .then((addresses) => {
          if (addresses.length > 0) {
            if (remembered.size >= maxHosts) remembered.clear();
            remembered.set(hostname, { addresses: [...addresses], until: now() + memoryMs });
          }
          return addresses;
        })
        .finally(() => underWay.delete(hostname));
      underWay.set(hostname, lookup);
    }
    return lookup.then((addresses) => [...addresses]);
  };
}
