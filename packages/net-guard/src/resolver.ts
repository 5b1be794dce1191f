import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';

export type LookupAddress = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** dns.promises.lookup(host, { all: true, verbatim: true }), i.e. what the OS resolver (and http) would use. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await dnsPromises.lookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** URL hostnames carry IPv6 literals in brackets; strip them. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** The address itself when the host is an IP literal (no DNS), else undefined. */
export function literalAddress(hostname: string): LookupAddress | undefined {
  const host = unbracket(hostname);
  const family = isIP(host);
  return family === 4 || family === 6 ? { address: host, family } : undefined;
}
