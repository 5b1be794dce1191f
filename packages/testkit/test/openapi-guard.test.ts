import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mochaHooks } from '../src/openapi-guard.js';
import { registerApiUnderTest } from '../src/index.js';

/** A small document in the API's shape: one operation, the other-requests fallback, a closed answer. */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'dialog-relay Conversation Message API', version: 'test' },
  paths: {
    '/thing': {
      get: {
        responses: {
          200: {
            description: 'ok',
            headers: { 'X-Request-Id': { schema: { type: 'string' } } },
            content: {
              'application/json': {
                schema: { type: 'object', additionalProperties: false, required: ['ok'], properties: { ok: { const: true } } },
              },
            },
          },
        },
      },
    },
    '/files/{name}': { get: { responses: { 200: { description: 'a file', content: { 'text/css': { schema: { type: 'string' } } } } } } },
  },
  'x-other-requests': {
    responses: {
      404: {
        description: 'unknown',
        headers: { 'X-Request-Id': { schema: { type: 'string' } } },
        content: { 'application/json': { schema: { type: 'object', required: ['error'], properties: { error: { const: 'not_found' } } } } },
      },
    },
  },
};

type Handler = (path: string) => [number, Record<string, string>, string];

async function serve(handler: Handler): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(`${req.method ?? ''} ${path}`);
    const [status, headers, body] = handler(path);
    res.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const json = (status: number, body: unknown, extra: Record<string, string> = {}): [number, Record<string, string>, string] => [
  status,
  { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1', ...extra },
  JSON.stringify(body),
];

/** An API-like server: serves the document and answers each path as the table says. */
const api = (answers: Record<string, [number, Record<string, string>, string]>) =>
  serve((path) => (path === '/openapi.json' ? json(200, DOCUMENT) : (answers[path] ?? json(404, { error: 'not_found' }))));

const rejection = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: Error) => error.message,
  );

describe('openapi guard: every fetch answer of an API under test is checked against the document it serves', () => {
  it('passes a documented answer, a templated path and an unknown path answered as the fallback describes', async () => {
    const server = await api({ '/thing': json(200, { ok: true }), '/files/a.css': [200, { 'content-type': 'text/css' }, 'p{}'] });
    try {
      expect((await fetch(`${server.url}/thing`)).status).to.equal(200);
      expect((await fetch(`${server.url}/files/a.css`)).status).to.equal(200);
      expect((await fetch(`${server.url}/elsewhere`)).status).to.equal(404);
    } finally {
      await server.close();
    }
  });

  it('fails the fetch of an API answer whose body, status or Content-Type the document does not describe, without a registration', async () => {
    const server = await api({
      '/thing': json(200, { ok: true, extra: 1 }),
      '/teapot': json(200, { ok: true }),
      '/files/a.css': [200, { 'content-type': 'text/html', 'x-request-id': 'r-2' }, '<p>'],
    });
    try {
      expect(await rejection(fetch(`${server.url}/thing`))).to.match(/the 200 answer of GET \/thing does not match the document/);
      expect(await rejection(fetch(`${server.url}/teapot`))).to.match(/status 200 is not documented for GET \/teapot/);
      expect(await rejection(fetch(`${server.url}/files/a.css`))).to.match(/Content-Type text\/html .* is not documented/);
      // The document was read once, with the unwrapped fetch.
      expect(server.requests.filter((r) => r === 'GET /openapi.json')).to.have.length(1);
    } finally {
      mochaHooks.afterEach.call({ currentTest: { state: 'failed' } } as unknown as Mocha.Context);
      await server.close();
    }
  });

  it('checks a registered API even when an answer lacks X-Request-Id', async () => {
    const server = await api({ '/thing': [200, { 'content-type': 'application/json' }, JSON.stringify({ ok: true })] });
    try {
      expect((await fetch(`${server.url}/thing`)).status, 'unregistered: not recognised as an API answer').to.equal(200);
      registerApiUnderTest(server.url);
      expect(await rejection(fetch(`${server.url}/thing`))).to.match(/X-Request-Id is missing/);
    } finally {
      mochaHooks.afterEach.call({ currentTest: { state: 'failed' } } as unknown as Mocha.Context);
      await server.close();
    }
  });

  it('leaves an unregistered origin alone again, as when its port is later reused by another server', async () => {
    const server = await api({ '/thing': [200, { 'content-type': 'application/json' }, JSON.stringify({ ok: true })] });
    try {
      const forget = registerApiUnderTest(server.url);
      expect(await rejection(fetch(`${server.url}/thing`))).to.match(/X-Request-Id is missing/);
      forget();
      expect((await fetch(`${server.url}/thing`)).status).to.equal(200);
    } finally {
      mochaHooks.afterEach.call({ currentTest: { state: 'failed' } } as unknown as Mocha.Context);
      await server.close();
    }
  });

  it('leaves other servers and the operator pages under /admin alone', async () => {
    const receiver = await serve(() => [418, { 'x-request-id': 'x' }, 'not an API']);
    const server = await api({ '/admin/queues': [200, { 'content-type': 'text/html', 'x-request-id': 'r' }, '<html>'] });
    try {
      expect((await fetch(`${receiver.url}/hook`, { method: 'POST', body: '{}' })).status).to.equal(418);
      expect((await fetch(`${server.url}/admin/queues`)).status).to.equal(200);
      expect(server.requests).not.to.include('GET /openapi.json');
    } finally {
      await receiver.close();
      await server.close();
    }
  });

  it('fails the test in the root afterEach hook when the test swallowed the failing fetch', async () => {
    const server = await api({ '/thing': json(200, { ok: 'no' }) });
    try {
      expect(await rejection(fetch(`${server.url}/thing`))).to.match(/does not match/);
      expect(() => mochaHooks.afterEach.call({ currentTest: { state: 'passed' } } as unknown as Mocha.Context)).to.throw(
        /answers the OpenAPI document does not describe:\nOpenAPI: the 200 answer of GET \/thing/,
      );
      expect(
        () => mochaHooks.afterEach.call({ currentTest: { state: 'passed' } } as unknown as Mocha.Context),
        'reported once',
      ).not.to.throw();
    } finally {
      await server.close();
    }
  });
});
