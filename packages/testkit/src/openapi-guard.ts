import type { AnswerCheck } from './openapi-answers.js';
import { answerBody, apiRegistry, checkerOf, isRegisteredApi } from './openapi-apis.js';

/**
 * Loading this module wraps this process's `fetch`: every answer a dialog-relay API gives it is
 * checked against the OpenAPI document that API serves, so tests and document cannot drift. The
 * mocha configurations require it (a root-hook plugin); the demo's test loads it into the demo with
 * `node --import`. An answer is an API's when its loopback origin was registered by the test kit
 * (registerApiUnderTest), or when it carries X-Request-Id and its origin serves the document. The
 * operator pages under /admin (login form, queue dashboard) are not part of the API: not checked.
 * A failing check makes fetch throw; it is also recorded, so a test that swallows the error fails
 * in the root afterEach hook (or, outside mocha, the process exits 1).
 */
type Fetch = typeof globalThis.fetch;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const violations: string[] = [];
const isOperatorPage = (path: string): boolean => path === '/admin' || path.startsWith('/admin/');

function recorded(error: unknown): Error {
  const failure = error instanceof Error ? error : new Error(String(error));
  violations.push(failure.message);
  return failure;
}

async function checkedFetch(input: Parameters<Fetch>[0], init?: Parameters<Fetch>[1]): Promise<Response> {
  const response = await apiRegistry.original(input, init);
  const url = new URL(response.url || (input instanceof Request ? input.url : String(input)));
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname) || isOperatorPage(url.pathname)) return response;
  const registered = isRegisteredApi(url.origin);
  if (!registered && !response.headers.has('x-request-id')) return response;
  let check: AnswerCheck | undefined;
  try {
    check = await checkerOf(url.origin);
  } catch (error) {
    if (registered) throw recorded(new Error(`OpenAPI: cannot read the document of ${url.origin}: ${(error as Error).message}`));
    return response;
  }
  if (check === undefined) return response;
  let text: string;
  try {
    text = await response.clone().text();
  } catch {
    return response; // aborted by the caller, who sees the same error reading the body
  }
  const method = response.redirected ? 'GET' : (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  try {
    check(
      { method, path: url.pathname },
      { status: response.status, headers: response.headers, body: answerBody(text, response.headers.get('content-type')) },
    );
  } catch (error) {
    throw recorded(error);
  }
  return response;
}

const current = globalThis.fetch as Fetch & { openApiGuard?: true };
if (current.openApiGuard !== true) globalThis.fetch = Object.assign(checkedFetch, { openApiGuard: true as const });

/** Mocha root hooks: a check failure the test swallowed (a caught fetch error) fails it here. */
export const mochaHooks = {
  afterEach(this: Mocha.Context): void {
    const pending = violations.splice(0);
    if (pending.length > 0 && this.currentTest?.state !== 'failed') {
      throw new Error(`answers the OpenAPI document does not describe:\n${pending.join('\n')}`);
    }
  },
};

process.on('exit', () => {
  if (violations.length === 0) return;
  process.stderr.write(`answers the OpenAPI document does not describe:\n${violations.join('\n')}\n`);
  process.exitCode = 1;
});
