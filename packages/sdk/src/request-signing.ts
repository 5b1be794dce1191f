import canonicalize from 'canonicalize';
import { createHash, createHmac } from 'node:crypto';

/** How a client signs its requests: chosen per client by the operator (docs/integrating.md "Signing requests"). */
export const SIGNATURE_SCHEMES = ['hmac-sha256', 'md5'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

export interface SignOptions {
  secret: string;
  /** Defaults to hmac-sha256. */
  scheme?: SignatureScheme;
}

/**
 * The hmac-sha256 signing string: RFC 8785 (JCS) canonical JSON of the body without its
 * `signature` member. Throws on a body JCS cannot represent (non-finite numbers, lone surrogates).
 */
export function signingString(body: Readonly<Record<string, unknown>>): string {
  const unsigned = Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'signature'));
  let canonical: string | undefined;
  try {
    canonical = canonicalize(unsigned);
  } catch (error) {
    throw new TypeError(`the request body cannot be canonicalized (RFC 8785): ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (canonical === undefined) throw new TypeError('the request body cannot be canonicalized (RFC 8785)');
  return canonical;
}

/**
 * The value of `signature` for this body (lowercase hex; an existing `signature` member is ignored).
 * hmac-sha256: HMAC-SHA256(key = UTF-8 bytes of the secret, JCS(body without signature)).
 * md5 (legacy, does not protect the body): MD5(secret + String(timestamp) + client).
 */
export function signRequest(body: Readonly<Record<string, unknown>>, options: SignOptions): string {
  const scheme = options.scheme ?? 'hmac-sha256';
  switch (scheme) {
    case 'hmac-sha256':
      // the secret as a string key (UTF-8, as a Buffer of it would be): a Buffer key costs Node 24 three to four times as much
      return createHmac('sha256', options.secret).update(signingString(body), 'utf8').digest('hex');
    case 'md5': {
      const { timestamp, client } = body;
      const ts = typeof timestamp === 'number' || typeof timestamp === 'string' ? String(timestamp) : '';
      const id = typeof client === 'string' ? client : '';
      return createHash('md5').update(`${options.secret}${ts}${id}`, 'utf8').digest('hex');
    }
  }
}

/** A copy of the body with its `signature` member set. */
export function withSignature<T extends Record<string, unknown>>(body: T, options: SignOptions): T & { signature: string } {
  return { ...body, signature: signRequest(body, options) };
}
