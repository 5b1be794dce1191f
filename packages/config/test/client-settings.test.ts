import { expect } from 'chai';
import { loadConfig, type Env } from '../src/index.js';
import { refusal } from './support/refusal.js';

const SECRET = 'shop-secret-0001';
/** Standard Webhooks form: whsec_ + base64 of `bytes` key bytes. */
const whsec = (bytes: number): string => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
const withShop = (settings: Record<string, unknown>, env: Env = {}): Env => ({
  ...env,
  CLIENTS: JSON.stringify({ shop: { secret: SECRET, ...settings } }),
});

/** docs/service-rules.md §10: a client that could never be served stops start-up, naming CLIENTS and the client. */
describe('CLIENTS checks at start-up', () => {
  describe('default_send_url', () => {
    for (const url of ['hooks.example/reply', '/reply', 'ftp://hooks.example/reply', 'javascript:alert(1)', 'http://', ' ']) {
      it(`refuses ${JSON.stringify(url)}: not an absolute http(s) URL`, () => {
        expect(refusal(withShop({ default_send_url: url }))).to.match(/^CLIENTS: client "shop": default_send_url /);
      });
    }

    it('refuses one longer than a request send_url may be', () => {
      expect(refusal(withShop({ default_send_url: `https://hooks.example/${'a'.repeat(2048)}` }))).to.match(
        /^CLIENTS: client "shop": default_send_url .*2048/,
      );
    });

    it('refuses a loopback or private address unless ALLOW_PRIVATE_SEND_URLS or the client allows it', () => {
      for (const url of ['http://127.0.0.1:9/reply', 'http://10.0.0.8/reply', 'http://[::1]/reply']) {
        expect(refusal(withShop({ default_send_url: url })), url).to.match(
          /^CLIENTS: client "shop": default_send_url .*(loopback|private) address.*allow_private_send_urls/,
        );
        expect(
          loadConfig(withShop({ default_send_url: url }, { ALLOW_PRIVATE_SEND_URLS: 'true' })).clients.get('shop')?.defaultSendUrl,
        ).to.equal(url);
        expect(loadConfig(withShop({ default_send_url: url, allow_private_send_urls: true })).clients.get('shop')?.defaultSendUrl).to.equal(
          url,
        );
      }
    });

    it('refuses link-local and metadata addresses even when private addresses are allowed', () => {
      for (const url of ['http://169.254.169.254/latest', 'http://[fd00:ec2::254]/x', 'http://0.0.0.0:8080/x', 'http://224.0.0.1/x']) {
        expect(
          refusal(withShop({ default_send_url: url, allow_private_send_urls: true }, { ALLOW_PRIVATE_SEND_URLS: 'true' })),
          url,
        ).to.match(/^CLIENTS: client "shop": default_send_url /);
      }
    });

    it('accepts an http(s) URL with a host name without resolving it (the API checks its addresses per request)', () => {
      const config = loadConfig(withShop({ default_send_url: 'https://hooks.example/reply?x=1' }));
      expect(config.clients.get('shop')?.defaultSendUrl).to.equal('https://hooks.example/reply?x=1');
    });

    it('does not echo the URL, which may carry a token', () => {
      expect(refusal(withShop({ default_send_url: 'ftp://user:token-123@hooks.example/' }))).not.to.include('token-123');
    });
  });

  describe('webhook_secret', () => {
    for (const [what, secret] of [
      ['an empty key after whsec_', 'whsec_'],
      ['characters outside base64 after whsec_', 'whsec_not*base64*at*all*not*base64*at*all'],
      ['base64url instead of base64', `whsec_${Buffer.alloc(24, 251).toString('base64url')}`],
      ['base64 of the wrong length', `whsec_${Buffer.alloc(24, 7).toString('base64')}A`],
      ['a key shorter than 16 bytes', whsec(15)],
      ['a plain secret shorter than 16 characters', 'fifteen-chars-x'],
    ] as const) {
      it(`refuses ${what}, without echoing it`, () => {
        const message = refusal(withShop({ webhook_secret: secret }));
        expect(message).to.match(/^CLIENTS: client "shop": webhook_secret /);
        if (secret.length > 'whsec_'.length) expect(message).not.to.include(secret.slice('whsec_'.length));
      });
    }

    it('accepts a whsec_ key of 16 bytes or more, padded or not, and a plain secret of 16 characters', () => {
      for (const secret of [whsec(16), whsec(24), whsec(64), 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'sixteen-chars-xx']) {
        expect(loadConfig(withShop({ webhook_secret: secret })).clients.get('shop')?.webhookSecret, secret).to.equal(secret);
      }
    });
  });

  describe('rate_limit_per_s', () => {
    for (const rate of [0.5, 0.999, 1.5, 0, -1, 1_000_001]) {
      it(`refuses ${rate}: the limit counts whole requests per second, 1 to 1000000`, () => {
        expect(refusal(withShop({ rate_limit_per_s: rate }))).to.match(/^CLIENTS: client "shop": \/?rate_limit_per_s /);
      });
    }

    it('accepts whole numbers from 1', () => {
      expect(loadConfig(withShop({ rate_limit_per_s: 1 })).clients.get('shop')?.rateLimitPerS).to.equal(1);
      expect(loadConfig(withShop({ rate_limit_per_s: 1_000_000 })).clients.get('shop')?.rateLimitPerS).to.equal(1_000_000);
    });
  });
});
