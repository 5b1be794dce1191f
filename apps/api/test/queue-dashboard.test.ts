import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { expectLoopbackOnly, keepOnLoopback, launchChromium, pageProblems } from './support/chromium.js';
import { startTestApi, type TestApi } from './support/test-api.js';

const READ = 'read-token-0123456789';
const WRITE = 'write-token-0123456789';

/** docs/service-rules.md §16: the dashboard is read-only for ADMIN_TOKEN, writable with ADMIN_WRITE_TOKEN, usable from a browser. */
describe('queue dashboard', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ ADMIN_TOKEN: READ, ADMIN_WRITE_TOKEN: WRITE });
  });
  after(() => t.close());

  const queueNames = async (): Promise<string[]> => {
    const answer = (await (await fetch(`${t.url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${READ}` } })).json()) as {
      queues: { name: string }[];
    };
    return answer.queues.map((queue) => queue.name);
  };
  const queueName = async (): Promise<string> => {
    const name = (await queueNames())[0];
    expect(name).to.be.a('string');
    return name ?? '';
  };

  it('lists the reply queue of every shard, each under its own name', async () => {
    const names = await queueNames();
    expect(t.config.redis.shards).to.be.greaterThan(1);
    expect(names).to.have.length(t.config.redis.shards);
    expect(new Set(names).size).to.equal(t.config.redis.shards);
  });
  const pause = (name: string, token: string): Promise<Response> =>
    fetch(`${t.url}/admin/queues/api/queues/${encodeURIComponent(name)}/pause`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
  const resume = (name: string, token: string): Promise<Response> =>
    fetch(`${t.url}/admin/queues/api/queues/${encodeURIComponent(name)}/resume`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });

  it('refuses the write actions with the read-only ADMIN_TOKEN (403)', async () => {
    const response = await pause(await queueName(), READ);
    expect(response.status).to.equal(403);
    expect(await response.json()).to.include({ code: 403, error: 'forbidden' });
  });

  it('shows the queue as read-only to the ADMIN_TOKEN holder', async () => {
    const answer = (await (await fetch(`${t.url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${READ}` } })).json()) as {
      queues: { readOnlyMode: boolean }[];
    };
    expect(answer.queues.every((queue) => queue.readOnlyMode)).to.equal(true);
  });

  it('allows the write actions with ADMIN_WRITE_TOKEN', async () => {
    const name = await queueName();
    expect((await pause(name, WRITE)).status).to.equal(200);
    expect((await resume(name, WRITE)).status).to.equal(200);
  });

  it('answers a browser without a token with 401 and a login form', async () => {
    const response = await fetch(`${t.url}/admin/queues`, { headers: { accept: 'text/html' } });
    expect(response.status).to.equal(401);
    expect(await response.text()).to.match(/<form[^>]+method="post"/i);
  });

  it('answers 401, not 404, when ADMIN_TOKEN is not set', async () => {
    const closed = await startTestApi();
    try {
      const response = await fetch(`${closed.url}/admin/queues`);
      expect(response.status).to.equal(401);
      expect(await response.json()).to.include({ error: 'unauthorized' });
    } finally {
      await closed.close();
    }
  });

  describe('in headless Chromium', () => {
    let browser: Browser;
    before(async () => {
      browser = await launchChromium();
    });
    after(() => browser.close());

    it('logs in with the token form, keeps the token in an HttpOnly SameSite=Strict cookie and shows the queues, contacting only 127.0.0.1', async () => {
      const context = await browser.newContext();
      const traffic = await keepOnLoopback(context, t.url);
      const page = await context.newPage();
      const problems = pageProblems(page);
      const first = await page.goto(`${t.url}/admin/queues`);
      expect(first?.status()).to.equal(401);
      await page.fill('input[name="token"]', READ);
      await Promise.all([page.waitForURL(`${t.url}/admin/queues`), page.click('button[type="submit"]')]);
      const names = await queueNames();
      for (const name of [names[0], names[names.length - 1]])
        await page
          .getByText(name ?? '')
          .first()
          .waitFor({ timeout: 20_000 });
      const cookies = await context.cookies(`${t.url}/admin/queues`);
      expect(cookies).to.have.length(1);
      expect(cookies[0]).to.include({ httpOnly: true, sameSite: 'Strict' });
      expect(cookies[0]?.value).to.not.include(READ);
      expect(await page.evaluate('document.cookie')).to.equal('');
      await context.close();
      expectLoopbackOnly(traffic, problems);
    });

    it('serves the dashboard with a Content-Security-Policy that allows only its own origin', async () => {
      const response = await fetch(`${t.url}/admin/queues`, { headers: { authorization: `Bearer ${READ}` } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-security-policy'))
        .to.match(/default-src 'self'/)
        .and.match(/connect-src 'self'/)
        .and.match(/style-src 'self'/);
      expect(await response.text()).to.not.match(/https?:\/\//);
    });

    it('keeps the login form up after a wrong token', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${t.url}/admin/queues`);
      await page.fill('input[name="token"]', 'wrong-token');
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.click('button[type="submit"]'),
      ]);
      expect(response.status()).to.equal(401);
      expect(await context.cookies()).to.have.length(0);
      await context.close();
    });
  });
});
