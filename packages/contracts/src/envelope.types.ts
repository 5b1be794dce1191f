import type { FieldError } from './app-error.js';
import type { ErrorCode } from './error-codes.js';

/** CONTRACT §3: every response body is one of these. `code` repeats the HTTP status. */
export interface SuccessEnvelope<T = unknown> {
  code: number;
  message: 'ok';
  request_id: string;
  data: T;
}

export interface ErrorEnvelope {
  code: number;
  message: string;
  request_id: string;
  error: ErrorCode;
  detail?: string;
  errors?: FieldError[];
}

export type Envelope<T = unknown> = SuccessEnvelope<T> | ErrorEnvelope;
