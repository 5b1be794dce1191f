import type { ErrorCode, FieldProblem } from './api.types.js';

/**
 * An error answer of the API, or a failure to get one. `code` is the API's stable `error` code;
 * `network_error` (no answer) and `unexpected_response` (an answer that is not the API's envelope)
 * are the client's own.
 */
export class DialogRelayError extends Error {
  override readonly name = 'DialogRelayError';
  constructor(
    readonly code: ErrorCode | 'network_error' | 'unexpected_response',
    message: string,
    readonly status: number | undefined,
    readonly details: {
      requestId?: string | undefined;
      detail?: string | undefined;
      errors?: FieldProblem[] | undefined;
      /** Seconds, from Retry-After (429, 503, 409 request_in_progress). */
      retryAfterS?: number | undefined;
    } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** Worth sending again later (the same signed body, or a freshly signed one); a proxy's 502, 503 or 504 page too. */
  get retryable(): boolean {
    if (this.code === 'unexpected_response') return this.status === 502 || this.status === 503 || this.status === 504;
    return (
      this.code === 'network_error' ||
      this.code === 'rate_limited' ||
      this.code === 'pending_limit' ||
      this.code === 'service_unavailable' ||
      this.code === 'request_in_progress'
    );
  }
}
