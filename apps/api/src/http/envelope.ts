import type { AppError, ErrorEnvelope, SuccessEnvelope } from '@dialog-relay/contracts';
import type { Response } from 'express';

/** CONTRACT §3: every answer is one envelope; `code` repeats the HTTP status. */
export function sendSuccess(res: Response, status: number, requestId: string, data: unknown): void {
  const body: SuccessEnvelope = { code: status, message: 'ok', request_id: requestId, data };
  res.status(status).json(body);
}

export function sendError(res: Response, error: AppError, requestId: string): void {
  const body: ErrorEnvelope = { code: error.status, message: error.message, request_id: requestId, error: error.code };
  if (error.detail !== undefined) body.detail = error.detail;
  if (error.errors.length > 0) body.errors = error.errors;
  if (error.retryAfterS !== undefined) res.set('Retry-After', String(error.retryAfterS));
  res.status(error.status).json(body);
}
