import { expect } from 'chai';
import { checkSendUrl, type Resolver, type SendUrlVerdict } from '../src/index.js';
import { fakeResolver } from './fake-resolver.js';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };
const resolve = fakeResolver({
  'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'mixed.test': ['93.184.216.34', '10.0.0.7'],
  'empty.test': [],
});

function reasonOf(verdict: SendUrlVerdict): string {
  expect(verdict.ok, 'verdict should be a refusal').to.equal(false);
  return verdict.ok ? '' : verdict.reason;
}

describe('checkSendUrl', () => {
  describe('URL shape', () => {
    it('refuses non-http schemes', async () => {
      expect(reasonOf(await checkSendUrl('ftp://93.184.216.34/x', strict))).to.equal('send_url must use http or https');
      expect(reasonOf(await checkSendUrl('javascript:alert(1)', strict))).to.equal('send_url must use http or https');
      expect(reasonOf(await checkSendUrl('file:///etc/passwd', lenient))).to.equal('send_url must use http or https');
    });

    it('refuses relative, malformed and empty URLs', async () => {
      for (const raw of ['/hooks/reply', 'hooks/reply', 'http://exa mple.com/', 'http://[::1/', 'https://']) {
        expect(reasonOf(await checkSendUrl(raw, lenient, { resolve })), raw).to.equal('send_url must be a valid absolute URL');
      }
      expect(reasonOf(await checkSendUrl('', lenient))).to.equal('send_url must be a non-empty string');
    });

    it('refuses URLs longer than 2048 characters and accepts exactly 2048', async () => {
      const base = 'http://93.184.216.34/';
      const long = await checkSendUrl(base + 'a'.repeat(2049 - base.length), strict);
      expect(reasonOf(long)).to.equal('send_url must be at most 2048 characters');
      expect((await checkSendUrl(base + 'a'.repeat(2048 - base.length), strict)).ok).to.equal(true);
    });

    it('allows user-info in the URL', async () => {
      const verdict = await checkSendUrl('https://user:secret@public.test/hook', strict, { resolve });
      expect(verdict.ok).to.equal(true);
    });
  });

  describe('address policy', () => {
    const refused = [
      '127.0.0.1',
      '[::1]',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '[fd00:ec2::254]',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:10.0.0.1]',
    ];
    for (const host of refused) {
      it(`refuses the literal ${host} without asking DNS`, async () => {
        const noDns: Resolver = () => Promise.reject(new Error('DNS must not be used for IP literals'));
        const reason = reasonOf(await checkSendUrl(`http://${host}:8080/reply`, strict, { resolve: noDns }));
        expect(reason).to.match(/^send_url resolves to an? .+ address \(.+\)$/);
      });
    }

    it('names the range and address in the reason', async () => {
      expect(reasonOf(await checkSendUrl('http://127.0.0.1/', strict))).to.equal('send_url resolves to a loopback address (127.0.0.1)');
      expect(reasonOf(await checkSendUrl('http://[::ffff:10.0.0.1]/', strict))).to.equal(
        'send_url resolves to a private address (::ffff:a00:1)',
      );
    });

    it('refuses decimal and hex IPv4 spellings once the URL parser normalises them', async () => {
      for (const raw of ['http://2130706433/', 'http://0x7f.1/', 'http://0/']) {
        expect(reasonOf(await checkSendUrl(raw, strict)), raw).to.match(/(loopback|unspecified) address/);
      }
    });

    it('refuses a hostname when any one of its addresses is private', async () => {
      expect(reasonOf(await checkSendUrl('https://mixed.test/hook', strict, { resolve }))).to.equal(
        'send_url resolves to a private address (10.0.0.7)',
      );
    });

    it('refuses localhost through the real resolver', async () => {
      expect(reasonOf(await checkSendUrl('http://localhost:3000/', strict))).to.match(/loopback address/);
    });

    it('accepts public IPv4 and IPv6 literals', async () => {
      const v4 = await checkSendUrl('http://93.184.216.34/hook', strict);
      const v6 = await checkSendUrl('https://[2606:2800:220:1:248:1893:25c8:1946]:8443/hook', strict);
      expect(v4).to.deep.include({ ok: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
      expect(v6).to.deep.include({ ok: true, addresses: [{ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }] });
    });

    it('accepts a hostname whose addresses are all public and returns them with the parsed URL', async () => {
      const verdict = await checkSendUrl('https://public.test/hook?x=1', strict, { resolve });
      expect(verdict.ok).to.equal(true);
      if (!verdict.ok) return;
      expect(verdict.url.href).to.equal('https://public.test/hook?x=1');
      expect(verdict.addresses.map((a) => a.address)).to.deep.equal(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    });

    it('accepts loopback and localhost when private targets are allowed', async () => {
      expect((await checkSendUrl('http://127.0.0.1:8080/', lenient)).ok).to.equal(true);
      expect((await checkSendUrl('http://localhost:8080/', lenient)).ok).to.equal(true);
    });
  });

  describe('resolution', () => {
    it('refuses a host that does not resolve, even with private targets allowed', async () => {
      expect(reasonOf(await checkSendUrl('https://nowhere.test/', lenient, { resolve }))).to.equal(
        'send_url host nowhere.test does not resolve',
      );
      expect(reasonOf(await checkSendUrl('https://empty.test/', lenient, { resolve }))).to.equal(
        'send_url host empty.test does not resolve',
      );
    });

    it('refuses a host whose resolver is slower than timeoutMs', async () => {
      let timer: NodeJS.Timeout | undefined;
      const slow: Resolver = () =>
        new Promise((done) => {
          timer = setTimeout(() => done([{ address: '93.184.216.34', family: 4 }]), 1000);
        });
      const started = Date.now();
      const verdict = await checkSendUrl('https://slow.test/', strict, { resolve: slow, timeoutMs: 50 });
      clearTimeout(timer);
      expect(reasonOf(verdict)).to.equal('send_url host slow.test did not resolve within 50 ms');
      expect(Date.now() - started).to.be.below(900);
    });

    it('refuses (rather than throws) when the resolver throws synchronously', async () => {
      const broken: Resolver = () => {
        throw new Error('boom');
      };
      expect(reasonOf(await checkSendUrl('https://broken.test/', strict, { resolve: broken }))).to.match(/does not resolve/);
    });
  });
});
