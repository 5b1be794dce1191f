import { AppError, isAppError, jsonParseFailureDetail } from '@dialog-relay/contracts';
import { isRedisUnavailableError } from '@dialog-relay/redis';

interface BodyParserError {
  type?: string;
  status?: number;
  code?: string;
  /** The byte limit of the parser that refused the body (raw-body's entity.too.large). */
  limit?: number;
}

/**
 * The one place where any failure becomes a typed AppError: body-parser errors, Redis outages
 * (503, never 500), the router's refusals of a request (a path parameter that is not
 * percent-encoded UTF-8) and, last, unexpected bugs (500, logged by the caller).
 */
export function toAppError(error: unknown, limits: { bodyBytes: number }): { error: AppError; unexpected: boolean } {
  if (isAppError(error)) return { error, unexpected: false };
  if (isRedisUnavailableError(error)) {
    return {
      error: new AppError('service_unavailable', 'The service is temporarily unavailable, please retry.', { retryAfterS: 2 }),
      unexpected: false,
    };
  }
  const parser = (typeof error === 'object' && error !== null ? error : {}) as BodyParserError;
  switch (parser.type) {
    case 'entity.too.large':
      // Each parser has its own limit (the admin login form's is 4 KiB): the error names it.
      return {
        error: new AppError('payload_too_large', `The body is larger than ${parser.limit ?? limits.bodyBytes} bytes.`),
        unexpected: false,
      };
    case 'parameters.too.many':
      return { error: new AppError('payload_too_large', 'The form has more fields than it takes.'), unexpected: false };
    case 'entity.parse.failed':
      return {
        error: new AppError('malformed_json', 'The body is not valid JSON.', { detail: jsonParseFailureDetail((error as Error).message) }),
        unexpected: false,
      };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return {
        error: new AppError('unsupported_media_type', 'Send UTF-8 JSON (Content-Type: application/json).', {
          detail: (error as Error).message,
        }),
        unexpected: false,
      };
    case 'request.aborted':
    case 'request.size.invalid':
      return { error: new AppError('malformed_json', 'The body could not be read completely.'), unexpected: false };
    case undefined:
    default:
      // A body that is not in its Content-Encoding (or a truncated gzip): zlib's error, passed on
      // by the body parser with status 400 and no type.
      if (parser.status === 400 && typeof parser.code === 'string' && /^(Z_|ERR__)/.test(parser.code)) {
        return {
          error: new AppError('malformed_json', 'The body could not be decoded as its Content-Encoding says.', {
            detail: `${parser.code}: ${(error as Error).message}`,
          }),
          unexpected: false,
        };
      }
      // The router's decodeURIComponent of a path parameter ("/docs/assets/%ff"), marked 400 by it.
      if (parser.status === 400 && error instanceof URIError) {
        return { error: new AppError('bad_request', 'The URL path is not valid percent-encoded UTF-8.'), unexpected: false };
      }
      return {
        error: new AppError('internal_error', 'Something went wrong on our side; the request id helps us find it.'),
        unexpected: true,
      };
  }
}
