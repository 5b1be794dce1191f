import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;

/** A request as the checker needs it: the method and the path (no query). */
export interface CheckedRequest {
  method: string;
  path: string;
}

/** An answer as received: `body` is the parsed JSON, the text, or undefined when there was none. */
export interface CheckedAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Checks one answer against the document; throws an Error naming what the document does not describe. */
export type AnswerCheck = (request: CheckedRequest, answer: CheckedAnswer) => void;

const pointer = (...segments: string[]): string => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The media type of a Content-Type header, lower case, without its parameters. */
export const mediaTypeOf = (contentType: string | null): string | undefined =>
  contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
const isJson = (mediaType: string | undefined): boolean => mediaType === 'application/json' || mediaType?.endsWith('+json') === true;

interface Operation {
  pointer: string[];
  responses: Json;
}

/**
 * The operation a request reaches: its path (templated segments such as {file} match one segment)
 * and method; HEAD falls back to GET, as HTTP servers answer it. Anything else is described by the
 * document's `x-other-requests` (unknown paths, methods a path does not take).
 */
function operationOf(document: Json, request: CheckedRequest): Operation {
  const paths = (document['paths'] ?? {}) as Record<string, Json>;
  const method = request.method.toLowerCase();
  const templated = Object.keys(paths).filter((p) => p.includes('{'));
  const path =
    paths[request.path] !== undefined
      ? request.path
      : templated.find((p) =>
          new RegExp(
            `^${p
              .split(/\{[^}]+\}/)
              .map(escape)
              .join('[^/]+')}$`,
          ).test(request.path),
        );
  const item = path === undefined ? undefined : paths[path];
  const chosen =
    item === undefined
      ? undefined
      : item[method] !== undefined
        ? method
        : method === 'head' && item['get'] !== undefined
          ? 'get'
          : undefined;
  if (path !== undefined && chosen !== undefined) {
    return { pointer: ['paths', path, chosen, 'responses'], responses: (item![chosen] as Json)['responses'] as Json };
  }
  const other = document['x-other-requests'] as Json | undefined;
  if (other === undefined) throw new Error(`OpenAPI: ${request.method} ${request.path} is not documented`);
  return { pointer: ['x-other-requests', 'responses'], responses: other['responses'] as Json };
}

const compiled = new Map<string, { ajv: Ajv2020; validators: Map<string, ValidateFunction> }>();

/**
 * The checker of one OpenAPI document (shared by every API serving the same text): the status is
 * documented for the operation, the Content-Type is one the answer documents (and a body only where
 * one is), a JSON body matches its schema, X-Request-Id is present where documented, and
 * Retry-After / Idempotent-Replayed appear only where documented.
 */
export function answerChecker(documentText: string): AnswerCheck {
  const key = createHash('sha256').update(documentText).digest('hex');
  const document = JSON.parse(documentText) as Json;
  let schemas = compiled.get(key);
  if (schemas === undefined) {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: false });
    ajv.addSchema(document, 'openapi.json');
    schemas = { ajv, validators: new Map() };
    compiled.set(key, schemas);
  }
  const { ajv, validators } = schemas;

  return (request, answer) => {
    const where = `${request.method} ${request.path}`;
    const operation = operationOf(document, request);
    const status = String(answer.status);
    const responseKey = [status, `${status[0] ?? ''}XX`, 'default'].find((k) => operation.responses[k] !== undefined);
    if (responseKey === undefined) throw new Error(`OpenAPI: status ${answer.status} is not documented for ${where}`);
    let response = operation.responses[responseKey] as Json;
    let responsePointer = [...operation.pointer, responseKey];
    const reference = response['$ref'];
    if (typeof reference === 'string') {
      responsePointer = reference
        .replace(/^#\//, '')
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      response = responsePointer.reduce<unknown>((node, segment) => (node as Json)[segment], document) as Json;
    }

    const headers = response['headers'] as Json | undefined;
    const documented = new Set(Object.keys(headers ?? {}).map((h) => h.toLowerCase()));
    if (documented.has('x-request-id') && !answer.headers.has('x-request-id'))
      throw new Error(`OpenAPI: X-Request-Id is missing (${where} ${status})`);
    for (const header of ['retry-after', 'idempotent-replayed', 'allow']) {
      if (answer.headers.has(header) && !documented.has(header))
        throw new Error(`OpenAPI: ${header} is not documented for status ${status} of ${where}`);
    }

    const content = response['content'] as Json | undefined;
    const mediaType = mediaTypeOf(answer.headers.get('content-type'));
    const hasBody = answer.body !== undefined && answer.body !== '';
    if (content === undefined) {
      if (hasBody)
        throw new Error(
          `OpenAPI: the ${status} answer of ${where} has a body (${mediaType ?? 'no Content-Type'}) but the document describes none`,
        );
      return;
    }
    if (mediaType === undefined || content[mediaType] === undefined) {
      throw new Error(
        `OpenAPI: Content-Type ${mediaType ?? '(none)'} of the ${status} answer of ${where} is not documented (${Object.keys(content).join(', ')})`,
      );
    }
    if (!isJson(mediaType) || request.method.toUpperCase() === 'HEAD') return;
    const ref = `openapi.json#/${pointer(...responsePointer, 'content', mediaType, 'schema')}`;
    let validate = validators.get(ref);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    if (!validate(answer.body)) {
      throw new Error(
        `OpenAPI: the ${status} answer of ${where} does not match the document: ${ajv.errorsText(validate.errors, { separator: '; ' })}\n${JSON.stringify(answer.body).slice(0, 2000)}`,
      );
    }
  };
}
