import { expect } from 'chai';
import { bodyFor, post, sign, startTestApi, type TestApi } from './support/test-api.js';

describe('admin endpoints behind ADMIN_TOKEN', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ ADMIN_TOKEN: 'admin-token-0123' });
  });
  after(() => t.close());

  const auth = { authorization: 'Bearer admin-token-0123' };

  it('serves Prometheus metrics that count chat requests by event type', async () => {
    await post(t.url, sign(bodyFor('website_dialog')));
    const response = await fetch(`${t.url}/metrics`, { headers: auth });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.include('text/plain');
    const text = await response.text();
    expect(text).to.match(/dialog_relay_http_requests_total\{[^}]*status="200"[^}]*event_type="website_dialog"[^}]*\} [1-9]/);
    expect(text).to.include('dialog_relay_http_request_duration_seconds_bucket');
  });

  // docs/service-rules.md §9: a repeated msg_id is not processed again, and no second reply is made;
  // a website_dialog reply from the message alone is made before admission, so it counts only once used.
  it('counts a reply once: not again for a repeated msg_id or an exact replay, though the engine answered it first', async () => {
    const answered = async (): Promise<number> => {
      const text = await (await fetch(`${t.url}/metrics`, { headers: auth })).text();
      return Number(/^dialog_relay_replies_total\{engine="knowledge",outcome="answered"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await answered();
    const body = bodyFor('website_dialog', { msg_id: `count-${Date.now()}`, content: 'When are you open?' });
    expect((await post(t.url, sign(body))).status).to.equal(200);
    expect(await answered()).to.equal(before + 1);
    const again = await post(t.url, sign({ ...body, timestamp: (body.timestamp as number) + 1 }));
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    // without a msg_id, the exact same signed request is refused
    const exact = sign(bodyFor('website_dialog', { content: 'When are you open?' }));
    expect((await post(t.url, exact)).status).to.equal(200);
    expect((await post(t.url, exact)).status).to.equal(409);
    expect(await answered()).to.equal(before + 2);
  });

  it('takes the Bearer scheme in any letter case (RFC 9110 §11.1)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const response = await fetch(`${t.url}/metrics`, { headers: { authorization: `${scheme} admin-token-0123` } });
      expect(response.status, scheme).to.equal(200);
    }
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

describe('failed admin authentication is rate-limited per source address', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ ADMIN_TOKEN: 'admin-token-0001', AUTH_FAILURES_PER_ADDRESS: '3', AUTH_FAILURE_WINDOW_S: '600' });
  });
  after(() => t.close());

  it('answers 429 with Retry-After once an address has sent too many wrong admin tokens, by header or the login form', async () => {
    const wrong = { authorization: 'Bearer guess-0001' };
    expect((await fetch(`${t.url}/metrics`, { headers: wrong })).status).to.equal(401);
    expect((await fetch(`${t.url}/admin/queues`, { headers: wrong })).status).to.equal(401);
    const login = await fetch(`${t.url}/admin/login`, {
      method: 'POST',
      body: new URLSearchParams({ token: 'guess-0002' }),
      redirect: 'manual',
    });
    expect(login.status).to.equal(401);
    for (const path of ['/metrics', '/admin/queues']) {
      const limited = await fetch(`${t.url}${path}`, { headers: wrong });
      expect(limited.status, path).to.equal(429);
      expect(limited.headers.get('retry-after'), path).to.match(/^[1-9]\d*$/);
      expect(await limited.json()).to.include({ error: 'rate_limited' });
    }
    const limitedLogin = await fetch(`${t.url}/admin/login`, {
      method: 'POST',
      body: new URLSearchParams({ token: 'guess-0003' }),
      redirect: 'manual',
    });
    expect(limitedLogin.status).to.equal(429);
  });

  it('counts a stale session cookie as a failure too, and keeps the ingress and requests without any admin credential unaffected', async () => {
    const own = await startTestApi({ ADMIN_TOKEN: 'admin-token-0002', AUTH_FAILURES_PER_ADDRESS: '3', AUTH_FAILURE_WINDOW_S: '600' });
    try {
      const stale = { cookie: 'dr_admin=read.c3RhbGUtc2Vzc2lvbi12YWx1ZQ' };
      for (let i = 0; i < 3; i++) expect((await fetch(`${own.url}/metrics`, { headers: stale })).status).to.equal(401);
      expect((await fetch(`${own.url}/metrics`, { headers: stale })).status).to.equal(429);
      expect((await fetch(`${own.url}/metrics`)).status).to.equal(401);
      expect((await post(own.url, sign(bodyFor('website_dialog')))).status).to.equal(200);
    } finally {
      await own.close();
    }
  });
});
