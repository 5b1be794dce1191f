import { SERVICE_VERSION, type Config } from '@dialog-relay/config';
import { buildOpenApiDocument, DEFAULT_LIMITS } from '@dialog-relay/contracts';
import { signRequestBody } from '@dialog-relay/signing';

/** The test-vector secret of docs/integrating.md: the document's request examples are signed with it (client `demo`). */
export const EXAMPLE_SECRET = 'demo-secret';

type DocumentConfig = Pick<Config, 'limits' | 'timestampToleranceS' | 'idempotencyTtlS' | 'delivery' | 'replyMaxAgeMs'>;

/**
 * The OpenAPI document the API serves at GET /openapi.json for this configuration. The API builds it
 * once at start-up; `npm run openapi` writes it, for the default configuration, to docs/openapi.json.
 */
export function servedOpenApiDocument(config: DocumentConfig): Record<string, unknown> {
  return buildOpenApiDocument({
    limits: { ...config.limits, idMaxChars: DEFAULT_LIMITS.idMaxChars },
    timings: { timestampToleranceS: config.timestampToleranceS, idempotencyTtlS: config.idempotencyTtlS, deliveryTimeoutMs: config.delivery.timeoutMs, replyMaxAgeMs: config.replyMaxAgeMs },
    version: SERVICE_VERSION,
    signExample: (body) => signRequestBody(body, EXAMPLE_SECRET, 'hmac-sha256'),
  });
}

/** The committed document's text: 2-space JSON and a final newline. */
export const openApiFileText = (document: Record<string, unknown>): string => `${JSON.stringify(document, null, 2)}\n`;
