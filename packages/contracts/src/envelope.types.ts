import type { FieldError } from './app-error.js';
import type { ErrorCode } from './error-codes.js';

/** docs/service-rules.md §3: every response body is one of these. `code` repeats the HTTP status. */
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
  /** Present (true) when `errors` lists only the first MAX_LISTED_ERRORS problems. */
  errors_truncated?: true;
}

/** docs/service-rules.md §16: an error answer lists at most this many problems... */
export const MAX_LISTED_ERRORS = 50;
/** ...and is never larger than this many bytes. */
export const MAX_ERROR_ANSWER_BYTES = 64 * 1024;
