import canonicalize from 'canonicalize';
import type { HeaderSource, RawBody, VerificationFailure } from './delivery.types.js';
import {
  headerValue,
  isRawBody,
  rawBodyBytes,
  signatureListMatches,
  verifyDelivery,
  webhookDigest,
  type VerifyOptions,
} from './verify-delivery.js';

/** A verification failure in plain words, with the likely cause where one can be found. */
export interface DeliveryDiagnosis {
  ok: boolean;
  reason: VerificationFailure | 'wrong_secret' | 're_serialized_body' | 'secret_format' | undefined;
  explanation: string;
}

/**
 * Verifies a delivery and, when it fails, looks for the usual causes: a stale timestamp, a body
 * that was re-serialized between signing and verifying (JSON.stringify of a parsed body differs
 * from the bytes that were signed), a `whsec_` secret used as plain text or the reverse, or simply
 * the wrong secret. Meant for tools (`listen`) and debugging, not for the hot path.
 */
export function explainDelivery(rawBody: RawBody, headers: HeaderSource, secret: string, options: VerifyOptions = {}): DeliveryDiagnosis {
  if (!isRawBody(rawBody)) {
    return {
      ok: false,
      reason: 're_serialized_body',
      explanation:
        'The body given is already parsed into a value, which cannot be verified (re-serializing it changes the bytes that were signed). Pass the raw body as received, before any JSON parsing.',
    };
  }
  const result = verifyDelivery(rawBody, headers, secret, options);
  if (result.ok) return { ok: true, reason: undefined, explanation: `verified delivery ${result.id}` };
  if (result.reason !== 'invalid_signature') return { ok: false, reason: result.reason, explanation: result.message };

  const id = headerValue(headers, 'webhook-id') ?? '';
  const timestamp = headerValue(headers, 'webhook-timestamp') ?? '';
  const header = headerValue(headers, 'webhook-signature') ?? '';
  const text = rawBodyBytes(rawBody).toString('utf8');
  const matches = (key: Buffer, body: string): boolean =>
    signatureListMatches(header, webhookDigest(key, id, timestamp, Buffer.from(body, 'utf8')));

  for (const key of otherKeyReadings(secret)) {
    if (matches(key.bytes, text)) {
      return {
        ok: false,
        reason: 'secret_format',
        explanation: `The signature matches when the secret is read ${key.reading}: ${key.hint}`,
      };
    }
  }
  const key = keyOf(secret);
  for (const form of otherSerializations(text)) {
    if (key !== undefined && matches(key, form.body)) {
      return {
        ok: false,
        reason: 're_serialized_body',
        explanation: `The signature matches the same JSON ${form.name}: the body was re-serialized after signing. Verify the raw bytes as received, before any JSON parsing.`,
      };
    }
  }
  return {
    ok: false,
    reason: 'wrong_secret',
    explanation:
      'No v1 signature matches with this secret. Use the webhook_secret of this client (whsec_…; its request secret only when it has none), and the exact raw body.',
  };
}

function keyOf(secret: string): Buffer | undefined {
  try {
    return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  } catch {
    return undefined;
  }
}

function otherKeyReadings(secret: string): { bytes: Buffer; reading: string; hint: string }[] {
  if (secret.startsWith('whsec_')) {
    return [
      {
        bytes: Buffer.from(secret, 'utf8'),
        reading: 'as plain UTF-8 text',
        hint: 'the sender treats your whsec_ secret as a plain string.',
      },
    ];
  }
  const decoded = Buffer.from(secret, 'base64');
  return decoded.length > 0
    ? [{ bytes: decoded, reading: 'as base64', hint: 'prefix it with whsec_ so it is decoded as the Standard Webhooks key.' }]
    : [];
}

function otherSerializations(text: string): { name: string; body: string }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const forms = [
    { name: 'compact (JSON.stringify)', body: JSON.stringify(parsed) },
    { name: 'indented by 2 spaces', body: JSON.stringify(parsed, null, 2) },
    {
      name: 'with spaces after , and :',
      body: JSON.stringify(parsed).replace(/("(?:[^"\\]|\\.)*")|([,:])/g, (m, str: string | undefined) => (str ? m : `${m} `)),
    },
    { name: 'canonicalized (RFC 8785)', body: safeCanonical(parsed) },
  ];
  return forms.filter((form) => form.body !== text);
}

function safeCanonical(value: unknown): string {
  try {
    return canonicalize(value) ?? '';
  } catch {
    return '';
  }
}
