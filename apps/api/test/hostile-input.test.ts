import { signMd5 } from '@dialog-relay/signing';
import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { bodyFor, nowS, post, sign, startTestApi, type TestApi } from './support/test-api.js';

/** How I tried to break the endpoint: every answer must be an envelope, and never a 500. */
describe('hostile input', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ BODY_LIMIT_BYTES: '200000' });
  });
  after(() => t.close());

  const send = async (body: string | Uint8Array, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
    const response = await fetch(`${t.url}/custom-im/chat-messages`, { method: 'POST', headers, body });
    const text = await response.text();
    return { status: response.status, text };
  };
  const expectEnvelope = (answer: { status: number; text: string }, label: string): void => {
    expect(answer.status, `${label}: ${answer.text.slice(0, 200)}`).to.be.oneOf([200, 202, 400, 401, 409, 413, 415, 429]);
    const json = JSON.parse(answer.text) as { code: number; request_id: string };
    expect(json.code, label).to.equal(answer.status);
    expect(json.request_id, label).to.be.a('string');
  };

  const hostile: [string, string][] = [
    ['huge exponent (Infinity after parsing)', '{"client":"shop","signature":"x","timestamp":1e400,"message_info":{}}'],
    [
      'Infinity inside an unknown member',
      JSON.stringify({ ...sign(bodyFor('website_dialog')) }).replace('"message_info":{', '"message_info":{"n":1e400,'),
    ],
    ['lone surrogate', '{"client":"shop\\ud800","signature":"x","timestamp":1,"message_info":{}}'],
    [
      '__proto__ member',
      '{"__proto__":{"polluted":true},"client":"shop","signature":"x","timestamp":1,"message_info":{"__proto__":{"x":1}}}',
    ],
    [
      'constructor.prototype member',
      '{"constructor":{"prototype":{"polluted":true}},"client":"shop","signature":"x","timestamp":1,"message_info":{}}',
    ],
    [
      'deeply nested unknown member',
      `{"client":"shop","signature":"x","timestamp":1,"message_info":{"deep":${'['.repeat(5000)}${']'.repeat(5000)}}}`,
    ],
    ['message_info null', '{"client":"shop","signature":"x","timestamp":1,"message_info":null}'],
    ['content as an array', JSON.stringify(bodyFor('website_dialog', { content: ['a'] }))],
    ['files_info as a string', JSON.stringify(bodyFor('website_dialog', { files_info: 'x' }))],
    ['files_info with null item', JSON.stringify(bodyFor('auto_dialog', { content: '', files_info: [null] }))],
    ['quote as a string with message_type 2', JSON.stringify(bodyFor('website_dialog', { message_type: 2, quote: 'x' }))],
    ['at_list of objects', JSON.stringify(bodyFor('auto_dialog', { at_list: [{}] }))],
    ['timestamp negative', JSON.stringify({ ...bodyFor('website_dialog'), timestamp: -1, signature: 'x' })],
    ['signature of 100k characters', JSON.stringify({ ...bodyFor('website_dialog'), signature: 'a'.repeat(100_000) })],
    ['client with control characters', JSON.stringify({ ...bodyFor('website_dialog'), client: 'sh\u0000op', signature: 'x' })],
    ['send_url with javascript:', JSON.stringify(sign(bodyFor('auto_dialog', {}, { send_url: 'javascript:alert(1)' })))],
    [
      'send_url to the metadata address',
      JSON.stringify(sign(bodyFor('auto_dialog', {}, { send_url: 'http://[::ffff:169.254.169.254]/' }))),
    ],
    ['duplicate keys', '{"client":"shop","client":"other","signature":"x","timestamp":1,"message_info":{}}'],
    ['empty object', '{}'],
    ['number', '42'],
    ['truncated', '{"client":'],
    ['BOM before JSON', '\ufeff{"client":"shop"}'],
    ['empty body', ''],
  ];
  for (const [label, body] of hostile) {
    it(`answers ${label} with an envelope, not a 500`, async () => {
      expectEnvelope(await send(body), label);
    });
  }

  it('answers a gzip body, a wrong charset and an unknown encoding with an envelope', async () => {
    const good = JSON.stringify(sign(bodyFor('website_dialog')));
    expectEnvelope(await send(gzipSync(good), { 'content-type': 'application/json', 'content-encoding': 'gzip' }), 'gzip');
    expectEnvelope(await send(good, { 'content-type': 'application/json; charset=latin1' }), 'latin1');
    expectEnvelope(await send(good, { 'content-type': 'application/json', 'content-encoding': 'br-nope' }), 'unknown encoding');
  });

  // An md5 signature does not cover the body, so ids that hmac-sha256 cannot sign (RFC 8785 refuses lone surrogates) reach the service.
  for (const eventType of ['website_dialog', 'assist_dialog']) {
    it(`answers an md5-signed ${eventType} whose msg_id holds a lone surrogate with 400 invalid_request, not 500`, async () => {
      const timestamp = nowS();
      const body = bodyFor(eventType, { msg_id: 'm-\ud800' }, { client: 'widget', timestamp });
      const answer = await post(t.url, { ...body, signature: signMd5('widget-secret-01', timestamp, 'widget') });
      expect(answer.status, JSON.stringify(answer.json)).to.equal(400);
      expect(answer.json.error).to.equal('invalid_request');
      expect(answer.json.errors).to.deep.equal([
        {
          path: '/message_info/msg_id',
          code: 'pattern',
          message: 'message_info.msg_id must be Unicode text: it holds a lone surrogate (such as \\ud800).',
        },
      ]);
    });
  }

  it('refuses a gzip bomb by its inflated size', async () => {
    const bomb = gzipSync(Buffer.from(`{"client":"${'a'.repeat(5_000_000)}"}`));
    const answer = await send(bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(answer.status).to.equal(413);
  });

  it('survives 300 random mutations of a valid body without a 500', async () => {
    let seed = 12345;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values: unknown[] = [null, true, 0, -1, 1.5, 2 ** 53, '', ' ', 'x'.repeat(300), [], {}, [1], { a: 1 }, '\u202e', '𝓤'];
    const mutate = (value: unknown, depth: number): unknown => {
      if (depth > 3 || value === null || typeof value !== 'object')
        return random() < 0.3 ? values[Math.floor(random() * values.length)] : value;
      const copy: Record<string, unknown> = Array.isArray(value) ? { ...value } : { ...(value as Record<string, unknown>) };
      for (const key of Object.keys(copy)) {
        const roll = random();
        if (roll < 0.1) delete copy[key];
        else copy[key] = mutate(copy[key], depth + 1);
      }
      return Array.isArray(value) ? Object.values(copy) : copy;
    };
    for (let i = 0; i < 300; i++) {
      const eventType = ['auto_dialog', 'assist_dialog', 'website_dialog', 'cmd_dialog'][i % 4]!;
      const mutated = mutate(
        bodyFor(
          eventType,
          eventType === 'cmd_dialog' ? { content: 'auto_reply_status' } : {},
          eventType === 'auto_dialog' ? { send_url: 'http://127.0.0.1:9/x' } : {},
        ),
        0,
      ) as Record<string, unknown>;
      const body = i % 2 === 0 ? sign(mutated) : mutated;
      expectEnvelope(await send(JSON.stringify(body)), `mutation ${i}: ${JSON.stringify(body).slice(0, 300)}`);
    }
  });
});
