import { expect } from 'chai';
import { createClientStore } from '@dialog-relay/clients';
import { parseClientRecord } from '@dialog-relay/config';
import { createRedis, waitForRedis } from '@dialog-relay/redis';
import { signMd5 } from '@dialog-relay/signing';
import { bodyFor, msgId, nowS, post, sign, startTestApi, type TestApi } from './support/test-api.js';

describe('authentication, replay and idempotency over HTTP', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ ALLOW_PRIVATE_SEND_URLS: 'false' });
  });
  after(() => t.close());

  it('accepts a request signed with any active secret during a rotation', async () => {
    expect((await post(t.url, sign(bodyFor('website_dialog'), 'shop-secret-0001'))).status).to.equal(200);
    expect((await post(t.url, sign(bodyFor('website_dialog'), 'previous-secret1'))).status).to.equal(200);
  });

  it('authenticates a client kept in Redis (as the admin CLI stores it), not only one from CLIENTS', async () => {
    const redis = createRedis(t.config.redis, 'request', { name: 'auth-test' });
    try {
      await waitForRedis(redis, 5000);
      await createClientStore({ redis, keys: t.keys, defaultRateLimitPerS: 50 }).put(
        parseClientRecord('stored', { secret: 'stored-secret-01' }, 50),
      );
      const answer = await post(t.url, sign(bodyFor('website_dialog', {}, { client: 'stored' }), 'stored-secret-01'));
      expect(answer.status, JSON.stringify(answer.json)).to.equal(200);
      expect((await post(t.url, sign(bodyFor('website_dialog', {}, { client: 'stored' }), 'wrong'))).status).to.equal(401);
    } finally {
      redis.disconnect();
    }
  });

  it('refuses a wrong signature with 401 invalid_signature showing the string to sign, never the secret', async () => {
    const body = sign(bodyFor('website_dialog'), 'not-the-secret');
    const answer = await post(t.url, body);
    expect(answer.status).to.equal(401);
    expect(answer.json).to.include({ error: 'invalid_signature' });
    expect(answer.json.detail).to.include('"client":"shop"').and.include('{secret}');
    expect(answer.json.detail).to.not.include('"signature"');
    expect(JSON.stringify(answer.json)).to.not.include('shop-secret-0001');
  });

  it('answers an unknown client exactly like a wrong signature', async () => {
    const unknown = await post(t.url, sign(bodyFor('website_dialog', {}, { client: 'nobody' }), 'whatever'));
    const wrong = await post(t.url, sign(bodyFor('website_dialog'), 'whatever'));
    expect(unknown.status).to.equal(401);
    expect(unknown.json['error']).to.equal(wrong.json['error']);
    expect(unknown.json['message']).to.equal(wrong.json['message']);
  });

  it('detects a body changed after signing (hmac-sha256 covers message_info)', async () => {
    const body = sign(bodyFor('website_dialog'));
    (body.message_info as Record<string, unknown>)['content'] = 'tampered';
    expect((await post(t.url, body)).json['error']).to.equal('invalid_signature');
  });

  it('refuses a timestamp outside ±300 s with 401 timestamp_out_of_range naming the server time', async () => {
    const answer = await post(t.url, sign(bodyFor('website_dialog', {}, { timestamp: nowS() - 301 })));
    expect(answer.status).to.equal(401);
    expect(answer.json['error']).to.equal('timestamp_out_of_range');
    expect(answer.json.detail).to.match(/server time is \d+/);
  });

  it('accepts an md5 client that also sends secret and message_info.version, and never echoes the secret', async () => {
    const timestamp = nowS();
    const body = { ...bodyFor('website_dialog', { version: '2.1' }, { client: 'widget', timestamp }), secret: 'widget-secret-01' };
    const answer = await post(t.url, { ...body, signature: signMd5('widget-secret-01', timestamp, 'widget') });
    expect(answer.status, JSON.stringify(answer.json)).to.equal(200);
    expect(JSON.stringify(answer.json)).to.not.include('widget-secret-01');
  });

  it('refuses a replayed request with 409', async () => {
    const body = sign(bodyFor('website_dialog'));
    expect((await post(t.url, body)).status).to.equal(200);
    const again = await post(t.url, body);
    expect(again.status).to.equal(409);
    expect(again.json['error']).to.equal('replayed_request');
  });

  it('returns the first answer again for a repeated msg_id, with Idempotent-Replayed: true', async () => {
    const id = msgId('idem');
    const first = await post(t.url, sign(bodyFor('website_dialog', { msg_id: id })));
    const second = await post(t.url, sign(bodyFor('website_dialog', { msg_id: id, content: 'something else' })));
    expect(first.status).to.equal(200);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    expect(second.status).to.equal(200);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.json).to.deep.equal(first.json);
    const exact = await post(t.url, sign(bodyFor('website_dialog', { msg_id: id })));
    expect(exact.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('refuses a send_url on a private address when private targets are not allowed', async () => {
    const answer = await post(t.url, sign(bodyFor('auto_dialog', {}, { send_url: 'http://127.0.0.1:8080/hook' })));
    expect(answer.status).to.equal(400);
    expect(answer.json['error']).to.equal('send_url_forbidden');
    expect(answer.json.detail).to.include('loopback');
  });

  it('echoes a safe X-Request-Id and replaces an unsafe one', async () => {
    const echoed = await post(t.url, sign(bodyFor('website_dialog')), { 'x-request-id': 'trace-123' });
    expect(echoed.headers.get('x-request-id')).to.equal('trace-123');
    expect(echoed.json['request_id']).to.equal('trace-123');
    const replaced = await post(t.url, sign(bodyFor('website_dialog')), { 'x-request-id': 'bad id with spaces' });
    expect(replaced.headers.get('x-request-id')).to.not.equal('bad id with spaces');
    expect(replaced.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('keeps /metrics closed without the admin token', async () => {
    const response = await fetch(`${t.url}/metrics`);
    expect(response.status).to.equal(401);
    expect(await response.json()).to.include({ error: 'unauthorized' });
  });
});
