import { expect } from 'chai';
import { promises as dns } from 'node:dns';
import { bodyFor, post, sign, startTestApi, type TestApi } from './support/test-api.js';

/**
 * docs/service-rules.md §4: an auto_dialog send_url whose host is a name is resolved when the message
 * is accepted, and its addresses checked. The answer is remembered for a while: an integrator sends
 * every message to the same host, and a lookup per message costs CPU (and, through a cluster's DNS,
 * several queries and milliseconds) for the same answer. The worker resolves again when it connects.
 */
describe('send_url host names at accept time', () => {
  let t: TestApi;
  const lookups: string[] = [];
  const original = dns.lookup;
  before(async () => {
    // counts the API's lookups (this process's resolver); `localhost` answers from the hosts file, loopback only
    dns.lookup = ((hostname: string, options: object) => {
      lookups.push(hostname);
      return original(hostname, options as never);
    }) as typeof dns.lookup;
    t = await startTestApi({ ALLOW_PRIVATE_SEND_URLS: 'true' });
  });
  after(async () => {
    dns.lookup = original;
    await t.close();
  });

  it('looks a host up once for many accepted messages, in one conversation and in several', async () => {
    lookups.length = 0;
    for (let i = 0; i < 6; i++) {
      const answer = await post(
        t.url,
        sign(bodyFor('auto_dialog', { from_user_id: `customer-${i % 3}` }, { send_url: `http://localhost:9/hook-${i}` })),
      );
      expect(answer.status, JSON.stringify(answer.json)).to.equal(202);
    }
    expect(lookups.filter((host) => host === 'localhost')).to.have.length(1);
  });

  it("checks remembered addresses against each request's policy: a client that may not send to loopback is refused", async () => {
    const strict = await startTestApi({ ALLOW_PRIVATE_SEND_URLS: 'false' });
    try {
      lookups.length = 0;
      const sendUrl = 'http://localhost:9/hook';
      // `hub` may send to private addresses (allow_private_send_urls); `shop` may not
      const hub = await post(strict.url, sign(bodyFor('auto_dialog', {}, { client: 'hub', send_url: sendUrl }), 'hub-secret-00001'));
      expect(hub.status, JSON.stringify(hub.json)).to.equal(202);
      const shop = await post(strict.url, sign(bodyFor('auto_dialog', {}, { send_url: sendUrl })));
      expect(shop.status, JSON.stringify(shop.json)).to.equal(400);
      expect(shop.json.error).to.equal('send_url_forbidden');
      expect(lookups.filter((host) => host === 'localhost')).to.have.length(1);
    } finally {
      await strict.close();
    }
  });
});
