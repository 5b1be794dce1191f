import { anyRequestResponses, errorContent, requestIdHeader, retryAfterError } from './common-responses.js';
import { ref, successEnvelope } from './response-schemas.js';
import { describeSeconds, type DocumentedTimings } from './timings.js';

/** The files /docs serves from the swagger-ui-dist package, with their media types (the API serves exactly these). */
export const DOCS_ASSETS = Object.freeze({
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'text/javascript',
  'favicon-32x32.png': 'image/png',
} as const);

type Schema = Record<string, unknown>;
const json = (schema: Schema): Schema => ({ 'application/json': { schema } });
const text = (mediaType: string): Schema => ({ [mediaType]: { schema: { type: 'string' } } });
/** An operation's own answers, plus the errors any request can get. */
const answers = (own: Record<string, Schema>): Record<string, Schema> => ({ ...anyRequestResponses(), ...own });
const ok = (description: string, content: Schema): Schema => ({ description, headers: requestIdHeader, content });

/** Health, metrics and the documentation itself (with the files the rendered page loads). */
export function operationsPaths(): Record<string, Schema> {
  return {
    '/healthz': {
      get: {
        operationId: 'health',
        tags: ['operations'],
        summary: 'The process is alive',
        responses: answers({
          200: ok(
            'alive',
            json(
              successEnvelope(200, {
                type: 'object',
                additionalProperties: false,
                required: ['status'],
                properties: { status: { const: 'alive' } },
              }),
            ),
          ),
        }),
      },
    },
    '/readyz': {
      get: {
        operationId: 'ready',
        tags: ['operations'],
        summary: 'Redis answers and the process is not draining',
        responses: answers({
          200: ok(
            'ready',
            json(
              successEnvelope(200, {
                type: 'object',
                additionalProperties: false,
                required: ['status', 'redis'],
                properties: { status: { const: 'ready' }, redis: { const: 'ok' } },
              }),
            ),
          ),
          503: retryAfterError('not ready', ['service_unavailable']),
        }),
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['operations'],
        summary: 'Prometheus metrics',
        security: [{ adminToken: [] }],
        responses: answers({
          200: ok('Prometheus text format', text('text/plain')),
          401: {
            description: 'no or wrong token (a browser asking for HTML gets the login form)',
            headers: requestIdHeader,
            content: { ...errorContent(['unauthorized']), ...text('text/html') },
          },
          429: retryAfterError('too many wrong admin tokens from this address (AUTH_FAILURE* limits); wait Retry-After', ['rate_limited']),
          503: retryAfterError('Redis unreachable: the queue gauges cannot be read', ['service_unavailable']),
        }),
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        tags: ['documentation'],
        summary: 'This document',
        responses: answers({ 200: ok('OpenAPI 3.1', json({ type: 'object' })) }),
      },
    },
    '/docs': {
      get: {
        operationId: 'docs',
        tags: ['documentation'],
        summary: 'This document, rendered (served locally, no outside requests)',
        responses: answers({ 200: ok('HTML', text('text/html')) }),
      },
    },
    '/docs/init.js': {
      get: {
        operationId: 'docsInit',
        tags: ['documentation'],
        summary: 'The script that renders this document at /docs',
        responses: answers({ 200: ok('JavaScript', text('text/javascript')) }),
      },
    },
    '/docs/assets/{file}': {
      get: {
        operationId: 'docsAsset',
        tags: ['documentation'],
        summary: 'A file of the rendered page, from the swagger-ui-dist package',
        parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string', enum: Object.keys(DOCS_ASSETS) } }],
        responses: answers({
          200: ok('the file', Object.assign({}, ...[...new Set(Object.values(DOCS_ASSETS))].map(text)) as Schema),
          404: { $ref: '#/components/responses/NotFound' },
        }),
      },
    },
  };
}

const headerParam = (name: string, description: string, schema: Schema): Schema => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

/** The delivery of an auto_dialog reply to send_url (Standard Webhooks), as an OpenAPI callback. */
export function callbackPaths(example: Schema, timings: Pick<DocumentedTimings, 'deliveryTimeoutMs' | 'replyMaxAgeMs'>): Schema {
  const timeout = timings.deliveryTimeoutMs % 1000 === 0 ? `${timings.deliveryTimeoutMs / 1000} s` : `${timings.deliveryTimeoutMs} ms`;
  const maxAge = timings.replyMaxAgeMs % 1000 === 0 ? describeSeconds(timings.replyMaxAgeMs / 1000) : `${timings.replyMaxAgeMs} ms`;
  return {
    '{$request.body#/send_url}': {
      post: {
        summary: 'Reply delivered to your send_url (Standard Webhooks)',
        description: [
          "Sent to `send_url` (top level or in message_info) or the client's default send_url. Verify the signature over the **raw** body bytes before parsing: ",
          '`webhook-signature` lists space-separated `v1,<base64 HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")>`; the key is the base64-decoded rest of your `whsec_` webhook secret ',
          '(or the UTF-8 bytes of your request secret when none is set). Reject timestamps more than 300 s away. Deduplicate on `webhook-id`: delivery is at least once.',
          '',
          `Any 2xx is success. Network errors, time-outs (${timeout}), 408, 425, 429 and 5xx are retried with exponential backoff and full jitter (Retry-After honoured) until the reply is ${maxAge} old; anything else, 3xx included, is a permanent failure (dead letter).`,
        ].join('\n'),
        operationId: 'autoReplyDelivery',
        parameters: [
          headerParam('webhook-id', '= delivery_id; the same on every retry.', { type: 'string' }),
          headerParam('webhook-timestamp', 'Unix seconds of this attempt.', { type: 'string', pattern: '^[0-9]+$' }),
          headerParam('webhook-signature', 'One or more space-separated `v1,<base64>` signatures.', {
            type: 'string',
            pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$',
          }),
          headerParam('user-agent', 'dialog-relay-webhooks/<version>', { type: 'string' }),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('DeliveryPayload'), example } } },
        responses: {
          '2XX': { description: 'Accepted: the reply is delivered.' },
          408: { description: 'Retried.' },
          425: { description: 'Retried.' },
          429: {
            description: 'Retried, no sooner than Retry-After.',
            headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
          },
          '5XX': { description: 'Retried, no sooner than Retry-After when given.' },
          default: { description: 'Any other status (3xx and 4xx included): permanent failure, the reply becomes a dead letter.' },
        },
      },
    },
  };
}
