import {
  MAX_ERROR_ANSWER_BYTES,
  MAX_LISTED_ERRORS,
  type AppError,
  type ErrorEnvelope,
  type SuccessEnvelope,
} from '@dialog-relay/contracts';
import type { Response } from 'express';

/** docs/service-rules.md §3: every answer is one envelope; `code` repeats the HTTP status. */
export function sendSuccess(res: Response, status: number, requestId: string, data: unknown): void {
  const body: SuccessEnvelope = { code: status, message: 'ok', request_id: requestId, data };
  // What res.json() sends (the same headers; ETags are off), without its settings lookups, charset
  // parsing and freshness check (a POST is never fresh).
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/**
 * The error envelope as JSON text, bounded (docs/service-rules.md §16): at most MAX_LISTED_ERRORS errors (then
 * errors_truncated: true) and never more than MAX_ERROR_ANSWER_BYTES; the detail is shortened first.
 */
export function errorEnvelopeJson(error: AppError, requestId: string): string {
  const body: ErrorEnvelope = { code: error.status, message: error.message, request_id: requestId, error: error.code };
  if (error.detail !== undefined) body.detail = error.detail;
  if (error.errors.length > 0) body.errors = error.errors.slice(0, MAX_LISTED_ERRORS);
  if (error.errors.length > MAX_LISTED_ERRORS) body.errors_truncated = true;
  let json = JSON.stringify(body);
  while (Buffer.byteLength(json) > MAX_ERROR_ANSWER_BYTES) {
    if (body.detail !== undefined && body.detail.length > 64)
      body.detail = `${body.detail.slice(0, Math.floor(body.detail.length / 2))}… (shortened)`;
    else if (body.errors !== undefined && body.errors.length > 1) {
      body.errors = body.errors.slice(0, Math.floor(body.errors.length / 2));
      body.errors_truncated = true;
    } else {
      delete body.detail;
      delete body.errors;
    }
    json = JSON.stringify(body);
  }
  return json;
}

export function sendError(res: Response, error: AppError, requestId: string): void {
  if (error.retryAfterS !== undefined) res.set('Retry-After', String(error.retryAfterS));
  res.status(error.status).type('application/json').send(errorEnvelopeJson(error, requestId));
}
