import { constantTimeEqualsAny } from './constant-time.js';
import { hmacSha256, hmacSha256Key, type HmacSha256Key } from './hmac-sha256.js';

/** A Standard Webhooks secret: this prefix, then the base64 of the key. */
export const WHSEC_PREFIX = 'whsec_';
const VERSION_PREFIX = 'v1,';

/**
 * Standard Webhooks key: base64-decoded rest of a "whsec_..." secret,
 * otherwise the UTF-8 bytes of the secret (a client's request secret).
 */
export function webhookSigningKey(secret: string): Buffer {
  const key = secret.startsWith(WHSEC_PREFIX) ? Buffer.from(secret.slice(WHSEC_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
  if (key.length === 0) {
    throw new Error('webhook signing key is empty');
  }
  return key;
}

/** A webhook signing key prepared once (webhookSigningKey for hmac-sha256.ts), for a sender that signs many deliveries with it. */
export const webhookHmacKey = (secret: string): HmacSha256Key => hmacSha256Key(webhookSigningKey(secret));

/** A key of either form (webhookSigningKey, webhookHmacKey). */
export type WebhookKey = Buffer | HmacSha256Key;

function webhookDigest(key: WebhookKey, id: string, timestamp: number, body: string): string {
  return hmacSha256(Buffer.isBuffer(key) ? hmacSha256Key(key) : key, `${id}.${String(timestamp)}.${body}`, 'base64');
}

/** "v1,<base64 HMAC-SHA256 of {id}.{timestamp}.{body}>" for the webhook-signature header. */
export function signWebhook(input: { key: WebhookKey; id: string; timestamp: number; body: string }): string {
  return `${VERSION_PREFIX}${webhookDigest(input.key, input.id, input.timestamp, input.body)}`;
}

/** The three Standard Webhooks headers for one delivery (timestamp in unix seconds). */
export function webhookHeaders(input: { key: WebhookKey; id: string; timestamp: number; body: string }): {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
} {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signWebhook(input),
  };
}

/**
 * Constant-time check of a webhook-signature header, which may hold several
 * space-separated "v1,<base64>" entries; passes if any v1 entry matches.
 * Does not check the timestamp's age (callers enforce their own tolerance).
 */
export function verifyWebhookSignature(input: { key: WebhookKey; id: string; timestamp: number; body: string; header: string }): boolean {
  const expected = webhookDigest(input.key, input.id, input.timestamp, input.body);
  const provided = input.header
    .split(' ')
    .filter((entry) => entry.startsWith(VERSION_PREFIX))
    .map((entry) => entry.slice(VERSION_PREFIX.length));
  let matched = 0;
  for (const candidate of provided) {
    matched |= constantTimeEqualsAny(candidate, [expected]) ? 1 : 0;
  }
  return matched === 1;
}
