import { expect } from 'chai';
import { bodyFor, post, sign, startTestApi, type TestApi } from './support/test-api.js';

describe('admin endpoints behind ADMIN_TOKEN', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ ADMIN_TOKEN: 'admin-token-123' });
  });
  after(() => t.close());

  const auth = { authorization: 'Bearer admin-token-123' };

  it('serves Prometheus metrics that count chat requests by event type', async () => {
    await post(t.url, sign(bodyFor('website_dialog')));
    const response = await fetch(`${t.url}/metrics`, { headers: auth });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.include('text/plain');
    const text = await response.text();
    expect(text).to.match(/dialog_relay_http_requests_total\{[^}]*status="200"[^}]*event_type="website_dialog"[^}]*\} [1-9]/);
    expect(text).to.include('dialog_relay_http_request_duration_seconds_bucket');
  });

  it('keeps metric labels bounded: unknown paths share one series', async () => {
    for (const path of ['/x1', '/x2', '/x3']) await fetch(`${t.url}${path}`);
    const text = await (await fetch(`${t.url}/metrics`, { headers: auth })).text();
    expect(text).to.not.include('/x1');
    expect(text).to.match(/route="other",status="404"/);
  });

  it('exposes the reply queue and the dead letters as gauges', async () => {
    await post(t.url, sign(bodyFor('auto_dialog', {}, { send_url: 'http://127.0.0.1:9/x' })));
    const text = await (await fetch(`${t.url}/metrics`, { headers: auth })).text();
    expect(text).to.match(/dialog_relay_queue_jobs\{state="(waiting|delayed)"\} [1-9]/);
    expect(text).to.match(/^dialog_relay_dead_letters_stored 0$/m);
  });

  it('serves the queue dashboard', async () => {
    const response = await fetch(`${t.url}/admin/queues`, { headers: auth });
    expect(response.status).to.equal(200);
    expect(await response.text()).to.match(/<html/i);
    const api = await fetch(`${t.url}/admin/queues/api/queues`, { headers: auth });
    expect(api.status).to.equal(200);
    expect(JSON.stringify(await api.json())).to.include('auto-replies');
  });

  it('refuses a wrong token on both with 401 in the envelope', async () => {
    for (const path of ['/metrics', '/admin/queues']) {
      const response = await fetch(`${t.url}${path}`, { headers: { authorization: 'Bearer wrong' } });
      expect(response.status, path).to.equal(401);
      expect(await response.json()).to.include({ error: 'unauthorized' });
    }
  });
});
