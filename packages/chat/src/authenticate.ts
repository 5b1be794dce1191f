import type { ClientSettings } from '@dialog-relay/config';
import { AppError, type ChatMessageRequest } from '@dialog-relay/contracts';
import { verifyRequestSignature } from '@dialog-relay/signing';
import { hash } from 'node:crypto';
import { redactDetail } from './redact-detail.js';

/** Characters of the signed string shown in a 401 detail (docs/service-rules.md §16: error answers stay small). */
const DETAIL_MAX_CHARS = 8192;

/**
 * docs/service-rules.md §2: signature first (an unknown client and a wrong signature give the same answer,
 * showing both strings the server would sign, never a secret), then the timestamp window.
 * Returns the digest that identifies this exact signed request for replay refusal ('' when
 * `replayDigest` is false: a request with a msg_id is answered idempotently, never refused as a replay).
 */
export function authenticate(input: {
  body: Readonly<Record<string, unknown>>;
  request: ChatMessageRequest;
  client: ClientSettings | undefined;
  nowMs: number;
  toleranceS: number;
  replayDigest?: boolean;
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
    const clientSecrets = client?.secrets ?? [];
    // Each part redacted and cut on its own: the work is bounded by what is shown, not by the body.
    // The canonical form of an object is never empty: '' means RFC 8785 refused the body.
    const hmac =
      strings['hmac-sha256'] === ''
        ? 'nothing, RFC 8785 cannot canonicalize this body (a lone surrogate or a number out of range)'
        : redactDetail(strings['hmac-sha256'], { clientSecrets, maxChars: DETAIL_MAX_CHARS, json: true });
    const md5 = redactDetail(strings.md5, { clientSecrets, maxChars: DETAIL_MAX_CHARS, json: false });
    throw new AppError('invalid_signature', 'The signature does not match this client and body.', {
      detail: `Under hmac-sha256 the server signs: ${hmac} — under md5 it signs: ${md5}`,
    });
  }
  const nowS = Math.floor(nowMs / 1000);
  if (Math.abs(nowS - request.timestamp) > toleranceS) {
    throw new AppError('timestamp_out_of_range', `timestamp must be within ±${toleranceS} s of the server time.`, {
      detail: `server time is ${nowS}, the request says ${request.timestamp}`,
    });
  }
  if (input.replayDigest === false) return '';
  const signature = request.signature.toLowerCase();
  // For md5 the signature does not cover the body, so the body is part of what identifies a replay.
  // The canonical form computed for the signature check is reused. JCS refuses values JSON.parse can
  // produce (1e400 -> Infinity, lone surrogates): plain JSON then (the body's depth is bounded by validation).
  // One-shot hashes, as for the conversation id (docs/design/performance-log.md, seventeenth session).
  if (client?.signatureScheme !== 'md5') return hash('sha256', signature, 'hex');
  return hash('sha256', `${signature}\n${check.signingString ?? JSON.stringify(body)}`, 'hex');
}
