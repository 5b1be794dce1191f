import { forbiddenAddressReason, describeForbiddenAddress, type AddressPolicy } from './address-policy.js';
import { literalAddress, systemResolver, type LookupAddress, type Resolver } from './resolver.js';

export const MAX_SEND_URL_LENGTH = 2048;
export const DEFAULT_RESOLVE_TIMEOUT_MS = 3000;

export type SendUrlVerdict = { ok: true; url: URL; addresses: LookupAddress[] } | { ok: false; reason: string };

export interface CheckSendUrlOptions {
  resolve?: Resolver;
  timeoutMs?: number;
}

const refuse = (reason: string): SendUrlVerdict => ({ ok: false, reason });

/** Accept-time check of a caller-supplied send_url; every resolved address must pass the policy. */
export async function checkSendUrl(
  raw: string,
  policy: AddressPolicy,
  options: CheckSendUrlOptions = {},
): Promise<SendUrlVerdict> {
  if (typeof raw !== 'string' || raw.length === 0) return refuse('send_url must be a non-empty string');
  if (raw.length > MAX_SEND_URL_LENGTH) {
    return refuse(`send_url must be at most ${MAX_SEND_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('send_url must be a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('send_url must use http or https');
  if (url.hostname === '') return refuse('send_url must have a host');

  const literal = literalAddress(url.hostname);
  let addresses: LookupAddress[];
  if (literal) {
    addresses = [literal];
  } else {
    const resolved = await resolveWithin(url.hostname, options.resolve ?? systemResolver, options.timeoutMs);
    if (typeof resolved === 'string') return refuse(resolved);
    addresses = resolved;
  }
  for (const { address } of addresses) {
    const why = forbiddenAddressReason(address, policy);
    if (why !== null) return refuse(describeForbiddenAddress(address, why));
  }
  return { ok: true, url, addresses };
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
  const lookup = Promise.resolve(hostname).then(resolve).then(
    (found) => (found.length > 0 ? found : `send_url host ${hostname} does not resolve`),
    () => `send_url host ${hostname} does not resolve`,
  );
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
