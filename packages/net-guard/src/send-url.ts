import { SEND_URL_MAX_CHARS } from '@dialog-relay/contracts';
import { forbiddenAddressReason, describeForbiddenAddress, type AddressPolicy } from './address-policy.js';
import { literalAddress, systemResolver, type LookupAddress, type Resolver } from './resolver.js';

export const DEFAULT_RESOLVE_TIMEOUT_MS = 3000;

export type SendUrlVerdict = { ok: true; url: URL; addresses: LookupAddress[] } | { ok: false; reason: string };

export interface CheckSendUrlOptions {
  resolve?: Resolver;
  timeoutMs?: number;
  /** The checks that need no DNS (default checkSendUrlStatically; the API's: rememberingStaticCheck). */
  checkStatically?: (raw: string, policy: AddressPolicy) => StaticSendUrlVerdict;
}

const refuse = (reason: string): SendUrlVerdict => ({ ok: false, reason });

/** The verdict of the checks that need no DNS (see checkSendUrlStatically). */
export type StaticSendUrlVerdict =
  | { ok: true; url: URL; literal: LookupAddress | undefined }
  | { ok: false; problem: 'invalid'; reason: string }
  | { ok: false; problem: 'forbidden'; range: string; reason: string };

/**
 * The part of the send_url check that needs no DNS: a usable absolute http(s) URL, and for an
 * IP-literal host the address policy. Used at accept time before resolving, and by the deliverer
 * before connecting (node does not call the guarded lookup for IP literals).
 */
export function checkSendUrlStatically(raw: string, policy: AddressPolicy): StaticSendUrlVerdict {
  const invalid = (reason: string): StaticSendUrlVerdict => ({ ok: false, problem: 'invalid', reason });
  if (typeof raw !== 'string' || raw.length === 0) return invalid('send_url must be a non-empty string');
  if (raw.length > SEND_URL_MAX_CHARS) return invalid(`send_url must be at most ${SEND_URL_MAX_CHARS} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return invalid('send_url must be a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return invalid('send_url must use http or https');
  if (url.hostname === '') return invalid('send_url must have a host');
  const literal = literalAddress(url.hostname);
  const range = literal ? forbiddenAddressReason(literal.address, policy) : null;
  if (literal && range !== null)
    return { ok: false, problem: 'forbidden', range, reason: describeForbiddenAddress(literal.address, range) };
  return { ok: true, url, literal };
}

/** send_url texts whose static verdict is remembered, per policy; past it all are forgotten at once. */
const STATIC_VERDICTS_REMEMBERED = 1_000;
/** A longer send_url is checked each time and not kept: remembered texts stay small. */
const STATIC_VERDICT_MAX_CHARS = 512;

/**
 * checkSendUrlStatically remembered per send_url text and policy, for the accept-time check: an
 * integrator sends every message with the same send_url, and parsing it (the WHATWG URL parser, an
 * IP literal's range) was about 3 % of an accept's CPU (docs/design/performance.md). The verdict
 * depends on the text and the policy alone; up to 1,000 texts of at most 512 characters are kept
 * per policy, then forgotten at once, so random URLs cannot grow memory. The deliverer does not use
 * it: it checks each URL again before it connects.
 */
/**
 * The policy's settings the remembered verdicts are kept apart by: a setting added to AddressPolicy
 * fails to compile here until rememberingStaticCheck keeps its verdicts apart by it too.
 */
const KEPT_APART_BY: Readonly<Record<keyof AddressPolicy, true>> = { allowPrivate: true };

export function rememberingStaticCheck(): (raw: string, policy: AddressPolicy) => StaticSendUrlVerdict {
  // one map per value of the policy's one setting (KEPT_APART_BY)
  void KEPT_APART_BY;
  const strict = new Map<string, StaticSendUrlVerdict>();
  const lenient = new Map<string, StaticSendUrlVerdict>();
  return (raw, policy) => {
    const known = policy.allowPrivate ? lenient : strict;
    let verdict = known.get(raw);
    if (verdict === undefined) {
      verdict = checkSendUrlStatically(raw, policy);
      if (typeof raw === 'string' && raw.length <= STATIC_VERDICT_MAX_CHARS) {
        if (known.size >= STATIC_VERDICTS_REMEMBERED) known.clear();
        known.set(raw, verdict);
      }
    }
    return verdict;
  };
}

/** Accept-time check of a caller-supplied send_url; every resolved address must pass the policy. */
export async function checkSendUrl(raw: string, policy: AddressPolicy, options: CheckSendUrlOptions = {}): Promise<SendUrlVerdict> {
  const checked = (options.checkStatically ?? checkSendUrlStatically)(raw, policy);
  if (!checked.ok) return refuse(checked.reason);
  const { url, literal } = checked;
  if (literal) return { ok: true, url, addresses: [literal] };
  const resolved = await resolveWithin(url.hostname, options.resolve ?? systemResolver, options.timeoutMs);
  if (typeof resolved === 'string') return refuse(resolved);
  for (const { address } of resolved) {
    const why = forbiddenAddressReason(address, policy);
    if (why !== null) return refuse(describeForbiddenAddress(address, why));
  }
  return { ok: true, url, addresses: resolved };
}

/** The resolver's addresses, or an English reason when it fails, answers nothing or is too slow. */
async function resolveWithin(
  hostname: string,
  resolve: Resolver,
  timeoutMs = DEFAULT_RESOLVE_TIMEOUT_MS,
): Promise<LookupAddress[] | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((done) => {
    timer = setTimeout(() => done(`send_url host ${hostname} did not resolve within ${timeoutMs} ms`), timeoutMs);
  });
  const lookup = Promise.resolve(hostname)
    .then(resolve)
    .then(
      (found) => (found.length > 0 ? found : `send_url host ${hostname} does not resolve`),
      () => `send_url host ${hostname} does not resolve`,
    );
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
