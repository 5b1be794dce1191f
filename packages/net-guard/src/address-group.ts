import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The network a caller is counted under by per-address limits (docs/service-rules.md §16): an IPv4 address
 * itself (also when written IPv4-mapped), an IPv6 address's /64, since one host usually holds a
 * whole /64 and could otherwise take a fresh address for every try. Anything else is returned as is.
 */
export function addressGroup(address: string): string {
  const plain = address.replace(/%.*$/, '');
  if (isIP(plain) === 0) return address;
  const parsed = ipaddr.process(plain);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
