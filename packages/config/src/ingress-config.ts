import { isIP } from 'node:net';
import { MIN_SECRET_CHARS } from './client-checks.js';
import { ConfigError, readInt, readOptionalString, readOptionalToken, type Env } from './env-readers.js';

/** The API's defences against abuse (docs/service-rules.md §16): HTTP time-outs, failed-auth throttle, admin write token. */
export interface IngressConfig {
  readonly http: {
    /** Time to receive the complete request headers. */
    readonly headersTimeoutMs: number;
    /** Time to receive the complete request (headers and body). */
    readonly requestTimeoutMs: number;
    /** A connection without progress either way (idle keep-alive, or a client not reading its answer) is closed. */
    readonly idleTimeoutMs: number;
  };
  readonly authFailures: {
    /** Failed authentications allowed per client id within the window; then 429. */
    readonly perClient: number;
    /** Failed authentications allowed per source address within the window; then 429. */
    readonly perAddress: number;
    readonly windowS: number;
  };
  /** Opens the queue dashboard's write actions; ADMIN_TOKEN alone gives read-only access. */
  readonly adminWriteToken: string | undefined;
  /**
   * Express's `trust proxy`: which proxies may set X-Forwarded-For, so the throttle sees the
   * caller's address instead of the proxy's. undefined: trust none (the socket's address counts).
   */
  readonly trustProxy: boolean | number | string | undefined;
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A contiguous IPv4 netmask's prefix length (255.240.0.0 → 12), else undefined. */
function netmaskPrefix(mask: string): number | undefined {
  const bits = mask.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
  const inverted = 0xffffffff - bits;
  return (inverted & (inverted + 1)) === 0 ? 32 - Math.log2(inverted + 1) : undefined;
}

/** Why Express's `trust proxy` (proxy-addr) would refuse one entry of an address list, or undefined. */
function trustedEntryProblem(entry: string): string | undefined {
  if (NAMED_RANGES.has(entry)) return undefined;
  const slash = entry.lastIndexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return `"${entry}" is not an address, a subnet, loopback, linklocal or uniquelocal`;
  if (slash < 0) return undefined;
  const range = entry.slice(slash + 1);
  const max = family === 4 ? 32 : 128;
  const prefix = /^\d+$/.test(range) ? Number(range) : family === 4 && isIP(range) === 4 ? netmaskPrefix(range) : undefined;
  return prefix !== undefined && prefix > 0 && prefix <= max ? undefined : `"${entry}" has no valid prefix length or netmask (1-${max})`;
}

/** Express's `trust proxy`: true / false, a hop count, or addresses, subnets and named ranges (checked here, not at the first request). */
function readTrustProxy(env: Env): IngressConfig['trustProxy'] {
  const raw = readOptionalString(env, 'TRUST_PROXY');
  if (raw === undefined || raw.toLowerCase() === 'false') return undefined;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  for (const entry of raw.split(',').map((part) => part.trim())) {
    const problem = entry === '' ? 'an empty entry in the list' : trustedEntryProblem(entry);
    if (problem !== undefined)
      throw new ConfigError('TRUST_PROXY', `${problem}; use true, a hop count, or addresses/subnets separated by commas`);
  }
  return raw;
}

export function readIngressConfig(env: Env): IngressConfig {
  const headersTimeoutMs = readInt(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = readInt(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs)
    throw new ConfigError('HTTP_REQUEST_TIMEOUT_MS', `must not be shorter than HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs})`);
  const adminWriteToken = readOptionalToken(env, 'ADMIN_WRITE_TOKEN', MIN_SECRET_CHARS);
  if (adminWriteToken !== undefined && adminWriteToken === readOptionalString(env, 'ADMIN_TOKEN')) {
    throw new ConfigError('ADMIN_WRITE_TOKEN', 'must differ from ADMIN_TOKEN (the read-only token)');
  }
  return Object.freeze({
    http: Object.freeze({
      headersTimeoutMs,
      requestTimeoutMs,
      idleTimeoutMs: readInt(env, 'HTTP_IDLE_TIMEOUT_MS', 15_000, 100, 600_000),
    }),
    authFailures: Object.freeze({
      perClient: readInt(env, 'AUTH_FAILURES_PER_CLIENT', 30, 1, 1_000_000),
      perAddress: readInt(env, 'AUTH_FAILURES_PER_ADDRESS', 60, 1, 1_000_000),
      windowS: readInt(env, 'AUTH_FAILURE_WINDOW_S', 60, 1, 86_400),
    }),
    adminWriteToken,
    trustProxy: readTrustProxy(env),
  });
}
