import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Operator policy for outbound targets. `allowPrivate` (tests, local demos, private networks) opens
 * loopback and private ranges only: link-local, cloud metadata, multicast, broadcast, unspecified
 * and the other special ranges stay closed (docs/service-rules.md §16).
 */
export interface AddressPolicy {
  allowPrivate: boolean;
}

/** The ranges allowPrivate opens (ipaddr.js names): 127/8 and ::1, RFC 1918, fc00::/7. */
const OPENED_BY_ALLOW_PRIVATE: ReadonlySet<string> = new Set(['loopback', 'private', 'uniqueLocal']);

/** Cloud metadata services; never opened by allowPrivate (fd00:ec2::254 lies in the opened fc00::/7). */
const METADATA_ADDRESSES: ReadonlySet<string> = new Set(['fd00:ec2::254', '100.100.100.200', '169.254.169.254', '169.254.170.2']);

/**
 * null when the address may be contacted, else a short name of why not
 * ("loopback", "private", "linkLocal", "carrierGradeNat", "uniqueLocal", ...).
 * Conservative: after unwrapping IPv4-mapped IPv6 (ipaddr.process), anything whose
 * ipaddr.js range is not 'unicast' is forbidden, which also covers 6to4, Teredo and
 * NAT64 (rfc6052) embeddings. Strings that are not a plain IP address are "invalid",
 * whatever the policy.
 */
export function forbiddenAddressReason(address: string, policy: AddressPolicy): string | null {
  // net.isIP is strict (no "127.1" or "0x7f.1" shorthand, which ipaddr.js would accept).
  if (typeof address !== 'string' || isIP(address) === 0) return 'invalid';
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return 'invalid';
  }
  const range: string = parsed.range();
  if (range !== 'unicast') {
    const opened = policy.allowPrivate && OPENED_BY_ALLOW_PRIVATE.has(range) && !METADATA_ADDRESSES.has(parsed.toString());
    return opened ? null : range;
  }
  // Deprecated IPv4-compatible ::a.b.c.d (::/96); ipaddr.js calls e.g. ::7f00:1 'unicast'.
  if (
    parsed.kind() === 'ipv6' &&
    parsed
      .toByteArray()
      .slice(0, 12)
      .every((byte) => byte === 0)
  ) {
    return 'ipv4Compatible';
  }
  return null;
}

const PHRASES: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  linkLocal: 'a link-local',
  carrierGradeNat: 'a carrier-grade NAT',
  uniqueLocal: 'a unique-local',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  reserved: 'a reserved',
  invalid: 'an invalid',
};

/** Integrator-facing English: 'send_url resolves to a loopback address (127.0.0.1)'. */
export function describeForbiddenAddress(address: string, reason: string): string {
  const phrase = PHRASES[reason] ?? `a non-public (${reason})`;
  return `send_url resolves to ${phrase} address (${address})`;
}
