import { signMd5 } from '@dialog-relay/signing';
import { expect } from 'chai';
import { connect } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { envelopeOf, parseRawAnswer, rawExchange } from './support/raw-http.js';
import { bodyFor, nowS, post, sign, startTestApi, type TestApi } from './support/test-api.js';

describe('ingress failures answered with the envelope', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi();
  });
  after(() => t.close());

  const sendRaw = async (body: Buffer | string, encoding: string): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(`${t.url}/custom-im/chat-messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      body,
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it('never echoes a body secret member in the 401 detail, writing {secret} instead', async () => {
    const timestamp = nowS();
    const body = { ...bodyFor('website_dialog', { version: '2.1' }, { client: 'widget', timestamp }), secret: 'widget-secret-01' };
    const answer = await post(t.url, { ...body, signature: signMd5('not-the-secret', timestamp, 'widget') });
    expect(answer.status).to.equal(401);
    expect(answer.json.detail).to.not.include('widget-secret-01');
    expect(answer.json.detail).to.include('"secret":"{secret}"');
  });

  it('never echoes a secret member holding an object, an array, a boolean or null in the 401 detail', async () => {
    const body = {
      ...bodyFor('website_dialog', { secret: ['leak-in-array'], nested: { secret: { key: 'leak-in-object' } } }),
      secret: true,
      extra: [{ secret: null }, { secret: 'leak-"quoted"\\' }],
    };
    const answer = await post(t.url, { ...body, signature: 'bad' });
    expect(answer.status).to.equal(401);
    const detail = answer.json.detail ?? '';
    expect(detail).to.not.include('leak-');
    expect(detail).to.not.match(/"secret":(true|null|\[|\{)/);
    expect(detail.match(/"secret":"\{secret\}"/g)).to.have.length(5);
  });

  it('never echoes the client secret found anywhere in the body in the 401 detail', async () => {
    const answer = await post(t.url, sign(bodyFor('website_dialog', { content: 'my key is shop-secret-0001, ok?' }), 'wrong-secret-xxxx'));
    expect(answer.status).to.equal(401);
    expect(answer.json.detail).to.not.include('shop-secret-0001');
    expect(answer.json.detail).to.include('my key is {secret}, ok?');
  });

  for (const encoding of ['gzip', 'deflate', 'br']) {
    it(`answers Content-Encoding: ${encoding} on a body not in that encoding with 400, not 500`, async () => {
      const answer = await sendRaw(JSON.stringify(sign(bodyFor('website_dialog'))), encoding);
      expect(answer.status).to.equal(400);
      expect(answer.json).to.include({ code: 400, error: 'malformed_json' });
    });
  }

  it('answers a truncated gzip body with 400, not 500', async () => {
    const gzip = gzipSync(JSON.stringify(sign(bodyFor('website_dialog'))));
    const answer = await sendRaw(gzip.subarray(0, gzip.length - 12), 'gzip');
    expect(answer.status).to.equal(400);
    expect(answer.json).to.include({ code: 400, error: 'malformed_json' });
  });

  it('still accepts a correctly deflated body', async () => {
    const answer = await sendRaw(deflateSync(JSON.stringify(sign(bodyFor('website_dialog')))), 'deflate');
    expect(answer.status).to.equal(200);
  });

  it('answers a valid md5 signature with a deeply nested unknown member with 400, not 500', async () => {
    const timestamp = nowS();
    const body = JSON.stringify({
      ...bodyFor('website_dialog', {}, { client: 'widget', timestamp }),
      signature: signMd5('widget-secret-01', timestamp, 'widget'),
    }).replace('"message_info":{', `"message_info":{"deep":${'['.repeat(200_000)}${']'.repeat(200_000)},`);
    const answer = await sendRaw(body, 'identity');
    expect(answer.status).to.equal(400);
    expect(answer.json).to.include({ code: 400, error: 'invalid_request' });
  });

  const postForm = async (form: string): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(`${t.url}/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it('answers a login form of more fields than it takes with 413 in the envelope, not 500', async () => {
    const fields = Array.from({ length: 11 }, (_, i) => `f${i}=x`).join('&');
    const answer = await postForm(`${fields}&token=wrong`);
    expect(answer.status).to.equal(413);
    expect(answer.json).to.include({ code: 413, error: 'payload_too_large', message: 'The form has more fields than it takes.' });
  });

  it("names the login form's own size limit in its 413, not the chat body limit", async () => {
    const answer = await postForm(`token=${'a'.repeat(5000)}`);
    expect(answer.status).to.equal(413);
    expect(answer.json).to.include({ code: 413, error: 'payload_too_large', message: 'The body is larger than 4096 bytes.' });
  });

  it('answers a path parameter that is not percent-encoded UTF-8 with 400 bad_request, not 500', async () => {
    const response = await fetch(`${t.url}/docs/assets/%ff`);
    expect(response.status).to.equal(400);
    expect(await response.json()).to.include({ code: 400, error: 'bad_request' });
  });

  it('answers 20 kB of request headers with a 431 envelope', async () => {
    const raw = await rawExchange(t.url, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const answer = envelopeOf(raw);
    expect(answer.statusLine).to.match(/^HTTP\/1\.1 431 /);
    expect(answer.headers).to.include('content-type: application/json');
    expect(answer.json).to.include({ code: 431, error: 'headers_too_large' });
    expect(answer.json['request_id']).to.be.a('string');
  });

  it('answers an HTTP/1.1 request without Host with a 400 envelope, not an empty answer', async () => {
    const answer = envelopeOf(await rawExchange(t.url, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(answer.statusLine).to.match(/^HTTP\/1\.1 400 /);
    expect(answer.json).to.include({ code: 400, error: 'bad_request', message: 'An HTTP/1.1 request needs a Host header.' });
  });

  it('serves a request whose Expect it does not know like any other, instead of an empty 417', async () => {
    const answer = envelopeOf(
      await rawExchange(t.url, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\nConnection: close\r\n\r\n'),
    );
    expect(answer.statusLine).to.match(/^HTTP\/1\.1 200 /);
    expect(answer.json).to.include({ code: 200, message: 'ok' });
  });

  it('answers CONNECT with a 400 envelope instead of dropping the connection', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(t.url).port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write('CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n');
    });
    const answer = parseRawAnswer(raw);
    expect(answer.status).to.equal(400);
    expect(answer.headers.get('content-type')).to.match(/^application\/json/);
    expect(JSON.parse(answer.body)).to.include({ code: 400, error: 'bad_request' });
  });

  it('answers bad HTTP framing with a 400 envelope', async () => {
    const raw = await rawExchange(t.url, 'POST /custom-im/chat-messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: twelve\r\n\r\n');
    const answer = envelopeOf(raw);
    expect(answer.statusLine).to.match(/^HTTP\/1\.1 400 /);
    expect(answer.json).to.include({ code: 400, error: 'bad_request' });
  });
});
