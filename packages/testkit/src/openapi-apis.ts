import { answerChecker, mediaTypeOf, type AnswerCheck, type CheckedAnswer, type CheckedRequest } from './openapi-answers.js';

/**
 * Which loopback origins are dialog-relay APIs under test, and the checker of the OpenAPI document
 * each serves (GET /openapi.json, read once). Shared through globalThis, so the fetch guard
 * (openapi-guard.ts) and the test kit see the same registry however the module was loaded.
 */
const TITLE = 'dialog-relay Conversation Message API';

type Fetch = typeof globalThis.fetch;
interface Registry {
  /** The fetch before the guard wrapped it (documents are read with it). */
  original: Fetch;
  registered: Set<string>;
  /** Per origin: its checker, or undefined when the origin is not a dialog-relay API. Failed reads are not kept. */
  checkers: Map<string, Promise<AnswerCheck | undefined>>;
}
const KEY = Symbol.for('dialog-relay.openapi-apis');
export const apiRegistry: Registry = ((globalThis as unknown as Record<symbol, Registry | undefined>)[KEY] ??= {
  original: globalThis.fetch.bind(globalThis),
  registered: new Set(),
  checkers: new Map(),
});

/**
 * Marks a base URL as an API under test: every answer from its origin is checked (an API on a reused
 * port is read afresh). Returns the function that forgets it: call it when the API closes, or a
 * later server that the system gives the same port (a CLI listener, a receiver) is taken for an API.
 */
export function registerApiUnderTest(baseUrl: string): () => void {
  const origin = new URL(baseUrl).origin;
  apiRegistry.registered.add(origin);
  apiRegistry.checkers.delete(origin);
  return () => {
    apiRegistry.registered.delete(origin);
    apiRegistry.checkers.delete(origin);
  };
}

export const isRegisteredApi = (origin: string): boolean => apiRegistry.registered.has(origin);

/** The checker of the document the origin serves; undefined when it serves none (not a dialog-relay API). */
export function checkerOf(origin: string): Promise<AnswerCheck | undefined> {
  let checker = apiRegistry.checkers.get(origin);
  if (checker === undefined) {
    checker = (async () => {
      const response = await apiRegistry.original(`${origin}/openapi.json`);
      const text = await response.text();
      if (response.status !== 200 || mediaTypeOf(response.headers.get('content-type')) !== 'application/json') return undefined;
      const title = (JSON.parse(text) as { info?: { title?: unknown } }).info?.title;
      return title === TITLE ? answerChecker(text) : undefined;
    })();
    apiRegistry.checkers.set(origin, checker);
    checker.catch(() => apiRegistry.checkers.delete(origin));
  }
  return checker;
}

/** Checks one answer of the API at baseUrl against the document it serves; throws what the document does not describe. */
export async function checkAnswerAgainstOpenApi(baseUrl: string, request: CheckedRequest, answer: CheckedAnswer): Promise<void> {
  const origin = new URL(baseUrl).origin;
  const check = await checkerOf(origin).catch((error: unknown) => {
    throw new Error(`OpenAPI: cannot read the document of ${origin}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (check === undefined) throw new Error(`OpenAPI: ${origin} does not serve the dialog-relay OpenAPI document`);
  check(request, answer);
}

/** An answer's body as the checker wants it: parsed JSON for JSON media types, else the text; undefined when empty. */
export function answerBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  const media = mediaTypeOf(contentType);
  if (media !== 'application/json' && media?.endsWith('+json') !== true) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`OpenAPI: the answer says ${media} but its body is not JSON: ${text.slice(0, 200)}`);
  }
}
