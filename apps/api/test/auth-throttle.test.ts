import { expect } from 'chai';
import { createAuthThrottle } from '../src/http/auth-throttle.js';
import { bodyFor, post, sign, startTestApi, type TestApi } from './support/test-api.js';

/** docs/service-rules.md §16: failed authentication is rate-limited per client id and per source address. */
describe('failed-authentication throttle', () => {
  describe('per source address', () => {
    let t: TestApi;
    before(async () => {
      t = await startTestApi({ AUTH_FAILURES_PER_ADDRESS: '5', AUTH_FAILURES_PER_CLIENT: '1000' });
    });
    after(() => t.close());

    it('answers 429 with Retry-After once an address has failed too often, even for a good signature', async () => {
      const clients = ['shop', 'tiny', 'hub', 'nobody', 'nobody-else'];
      for (const client of clients) {
        const answer = await post(t.url, sign(bodyFor('website_dialog', {}, { client }), 'wrong-secret-xxxx'));
        expect(answer.status, client).to.equal(401);
      }
      const throttled = await post(t.url, sign(bodyFor('website_dialog'), 'wrong-secret-xxxx'));
      expect(throttled.status).to.equal(429);
      expect(throttled.json).to.include({ code: 429, error: 'rate_limited' });
      expect(Number(throttled.headers.get('retry-after'))).to.be.within(1, 60);
      expect((await post(t.url, sign(bodyFor('website_dialog')))).status).to.equal(429);
    });
  });

  describe('per IPv6 /64', () => {
    let t: TestApi;
    before(async () => {
      // Behind a proxy on loopback: X-Forwarded-For names the caller (only a header; nothing is sent there).
      t = await startTestApi({ TRUST_PROXY: 'loopback', AUTH_FAILURES_PER_ADDRESS: '3', AUTH_FAILURES_PER_CLIENT: '1000' });
    });
    after(() => t.close());

    it('counts the failures of every address of one IPv6 /64 together, and no other /64', async () => {
      for (const from of ['2001:db8:1:2::a', '2001:db8:1:2::b', '2001:db8:1:2:ffff:1:2:3']) {
        expect(
          (await post(t.url, sign(bodyFor('website_dialog'), 'wrong-secret-xxxx'), { 'x-forwarded-for': from })).status,
          from,
        ).to.equal(401);
      }
      const sameNetwork = await post(t.url, sign(bodyFor('website_dialog')), { 'x-forwarded-for': '2001:db8:1:2::c' });
      expect(sameNetwork.status).to.equal(429);
      expect((await post(t.url, sign(bodyFor('website_dialog')), { 'x-forwarded-for': '2001:db8:1:3::a' })).status).to.equal(200);
    });
  });

  describe('per client id', () => {
    let t: TestApi;
    before(async () => {
      t = await startTestApi({ AUTH_FAILURES_PER_CLIENT: '3', AUTH_FAILURES_PER_ADDRESS: '1000' });
    });
    after(() => t.close());

    it('answers 429 for a client id that failed too often, and serves other clients', async () => {
      for (let i = 0; i < 3; i++)
        expect((await post(t.url, sign(bodyFor('website_dialog', {}, { client: 'tiny' }), 'wrong-secret-xxxx'))).status).to.equal(401);
      const throttled = await post(t.url, sign(bodyFor('website_dialog', {}, { client: 'tiny' }), 'wrong-secret-xxxx'));
      expect(throttled.status).to.equal(429);
      expect(throttled.headers.get('retry-after')).to.match(/^\d+$/);
      expect((await post(t.url, sign(bodyFor('website_dialog')))).status).to.equal(200);
    });

    it('still serves a valid request of a client whose id another address keeps failing for, answering the failures 429', async () => {
      const t2 = await startTestApi({ TRUST_PROXY: 'loopback', AUTH_FAILURES_PER_CLIENT: '3', AUTH_FAILURES_PER_ADDRESS: '1000' });
      try {
        const attacker = { 'x-forwarded-for': '203.0.113.9' };
        for (let i = 0; i < 3; i++)
          expect((await post(t2.url, sign(bodyFor('website_dialog'), 'wrong-secret-xxxx'), attacker)).status).to.equal(401);
        const throttled = await post(t2.url, sign(bodyFor('website_dialog'), 'wrong-secret-xxxx'), attacker);
        expect(throttled.status).to.equal(429);
        expect(Number(throttled.headers.get('retry-after'))).to.be.within(1, 60);
        expect((await post(t2.url, sign(bodyFor('website_dialog')))).status).to.equal(200);
        expect((await post(t2.url, sign(bodyFor('website_dialog')), { 'x-forwarded-for': '198.51.100.4' })).status).to.equal(200);
        expect((await post(t2.url, sign(bodyFor('website_dialog'), 'wrong-secret-xxxx'))).status).to.equal(429);
      } finally {
        await t2.close();
      }
    });

    it('throttles an unknown client id like a known one', async () => {
      for (let i = 0; i < 3; i++)
        expect((await post(t.url, sign(bodyFor('website_dialog', {}, { client: 'ghost' }), 'wrong-secret-xxxx'))).status).to.equal(401);
      expect((await post(t.url, sign(bodyFor('website_dialog', {}, { client: 'ghost' }), 'wrong-secret-xxxx'))).status).to.equal(429);
    });
  });
});

describe('failed-authentication throttle: the caller address', () => {
  it('is not worked out for a request while no failure is counted, and is once one is', async () => {
    const throttle = createAuthThrottle({ perClient: 1000, perAddress: 2, windowS: 60 });
    let reads = 0;
    const address = (): string => {
      reads += 1;
      return '203.0.113.7';
    };
    for (let i = 0; i < 5; i++) expect(await throttle.addressWait(address)).to.equal(undefined);
    expect(reads, 'reads before any failure').to.equal(0);
    expect(await throttle.failed({ client: 'shop', sourceAddress: address })).to.equal(undefined);
    expect(reads, 'the failure counted against the address').to.equal(1);
    expect(await throttle.addressWait(address)).to.equal(undefined);
    expect(await throttle.failed({ client: 'shop', sourceAddress: address })).to.equal(undefined);
    expect(await throttle.addressWait(address)).to.be.within(1, 60);
    expect(reads).to.equal(4);
  });
});
