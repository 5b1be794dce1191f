import type { LookupAddress as DnsLookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describeForbiddenAddress, forbiddenAddressReason, type AddressPolicy } from './address-policy.js';
import { literalAddress, systemResolver, type LookupAddress, type Resolver } from './resolver.js';

export const SEND_URL_FORBIDDEN = 'ESENDURLFORBIDDEN';

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string | DnsLookupAddress[], family?: number) => void;

/**
 * Connect-time guard: a drop-in for node's dns.lookup (callback style, honouring
 * options.all and options.family; also callable as lookup(host, cb) or
 * lookup(host, family, cb)). It resolves with the given resolver, checks EVERY answer
 * against the policy and fails with an Error whose `code` is 'ESENDURLFORBIDDEN' if any
 * is forbidden, so the socket only ever connects to checked addresses (DNS rebinding).
 *
 * Typed as net's LookupFunction (what http.Agent / http.request / net.connect accept):
 * `typeof dns.lookup` also carries the `__promisify__` member and five overloads.
 * Note: node skips `lookup` entirely when the host is an IP literal, so literals rely on
 * checkSendUrl (they cannot rebind).
 */
export function createGuardedLookup(policy: AddressPolicy, options: { resolve?: Resolver } = {}): LookupFunction {
  const resolve = options.resolve ?? systemResolver;
  const guarded = (hostname: string, optionsOrCallback: unknown, maybeCallback?: unknown): void => {
    const callback = (typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback) as LookupCallback;
    const lookupOptions = normaliseOptions(optionsOrCallback);
    checkedAddresses(hostname, policy, resolve, lookupOptions).then(
      (found) => {
        const first = found[0];
        if (lookupOptions.all === true) process.nextTick(callback, null, found);
        else if (first) process.nextTick(callback, null, first.address, first.family);
      },
      (err: unknown) => process.nextTick(callback, toError(err, hostname)),
    );
  };
  return guarded;
}

function normaliseOptions(value: unknown): LookupOptions {
  if (typeof value === 'number') return { family: value };
  return typeof value === 'object' && value !== null ? value : {};
}

async function checkedAddresses(
  hostname: string,
  policy: AddressPolicy,
  resolve: Resolver,
  options: LookupOptions,
): Promise<LookupAddress[]> {
  const literal = literalAddress(hostname);
  const found = literal ? [literal] : await resolve(hostname);
  for (const { address } of found) {
    const why = forbiddenAddressReason(address, policy);
    if (why !== null) {
      throw Object.assign(new Error(`${describeForbiddenAddress(address, why)} (host ${hostname})`), {
        code: SEND_URL_FORBIDDEN,
        hostname,
        address,
        reason: why,
      });
    }
  }
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
  const usable = family === 4 || family === 6 ? found.filter((entry) => entry.family === family) : found;
  if (usable.length === 0) throw notFound(hostname);
  return usable;
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}

function toError(err: unknown, hostname: string): NodeJS.ErrnoException {
  return err instanceof Error ? err : notFound(hostname);
}
