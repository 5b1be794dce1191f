import { expect } from 'chai';
import { bodyFor, CLIENTS, post, sign, startTestApi, type TestApi } from './support/test-api.js';

const NEVER_ALLOWED = [
  'http://169.254.169.254/latest/meta-data',
  'http://[fe80::1]/',
  'http://100.100.100.200/',
  'http://[fd00:ec2::254]/',
  'http://224.0.0.1/',
  'http://[ff02::1]/',
  'http://255.255.255.255/',
  'http://0.0.0.0:9/',
  'http://[::]:9/',
  'http://[::ffff:169.254.169.254]/',
];

/** docs/service-rules.md §16: ALLOW_PRIVATE_SEND_URLS opens loopback and private ranges, never link-local or metadata. */
describe('private send_urls', () => {
  describe('with ALLOW_PRIVATE_SEND_URLS=true', () => {
    let t: TestApi;
    before(async () => {
      t = await startTestApi({ ALLOW_PRIVATE_SEND_URLS: 'true' });
    });
    after(() => t.close());

    for (const sendUrl of NEVER_ALLOWED) {
      it(`still refuses ${sendUrl} with 400 send_url_forbidden`, async () => {
        const answer = await post(t.url, sign(bodyFor('auto_dialog', {}, { send_url: sendUrl })));
        expect(answer.status, JSON.stringify(answer.json)).to.equal(400);
        expect(answer.json['error']).to.equal('send_url_forbidden');
      });
    }

    it('accepts a loopback send_url', async () => {
      expect((await post(t.url, sign(bodyFor('auto_dialog', {}, { send_url: 'http://127.0.0.1:9/hook' })))).status).to.equal(202);
      expect((await post(t.url, sign(bodyFor('auto_dialog', {}, { send_url: 'http://[::1]:9/hook' })))).status).to.equal(202);
    });
  });

  describe('per client (allow_private_send_urls)', () => {
    let t: TestApi;
    before(async () => {
      t = await startTestApi({
        ALLOW_PRIVATE_SEND_URLS: 'false',
        CLIENTS: JSON.stringify({ ...CLIENTS, lab: { secret: 'lab-secret-000001', allow_private_send_urls: true } }),
      });
    });
    after(() => t.close());

    it('lets only that client use a loopback send_url', async () => {
      const lab = await post(
        t.url,
        sign(bodyFor('auto_dialog', {}, { client: 'lab', send_url: 'http://127.0.0.1:9/hook' }), 'lab-secret-000001'),
      );
      expect(lab.status, JSON.stringify(lab.json)).to.equal(202);
      const shop = await post(t.url, sign(bodyFor('auto_dialog', {}, { send_url: 'http://127.0.0.1:9/hook' })));
      expect(shop.status).to.equal(400);
      expect(shop.json['error']).to.equal('send_url_forbidden');
    });

    it('never opens the metadata address for that client', async () => {
      const answer = await post(
        t.url,
        sign(bodyFor('auto_dialog', {}, { client: 'lab', send_url: 'http://169.254.169.254/' }), 'lab-secret-000001'),
      );
      expect(answer.status).to.equal(400);
    });
  });
});
