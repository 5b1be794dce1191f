import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import type { DeliveryPayload, HeaderSource, RawBody, VerificationResult } from './delivery.types.js';
import { webhookKey } from './webhook-key.js';

export interface VerifyOptions {
  /** Accepted clock difference of webhook-timestamp, in seconds (default 300, as Standard Webhooks suggests). */
  toleranceS?: number;
  /** The current time in unix seconds (tests). */
  nowS?: number;
}

export const DEFAULT_TOLERANCE_S = 300;

/** One header's value, whatever the header source; several values are joined with a space. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : (value as string | undefined);
}

/**
 * base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" (Standard Webhooks, signature version v1). The key
 * goes in as a KeyObject: a Buffer key costs Node 24 three times as much as making one and using it.
 */
export function webhookDigest(key: Buffer, id: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', createSecretKey(key)).update(`${id}.${timestamp}.`, 'utf8').update(body).digest('base64');
}

/**
 * True if any space-separated "v1,<base64>" entry of the header equals the expected digest (constant
 * time per entry). A header sent twice reaches node:http and fetch joined by ", ", so an entry's
 * trailing comma is dropped (base64 never ends with one).
 */
export function signatureListMatches(header: string, expected: string): boolean {
  const wanted = Buffer.from(expected, 'utf8');
  let matched = false;
  for (const listed of header.split(/\s+/)) {
    const entry = listed.endsWith(',') ? listed.slice(0, -1) : listed;
    if (!entry.startsWith('v1,')) continue;
    const given = Buffer.from(entry.slice(3), 'utf8');
    if (given.length === wanted.length && timingSafeEqual(given, wanted)) matched = true;
  }
  return matched;
}

/** True for what verifyDelivery can read as the raw body; false for a body a JSON parser already turned into a value. */
export function isRawBody(body: unknown): body is RawBody {
  return typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

/** The bytes of a raw body. A parsed body is a TypeError: re-serializing it changes the bytes, so no signature could match. */
export function rawBodyBytes(body: RawBody): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError(
    'verifyDelivery needs the raw body as received (a string, Buffer, Uint8Array or ArrayBuffer), not a parsed object: re-serializing it changes the bytes that were signed.',
  );
}

/** The tolerance and clock to check webhook-timestamp with; a value that is not a number would accept any timestamp, so it throws. */
export function verificationClock(options: VerifyOptions): { toleranceS: number; nowS: number } {
  const toleranceS = options.toleranceS ?? DEFAULT_TOLERANCE_S;
  const nowS = options.nowS ?? Math.floor(Date.now() / 1000);
  if (!Number.isFinite(toleranceS) || toleranceS < 0)
    throw new RangeError(`toleranceS must be a number of seconds from 0, got ${String(toleranceS)}`);
  if (!Number.isFinite(nowS)) throw new RangeError(`nowS must be unix seconds, got ${String(nowS)}`);
  return { toleranceS, nowS };
}

/**
 * Verifies a delivery to your send_url (Standard Webhooks): the signature over the RAW body bytes
 * as received (never a re-serialized JSON.parse result), any of several `v1,` signatures, and the
 * timestamp within the tolerance. `secret` is your `whsec_…` webhook secret, or your request
 * secret when the client has no webhook secret.
 */
export function verifyDelivery(rawBody: RawBody, headers: HeaderSource, secret: string, options: VerifyOptions = {}): VerificationResult {
  const body = rawBodyBytes(rawBody);
  const { toleranceS: tolerance, nowS: now } = verificationClock(options);
  const id = headerValue(headers, 'webhook-id');
  const timestamp = headerValue(headers, 'webhook-timestamp');
  const signature = headerValue(headers, 'webhook-signature');
  if (!id || !timestamp || !signature) {
    return { ok: false, reason: 'missing_headers', message: 'webhook-id, webhook-timestamp and webhook-signature are all required.' };
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    return {
      ok: false,
      reason: 'invalid_timestamp',
      message: `webhook-timestamp must be unix seconds, got ${JSON.stringify(timestamp.slice(0, 32))}.`,
    };
  }
  const skew = now - Number(timestamp);
  if (Math.abs(skew) > tolerance) {
    const when = skew > 0 ? `${skew} s old` : `${-skew} s in the future`;
    return {
      ok: false,
      reason: 'stale_timestamp',
      message: `webhook-timestamp is ${when} (tolerance ${tolerance} s): check both clocks, or a replayed delivery.`,
    };
  }
  if (!signatureListMatches(signature, webhookDigest(webhookKey(secret), id, timestamp, body))) {
    return {
      ok: false,
      reason: 'invalid_signature',
      message: 'No v1 signature matches: wrong secret, or the body is not the raw bytes that were sent.',
    };
  }
  let payload: DeliveryPayload;
  try {
    payload = JSON.parse(body.toString('utf8')) as DeliveryPayload;
  } catch {
    return { ok: false, reason: 'malformed_body', message: 'The signature matches but the body is not JSON.' };
  }
  return { ok: true, id, timestamp: Number(timestamp), payload };
}

/** Signs a delivery the way the service does: the three Standard Webhooks headers (send-test, tests). */
export function signDelivery(input: {
  id: string;
  timestamp: number;
  body: string;
  secret: string;
}): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const ts = String(input.timestamp);
  return {
    'webhook-id': input.id,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${webhookDigest(webhookKey(input.secret), input.id, ts, Buffer.from(input.body, 'utf8'))}`,
  };
}
