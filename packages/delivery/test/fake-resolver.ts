import type { LookupAddress, Resolver } from '@dialog-relay/net-guard';

/** hostname -> fixed addresses; unknown names fail like ENOTFOUND. */
export function fakeResolver(table: Record<string, string[]>): Resolver {
  return (hostname) => {
    const addresses = table[hostname];
    if (!addresses) {
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    }
    return Promise.resolve(addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
}
