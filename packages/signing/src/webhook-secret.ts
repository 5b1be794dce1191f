import { webhookSigningKey, WHSEC_PREFIX } from './webhook-signature.js';

/**
 * The shortest webhook signing key accepted (docs/service-rules.md §16): 16 bytes, like the 16
 * characters of a request secret. Standard Webhooks secrets carry 24 to 64 random bytes.
 */
export const MIN_WEBHOOK_KEY_BYTES = 16;

/** Standard base64 as the Standard Webhooks libraries decode it: A-Z a-z 0-9 + /, padded with =. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Why a webhook secret could not sign deliveries that receivers verify, or undefined when it can.
 * A `whsec_` secret must be standard base64 of at least MIN_WEBHOOK_KEY_BYTES bytes (webhookSigningKey
 * decodes it); any other secret is used as its UTF-8 bytes and needs as many characters. The answer
 * never quotes the secret.
 */
export function webhookSecretProblem(secret: string): string | undefined {
  const advice = 'use "whsec_" followed by the base64 of 24 to 64 random bytes (e.g. whsec_$(openssl rand -base64 32))';
  if (!secret.startsWith(WHSEC_PREFIX)) {
    return [...secret].length < MIN_WEBHOOK_KEY_BYTES ? `is shorter than ${MIN_WEBHOOK_KEY_BYTES} characters; ${advice}` : undefined;
  }
  const encoded = secret.slice(WHSEC_PREFIX.length);
  if (encoded === '') return `has no key after "whsec_"; ${advice}`;
  if (!BASE64.test(encoded)) return `is not "whsec_" followed by standard base64 (A-Z a-z 0-9 + /, padded with =); ${advice}`;
  const bytes = webhookSigningKey(secret).length;
  if (bytes < MIN_WEBHOOK_KEY_BYTES) return `holds a ${bytes}-byte key, shorter than ${MIN_WEBHOOK_KEY_BYTES} bytes; ${advice}`;
  return undefined;
}
