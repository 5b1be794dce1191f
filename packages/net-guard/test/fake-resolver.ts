import type { LookupAddress, Resolver } from '../src/index.js';

const familyOf = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

/** A deterministic resolver: hostname -> fixed addresses; unknown names fail like ENOTFOUND. */
export function fakeResolver(table: Record<string, string[]>): Resolver {
  return (hostname) => {
    const addresses = table[hostname];
    if (!addresses) {
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    }
    return Promise.resolve(addresses.map((address): LookupAddress => ({ address, family: familyOf(address) })));
  };
}

/** Answers each call with the next list (the last one repeats): a DNS-rebinding attacker. */
export function sequenceResolver(...answers: string[][]): Resolver & { calls: number } {
  const resolver = Object.assign(
    (): Promise<LookupAddress[]> => {
      const answer = answers[Math.min(resolver.calls, answers.length - 1)] ?? [];
      resolver.calls += 1;
      return Promise.resolve(answer.map((address) => ({ address, family: familyOf(address) })));
    },
    { calls: 0 },
  );
  return resolver;
}
