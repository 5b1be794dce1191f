const WHSEC_PREFIX = 'whsec_';

/**
 * The Standard Webhooks signing key for a secret: a `whsec_…` secret is the base64 of the key;
 * any other string (a client without a webhook secret, whose request secret signs its deliveries)
 * is used as its UTF-8 bytes.
 */
export function webhookKey(secret: string): Buffer {
  const key = secret.startsWith(WHSEC_PREFIX) ? Buffer.from(secret.slice(WHSEC_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
  if (key.length === 0) throw new TypeError('the webhook secret holds no key: it is empty, or whsec_ followed by no base64');
  return key;
}
