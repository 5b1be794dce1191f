import { SERVICE_VERSION, type ClientSettings, type Config } from '@dialog-relay/config';
import { buildOpenApiDocument, DEFAULT_LIMITS } from '@dialog-relay/contracts';
import { signRequestBody } from '@dialog-relay/signing';

/** The test-vector secret of docs/integrating.md: the document's request examples are signed with it (client `demo`). */
export const EXAMPLE_SECRET = 'demo-secret';

/** The client the request examples name (`npm start`'s demo client has this id). */
const EXAMPLE_CLIENT = 'demo';

type DocumentConfig = Pick<Config, 'limits' | 'timestampToleranceS' | 'idempotencyTtlS' | 'delivery' | 'replyMaxAgeMs'> & {
  clients?: Config['clients'];
};

type Json = Record<string, unknown>;

/**
 * The OpenAPI document the API serves at GET /openapi.json for this configuration. The API builds it
 * once at start-up; `npm run openapi` writes it, for the default configuration, to docs/openapi.json.
 *
 * The request examples name client `demo`. Without such a client they are signed with the test-vector
 * secret `demo-secret` at a fixed timestamp (the document says so). When the service runs a `demo`
 * client (`npm start` without CLIENTS does), they are signed with that client's first secret and
 * scheme at `nowS`, so the API accepts them as they stand for `timestampToleranceS` after that
 * (servedOpenApiJson signs them afresh), e.g. from "Try it out" in /docs.
 */
export function servedOpenApiDocument(config: DocumentConfig, nowS = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  const document = buildOpenApiDocument({
    limits: { ...config.limits, idMaxChars: DEFAULT_LIMITS.idMaxChars },
    timings: {
      timestampToleranceS: config.timestampToleranceS,
      idempotencyTtlS: config.idempotencyTtlS,
      deliveryTimeoutMs: config.delivery.timeoutMs,
      replyMaxAgeMs: config.replyMaxAgeMs,
    },
    version: SERVICE_VERSION,
    signExample: (body) => signRequestBody(body, EXAMPLE_SECRET, 'hmac-sha256'),
  });
  const demo = config.clients?.get(EXAMPLE_CLIENT);
  if (demo !== undefined) signForDemoClient(document, demo, nowS, config.timestampToleranceS);
  return document;
}

/** Re-signs the request examples for the running demo client, and says so in the description and each summary. */
function signForDemoClient(document: Json, demo: ClientSettings, nowS: number, toleranceS: number): void {
  const secret = demo.secrets[0];
  if (secret === undefined) return;
  const post = ((document['paths'] as Record<string, Json | undefined>)['/custom-im/chat-messages'] as Record<string, Json> | undefined)?.[
    'post'
  ];
  const content = (
    post?.['requestBody'] as { content?: Record<string, { examples?: Record<string, { summary: string; value: Json }> }> } | undefined
  )?.content;
  const examples = content?.['application/json']?.examples ?? {};
  const note = ` (signed for the demo client this service runs with, ${demo.signatureScheme}, when this document was served: accepted for ${toleranceS} s after)`;
  for (const example of Object.values(examples)) {
    const fresh: Json = { ...example.value, timestamp: nowS };
    delete fresh['signature'];
    example.value = { ...fresh, signature: signRequestBody(fresh, secret, demo.signatureScheme) };
    example.summary += note;
  }
  const info = document['info'] as { description: string };
  info.description = info.description.replace(
    'The request examples are signed with the secret `demo-secret`.',
    `The request examples are signed with the secret of the demo client this service runs with (client \`demo\`, ${demo.signatureScheme}), when this document was served: they are accepted as they stand for ${toleranceS} s after (load the document again for fresh ones). Elsewhere they are signed with the test-vector secret \`demo-secret\`.`,
  );
}

/**
 * GET /openapi.json's text, built when first asked and again once a quarter of TIMESTAMP_TOLERANCE_S
 * (at most a minute) has passed, so the demo client's examples are always fresh enough to be accepted.
 */
export function servedOpenApiJson(config: DocumentConfig, nowMs: () => number = Date.now): () => string {
  const refreshMs = Math.min(60_000, config.timestampToleranceS * 250);
  let built: { atMs: number; json: string } | undefined;
  return () => {
    const now = nowMs();
    if (built === undefined || now - built.atMs >= refreshMs)
      built = { atMs: now, json: JSON.stringify(servedOpenApiDocument(config, Math.floor(now / 1000))) };
    return built.json;
  };
}

/** The committed document's text: 2-space JSON and a final newline. */
export const openApiFileText = (document: Record<string, unknown>): string => `${JSON.stringify(document, null, 2)}\n`;
