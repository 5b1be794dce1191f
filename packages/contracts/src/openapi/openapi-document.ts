import { ERROR_STATUS, type ErrorCode } from '../error-codes.js';
import { DEFAULT_LIMITS, buildRequestSchema, type ValidationLimits } from '../message.schema.js';
import { ACCEPTED_EXAMPLE, DELIVERY_EXAMPLE, ERROR_EXAMPLES, SUCCESS_EXAMPLES, requestExampleBodies } from './examples.js';
import { ref, responseSchemas, successEnvelope } from './response-schemas.js';
import { methodsNotAllowed, otherRequests, sharedResponses } from './common-responses.js';
import { callbackPaths, operationsPaths } from './other-paths.js';
import { DEFAULT_TIMINGS, describeSeconds, type DocumentedTimings } from './timings.js';

export { DOCS_ASSETS } from './other-paths.js';
export type { DocumentedTimings } from './timings.js';

type Schema = Record<string, unknown>;

export interface OpenApiOptions {
  limits?: ValidationLimits;
  /** The configured timings the document states (defaults: the configuration's defaults). */
  timings?: Partial<DocumentedTimings>;
  /** The service version (info.version). */
  version: string;
  /** Signs an example request body (hmac-sha256); the examples use client `demo`. */
  signExample: (body: Record<string, unknown>) => string;
}

/** Codes the chat endpoint never answers (they belong to the admin routes or unknown paths). */
const NOT_FROM_CHAT: readonly ErrorCode[] = ['unauthorized', 'forbidden', 'not_found', 'method_not_allowed'];
const RETRY_AFTER_CODES: readonly ErrorCode[] = ['rate_limited', 'pending_limit', 'service_unavailable', 'request_in_progress'];

/**
 * The OpenAPI 3.1 document of the API, built from the same request schema the validator compiles
 * (buildRequestSchema), the error table (ERROR_STATUS) and the answer schemas: a change to one of
 * them changes the document. It describes every answer the API gives outside /admin, the operator
 * pages: each operation's own, the errors any request can get, 405 for another method on the chat
 * path and, in `x-other-requests`, 404 for anything else. Served at GET /openapi.json.
 */
export function buildOpenApiDocument(options: OpenApiOptions): Schema {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const timings: DocumentedTimings = { ...DEFAULT_TIMINGS, ...options.timings };
  const requestSchema = structuredClone(buildRequestSchema(limits));
  const examples = Object.fromEntries(
    Object.entries(requestExampleBodies()).map(([name, { summary, body }]) => [
      name,
      { summary, value: { ...body, signature: options.signExample(body) } },
    ]),
  );
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'dialog-relay Conversation Message API',
      version: options.version,
      description: [
        'One signed endpoint, four scenarios chosen by `message_info.event_type`. Every answer is one JSON envelope whose `code` repeats the HTTP status.',
        '',
        '**Signing**: the body carries `signature` = lowercase hex HMAC-SHA256 (key: the UTF-8 bytes of the client secret) of the RFC 8785 (JCS) form of the body without `signature`; legacy clients may use md5(secret + timestamp + client), which does not protect the body. `timestamp` must be within ' +
          String(timings.timestampToleranceS) +
          ' s of the server clock. The request examples are signed with the secret `demo-secret`.',
        '',
        '**auto_dialog** replies are POSTed to `send_url` as Standard Webhooks (see the callback `autoReply`).',
        '',
        '**Any other request** (a path not listed, or a method a listed path does not take) answers 404 `not_found`; any request may get 400 `bad_request`, 408 `request_timeout` or 431 `headers_too_large` from the HTTP server, or 500 `internal_error` (see `x-other-requests` and `components.responses`).',
      ].join('\n'),
    },
    servers: [{ url: '/', description: 'this service' }],
    tags: [
      { name: 'messages' },
      { name: 'operations' },
      { name: 'documentation' },
      { name: 'other methods', description: 'Any method but POST on the chat path answers 405.' },
    ],
    paths: {
      '/custom-im/chat-messages': {
        post: {
          operationId: 'postChatMessage',
          tags: ['messages'],
          summary: 'Send a message (assist, website, auto or cmd dialog)',
          parameters: [{ $ref: '#/components/parameters/RequestId' }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('ChatMessageRequest'), examples } } },
          responses: chatResponses(),
          callbacks: { autoReply: { $ref: '#/components/callbacks/AutoReply' } },
        },
        ...methodsNotAllowed('/custom-im/chat-messages', 'post'),
      },
      ...operationsPaths(),
    },
    'x-other-requests': otherRequests(),
    components: {
      schemas: {
        ChatMessageRequest: {
          ...requestSchema,
          description: 'The request body (the schema the API validates with; the cross-field rules are the 400 codes).',
        },
        ...responseSchemas(),
      },
      responses: sharedResponses(),
      parameters: {
        RequestId: {
          name: 'X-Request-Id',
          in: 'header',
          required: false,
          description: 'Echoed when it is 1–128 safe characters; else the service makes one.',
          schema: { type: 'string', maxLength: 128 },
        },
      },
      headers: {
        RequestId: { description: 'The request id (yours, or one the service made).', schema: { type: 'string' } },
        IdempotentReplayed: {
          description: `\`true\` when this is the stored first answer to a msg_id sent again within ${describeSeconds(timings.idempotencyTtlS)}.`,
          schema: { const: 'true' },
        },
        RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'string', pattern: '^[0-9]+$' } },
      },
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' } },
      callbacks: { AutoReply: callbackPaths(DELIVERY_EXAMPLE, timings) },
    },
  };
}

function chatResponses(): Record<string, Schema> {
  const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
  const successHeaders = { ...requestIdHeader, 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } };
  const responses: Record<string, Schema> = {
    200: {
      description: 'assist_dialog, website_dialog and cmd_dialog answers.',
      headers: successHeaders,
      content: {
        'application/json': {
          schema: successEnvelope(200, { oneOf: ['AssistData', 'WebsiteData', 'StopData', 'ResumeData', 'StatusData'].map(ref) }),
          examples: SUCCESS_EXAMPLES,
        },
      },
    },
    202: {
      description: 'auto_dialog accepted; a queued reply is delivered to send_url (callback autoReply).',
      headers: successHeaders,
      content: { 'application/json': { schema: successEnvelope(202, ref('AutoData')), example: ACCEPTED_EXAMPLE } },
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) {
    if (NOT_FROM_CHAT.includes(code)) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const retryAfter = codes.some((c) => RETRY_AFTER_CODES.includes(c));
    const examples = Object.fromEntries(Object.entries(ERROR_EXAMPLES).filter(([, e]) => e.value['code'] === status));
    responses[String(status)] = {
      description: `error: ${codes.map((c) => `\`${c}\``).join(', ')}`,
      headers: { ...requestIdHeader, ...(retryAfter ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}) },
      content: {
        'application/json': {
          schema: { allOf: [ref('ErrorEnvelope')], properties: { code: { const: status }, error: { enum: codes } } },
          ...(Object.keys(examples).length > 0 ? { examples } : {}),
        },
      },
    };
  }
  return responses;
}
