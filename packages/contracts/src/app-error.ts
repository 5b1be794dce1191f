import { ERROR_PRECEDENCE, ERROR_STATUS, type ErrorCode } from './error-codes.js';

/** One problem with one field; `path` is a JSON Pointer into the request body. */
export interface FieldError {
  path: string;
  /** An ErrorCode for rule violations, or the JSON-schema keyword (type, enum, maxLength ...) for invalid_request. */
  code: string;
  message: string;
}

export interface AppErrorOptions {
  detail?: string;
  errors?: FieldError[];
  /** Seconds; sent as Retry-After. */
  retryAfterS?: number;
  cause?: unknown;
}

/** A typed failure with a stable code. It is turned into the response envelope in one place (the API's error handler). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  readonly retryAfterS: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.detail = options.detail;
    this.errors = options.errors ?? [];
    this.retryAfterS = options.retryAfterS;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_STATUS, code);

/**
 * The code that heads a list of field errors: the first in precedence order. A schema problem
 * (its code is a JSON-schema keyword such as `type`) counts as invalid_request, which comes before
 * every rule code, as in docs/service-rules.md §3's table.
 */
export function leadingErrorCode(errors: readonly FieldError[]): ErrorCode {
  const present = new Set<ErrorCode>(errors.map((e) => (isErrorCode(e.code) ? e.code : 'invalid_request')));
  return ERROR_PRECEDENCE.find((code) => present.has(code)) ?? 'invalid_request';
}
