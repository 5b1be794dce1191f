import type { ClientSettings } from '@dialog-relay/config';
import { AppError, type ChatMessageRequest } from '@dialog-relay/contracts';
import { tryHmacSigningString, verifyRequestSignature } from '@dialog-relay/signing';
import { createHash } from 'node:crypto';

const DETAIL_MAX_CHARS = 8192;

const cut = (text: string): string =>
  text.length <= DETAIL_MAX_CHARS ? text : `${text.slice(0, DETAIL_MAX_CHARS)}… (${text.length - DETAIL_MAX_CHARS} more characters)`;

/**
 * CONTRACT §2: signature first (an unknown client and a wrong signature give the same answer,
 * showing both strings the server would sign, never a secret), then the timestamp window.
 * Returns the digest that identifies this exact signed request for replay refusal.
 */
export function authenticate(input: {
  body: Readonly<Record<string, unknown>>;
  request: ChatMessageRequest;
  client: ClientSettings | undefined;
  nowMs: number;
  toleranceS: number;
}): string {
  const { body, request, client, nowMs, toleranceS } = input;
  const check = verifyRequestSignature({
    body,
    signature: request.signature,
    scheme: client?.signatureScheme,
    secrets: client?.secrets ?? [],
  });
  if (!check.ok) {
    const strings = check.stringsToSign();
    throw new AppError('invalid_signature', 'The signature does not match this client and body.', {
      detail: cut(`Under hmac-sha256 the server signs: ${strings['hmac-sha256']} — under md5 it signs: ${strings.md5}`),
    });
  }
  const nowS = Math.floor(nowMs / 1000);
  if (Math.abs(nowS - request.timestamp) > toleranceS) {
    throw new AppError('timestamp_out_of_range', `timestamp must be within ±${toleranceS} s of the server time.`, {
      detail: `server time is ${nowS}, the request says ${request.timestamp}`,
    });
  }
  // For md5 the signature does not cover the body, so the body is part of what identifies a replay.
  const digest = createHash('sha256').update(request.signature.toLowerCase());
  // JCS refuses values JSON.parse can produce (1e400 -> Infinity, lone surrogates): fall back to plain JSON then.
  if (client?.signatureScheme === 'md5') digest.update('\n').update(tryHmacSigningString(body) ?? JSON.stringify(body));
  return digest.digest('hex');
}
