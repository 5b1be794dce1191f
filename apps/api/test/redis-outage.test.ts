import { expect } from 'chai';
import { startRedisServer, redisServerInstalled, type RedisServerHandle } from '@dialog-relay/testkit';
import { bodyFor, post, sign, startTestApi, type TestApi } from './support/test-api.js';

describe('Redis outage', function () {
  let server: RedisServerHandle;
  let t: TestApi;
  before(async function () {
    if (!redisServerInstalled()) throw new Error('this test stops and restarts its own redis-server: install redis-server');
    server = await startRedisServer();
    t = await startTestApi({ REDIS_URL: server.url });
  });
  after(async () => {
    await t.close();
    await server.dispose();
  });

  it('answers 503 service_unavailable with Retry-After while Redis is down, never 500, and recovers', async () => {
    expect((await post(t.url, sign(bodyFor('website_dialog')))).status).to.equal(200);
    await server.stop();

    for (const eventType of ['website_dialog', 'assist_dialog', 'cmd_dialog', 'auto_dialog']) {
      const body =
        eventType === 'cmd_dialog'
          ? bodyFor(eventType, { content: 'auto_reply_status' })
          : eventType === 'auto_dialog'
            ? bodyFor(eventType, {}, { send_url: 'http://127.0.0.1:9/x' })
            : bodyFor(eventType);
      const answer = await post(t.url, sign(body));
      expect(answer.status, `${eventType}: ${JSON.stringify(answer.json)}`).to.equal(503);
      expect(answer.json).to.include({ code: 503, error: 'service_unavailable' });
      expect(answer.headers.get('retry-after')).to.match(/^\d+$/);
    }
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).to.equal(503);
    expect((await fetch(`${t.url}/healthz`)).status).to.equal(200);

    await server.start();
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await post(t.url, sign(bodyFor('website_dialog')))).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).to.equal(200);
    expect((await fetch(`${t.url}/readyz`)).status).to.equal(200);
  });

  it('answers 503 when Redis stalls (connected, answering nothing) once a command has waited its bound, and recovers', async () => {
    expect((await post(t.url, sign(bodyFor('website_dialog')))).status).to.equal(200);
    server.pause();
    try {
      const sent = performance.now();
      const answers = await Promise.all([
        post(t.url, sign(bodyFor('website_dialog'))),
        post(t.url, sign(bodyFor('cmd_dialog', { content: 'auto_reply_status' }))),
      ]);
      const waited = performance.now() - sent;
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.json)).to.equal(503);
        expect(answer.json).to.include({ code: 503, error: 'service_unavailable' });
      }
      // 2 s: the bound on one command of the API's shared Redis connection (redis-connection.ts)
      expect(waited, 'ms waited').to.be.at.least(2000);
    } finally {
      server.resume();
    }
    expect((await post(t.url, sign(bodyFor('website_dialog')))).status).to.equal(200);
  });

  it('keeps the connection of a request still being worked on past the idle time-out, and answers it', async () => {
    // docs/service-rules.md §16: the idle time-out closes connections without progress, not requests a handler still works on
    const impatient = await startTestApi({ REDIS_URL: server.url, HTTP_IDLE_TIMEOUT_MS: '300' });
    try {
      expect((await post(impatient.url, sign(bodyFor('website_dialog')))).status).to.equal(200);
      server.pause();
      try {
        const sent = performance.now();
        const answer = await post(impatient.url, sign(bodyFor('website_dialog')));
        expect(performance.now() - sent, 'ms waited: past the idle time-out').to.be.at.least(2000);
        expect(answer.status, JSON.stringify(answer.json)).to.equal(503);
        expect(answer.json).to.include({ code: 503, error: 'service_unavailable' });
      } finally {
        server.resume();
      }
      expect((await post(impatient.url, sign(bodyFor('website_dialog')))).status).to.equal(200);
    } finally {
      await impatient.close();
    }
  });
});
