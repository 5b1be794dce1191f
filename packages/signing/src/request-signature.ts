import { createHash } from 'node:crypto';
import type { SignatureScheme } from '@dialog-relay/contracts';
import { canonicalJson } from './canonical-json.js';
import { constantTimeEqualsAny } from './constant-time.js';
import { hmacSha256, hmacSha256Key, type HmacSha256Key } from './hmac-sha256.js';

/** The schemes are a wire shape: packages/contracts lists them (SIGNATURE_SCHEMES). */
export type { SignatureScheme };

/** Shown to integrators in place of the secret in the md5 string to sign. */
export const SECRET_PLACEHOLDER = '{secret}';

/** Used for unknown clients so the failing path does the same work as a real check. */
const DUMMY_SECRET = 'dummy-secret-for-unknown-clients-0000000000000000';
const DUMMY_KEY = hmacSha256Key(DUMMY_SECRET);
const DUMMY_KEYS: readonly HmacSha256Key[] = [DUMMY_KEY];

/** Each client's secrets prepared for the HMAC, once per secrets list (a change of secrets comes as new client settings). */
const preparedKeys = new WeakMap<readonly string[], readonly HmacSha256Key[]>();
function keysOf(secrets: readonly string[]): readonly HmacSha256Key[] {
  let keys = preparedKeys.get(secrets);
  if (keys === undefined) {
    keys = secrets.map((secret) => hmacSha256Key(secret));
    preparedKeys.set(secrets, keys);
  }
  return keys;
}

/**
 * RFC 8785 (JCS) canonical form of the body without its "signature" member.
 * Throws if the body cannot be canonicalized (lone surrogates, non-finite numbers
 * such as JSON.parse('1e400'), circular references).
 */
export function hmacSigningString(body: Readonly<Record<string, unknown>>): string {
  const canonical = canonicalJson(body, 'signature');
  if (canonical === undefined) {
    throw new Error('request body cannot be canonicalized (RFC 8785)');
  }
  return canonical;
}

/** Like hmacSigningString, but undefined instead of throwing. */
export function tryHmacSigningString(body: Readonly<Record<string, unknown>>): string | undefined {
  try {
    return hmacSigningString(body);
  } catch {
    return undefined;
  }
}

/** Lowercase hex HMAC-SHA256 keyed with the UTF-8 bytes of the secret (hmac-sha256.ts). */
export function signHmacSha256(secret: string, signingString: string): string {
  return hmacSha256(hmacSha256Key(secret), signingString, 'hex');
}

export function md5SigningString(secret: string, timestamp: number | string, client: string): string {
  return `${secret}${String(timestamp)}${client}`;
}

/** Legacy: lowercase hex MD5(secret + timestamp + client). Does not protect the body. */
export function signMd5(secret: string, timestamp: number | string, client: string): string {
  return createHash('md5')
    .update(md5SigningString(secret, timestamp, client), 'utf8')
    .digest('hex');
}

/** body.timestamp and body.client as used by md5; anything not a string/number becomes ''. */
function md5Fields(body: Readonly<Record<string, unknown>>): { timestamp: number | string; client: string } {
  const { timestamp, client } = body;
  return {
    timestamp: typeof timestamp === 'number' || typeof timestamp === 'string' ? timestamp : '',
    client: typeof client === 'string' ? client : '',
  };
}

/** The signature a caller must put in `signature` for this body (an existing signature member is ignored). */
export function signRequestBody(body: Readonly<Record<string, unknown>>, secret: string, scheme: SignatureScheme): string {
  switch (scheme) {
    case 'hmac-sha256':
      return signHmacSha256(secret, hmacSigningString(body));
    case 'md5': {
      const { timestamp, client } = md5Fields(body);
      return signMd5(secret, timestamp, client);
    }
  }
}

export interface SignatureCheck {
  ok: boolean;
  /**
   * The RFC 8785 form of the body without its signature, computed once for this check (undefined
   * when the body cannot be canonicalized). Callers reuse it instead of canonicalizing again.
   */
  signingString: string | undefined;
  /**
   * Only meaningful when !ok: what the server signed under each scheme, secret shown as {secret}.
   * hmac-sha256 is '' when the body cannot be canonicalized.
   */
  stringsToSign: () => { 'hmac-sha256': string; md5: string };
}

/**
 * Constant-time check of `signature` (case-insensitive hex) against every active secret.
 * scheme undefined or no secrets = unknown client: same work with a dummy secret, always fails.
 * The body is canonicalized exactly once, whatever the scheme and the outcome.
 */
export function verifyRequestSignature(input: {
  body: Readonly<Record<string, unknown>>;
  signature: string;
  scheme: SignatureScheme | undefined;
  secrets: readonly string[];
}): SignatureCheck {
  const { body, scheme, secrets } = input;
  const known = scheme !== undefined && secrets.length > 0;
  const provided = input.signature.toLowerCase();
  const signingString = tryHmacSigningString(body);
  let expected: string[] | undefined;
  if ((scheme ?? 'hmac-sha256') === 'md5')
    expected = (known ? secrets : [DUMMY_SECRET]).map((secret) => signRequestBody(body, secret, 'md5'));
  else if (signingString !== undefined)
    expected = (known ? keysOf(secrets) : DUMMY_KEYS).map((key) => hmacSha256(key, signingString, 'hex'));
  // A body that cannot be canonicalized still costs one comparison against a dummy value.
  const matched = constantTimeEqualsAny(provided, expected ?? [hmacSha256(DUMMY_KEY, '', 'hex')]);
  const ok = known && expected !== undefined && matched;
  return {
    ok,
    signingString,
    stringsToSign: () => {
      const { timestamp, client } = md5Fields(body);
      return {
        'hmac-sha256': signingString ?? '',
        md5: md5SigningString(SECRET_PLACEHOLDER, timestamp, client),
      };
    },
  };
}
