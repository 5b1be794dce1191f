import { ERROR_STATUS, type ErrorCode } from '../error-codes.js';
import { ref } from './response-schemas.js';

type Schema = Record<string, unknown>;

/**
 * Errors any request can get, whatever its path: Node's HTTP parser refusing it (bad framing, too
 * large headers, too slow) before any route runs, and a bug on our side.
 */
export const ANY_REQUEST_ERRORS = [
  'bad_request',
  'request_timeout',
  'headers_too_large',
  'internal_error',
] as const satisfies readonly ErrorCode[];

/** The methods an OpenAPI path item can list. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

/** The error envelope restricted to these codes, which share one status. */
export const errorContent = (codes: readonly ErrorCode[]): Schema => ({
  'application/json': {
    schema: { allOf: [ref('ErrorEnvelope')], properties: { code: { const: ERROR_STATUS[codes[0]!] }, error: { enum: [...codes] } } },
  },
});

/** An error answer that names when to retry: the request id and Retry-After headers, the error envelope restricted to `codes`. */
export const retryAfterError = (description: string, codes: readonly ErrorCode[]): Schema => ({
  description,
  headers: { ...requestIdHeader, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  content: errorContent(codes),
});

const NAMES: Record<(typeof ANY_REQUEST_ERRORS)[number] | 'not_found' | 'method_not_allowed', string> = {
  bad_request: 'BadRequest',
  request_timeout: 'RequestTimeout',
  headers_too_large: 'HeadersTooLarge',
  internal_error: 'InternalError',
  not_found: 'NotFound',
  method_not_allowed: 'MethodNotAllowed',
};

/** components.responses: the answers shared by many operations. */
export function sharedResponses(): Record<string, Schema> {
  const one = (code: ErrorCode, description: string, headers: Schema = {}): Schema => ({
    description,
    headers: { ...requestIdHeader, ...headers },
    content: errorContent([code]),
  });
  return {
    [NAMES.bad_request]: one('bad_request', "Not valid HTTP/1.1 (Node's parser refused it before any route ran)."),
    [NAMES.request_timeout]: one(
      'request_timeout',
      'The headers or the whole request did not arrive in time (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS).',
    ),
    [NAMES.headers_too_large]: one('headers_too_large', 'The request headers exceed 16 KiB.'),
    [NAMES.internal_error]: one('internal_error', 'A bug on our side; the request id helps find it.'),
    [NAMES.not_found]: one('not_found', 'No such path, or a method the path does not take.'),
    [NAMES.method_not_allowed]: one('method_not_allowed', 'The path takes another method; Allow names it.', {
      Allow: { description: 'The method the path takes.', schema: { type: 'string' } },
    }),
  };
}

const responseRef = (code: keyof typeof NAMES): Schema => ({ $ref: `#/components/responses/${NAMES[code]}` });

/** The answers every operation may give besides its own (ANY_REQUEST_ERRORS), keyed by status. */
export function anyRequestResponses(): Record<string, Schema> {
  return Object.fromEntries(ANY_REQUEST_ERRORS.map((code) => [String(ERROR_STATUS[code]), responseRef(code)]));
}

/** One name per operation: the method and the path (`get`, `/docs/init.js` → `getDocsInitJs`). */
const operationIdOf = (method: string, path: string): string =>
  `${method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`;

/** The operations of a path for the methods it does not take: each answers 405 (Allow names the one it takes). */
export function methodsNotAllowed(path: string, allowed: (typeof HTTP_METHODS)[number]): Record<string, Schema> {
  return Object.fromEntries(
    HTTP_METHODS.filter((method) => method !== allowed).map((method) => [
      method,
      {
        tags: ['other methods'],
        summary: `${method.toUpperCase()} is not allowed: use ${allowed.toUpperCase()}`,
        operationId: `${operationIdOf(method, path)}NotAllowed`,
        responses: { 405: responseRef('method_not_allowed'), ...anyRequestResponses() },
      },
    ]),
  );
}

/**
 * `x-other-requests`: what a request that reaches no operation of the document gets (a path not
 * listed, or a method a listed path does not take): 404 not_found, or one of the errors of any request.
 */
export function otherRequests(): Schema {
  return {
    description:
      'A path not listed here, or a method a listed path does not take, answers 404 not_found (the admin pages under /admin, for operators, are not part of this API).',
    responses: { 404: responseRef('not_found'), ...anyRequestResponses() },
  };
}
