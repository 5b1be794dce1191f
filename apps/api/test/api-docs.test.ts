import { expect } from 'chai';
import { answerBody, checkAnswerAgainstOpenApi } from '@dialog-relay/testkit';
import type { Browser } from 'playwright-core';
import { expectLoopbackOnly, keepOnLoopback, launchChromium, pageProblems } from './support/chromium.js';
import { startTestApi, type TestApi } from './support/test-api.js';

describe('API reference at GET /docs', () => {
  let t: TestApi;
  let browser: Browser;
  before(async () => {
    t = await startTestApi();
    browser = await launchChromium();
  });
  after(async () => {
    await browser.close();
    await t.close();
  });

  it('serves the page and its assets from the service itself, with a same-origin-only CSP', async () => {
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy'))
      .to.match(/default-src 'self'/)
      .and.match(/connect-src 'self'/);
    const html = await page.text();
    expect(html).not.to.match(/https?:\/\//);
    for (const asset of ['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/init.js']) {
      expect((await fetch(`${t.url}${asset}`)).status, asset).to.equal(200);
    }
    expect((await fetch(`${t.url}/docs/assets/swagger-initializer.js`)).status).to.equal(404);
  });

  it('renders the endpoint and the send_url callback in Chromium, contacting only 127.0.0.1', async () => {
    const context = await browser.newContext();
    const traffic = await keepOnLoopback(context, t.url);
    // What the browser receives from the API is checked against the document too, as the tests' fetch answers are.
    const answers: Promise<void>[] = [];
    context.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin !== t.url) return;
      answers.push(
        (async () => {
          const headers = new Headers(await response.allHeaders());
          const text = response.request().method() === 'HEAD' ? '' : (await response.body()).toString('utf8');
          await checkAnswerAgainstOpenApi(
            t.url,
            { method: response.request().method(), path: url.pathname },
            { status: response.status(), headers, body: answerBody(text, headers.get('content-type')) },
          );
        })(),
      );
    });
    const page = await context.newPage();
    const problems = pageProblems(page);
    try {
      await page.goto(`${t.url}/docs`);
      const operation = page.locator('.opblock-post .opblock-summary-path', { hasText: '/custom-im/chat-messages' });
      await operation.waitFor({ timeout: 20_000 });
      await operation.click();
      await page.locator('.opblock .tab-header .tab-item', { hasText: 'Callbacks' }).first().click();
      await page.getByText('{$request.body#/send_url}').first().waitFor({ timeout: 10_000 });
      expect(await page.getByText('autoReply').count()).to.be.greaterThan(0);
      expect(await page.getByText('dialog-relay Conversation Message API').count()).to.be.greaterThan(0);
      await Promise.all(answers);
    } finally {
      await context.close();
    }
    expect(answers.length, 'answers the browser received from the API').to.be.at.least(4);
    expectLoopbackOnly(traffic, problems);
  });
});
