import { expect } from 'chai';
import { checkSendUrl, checkSendUrlStatically, rememberingStaticCheck } from '../src/index.js';
import { fakeResolver } from './fake-resolver.js';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

describe('rememberingStaticCheck', () => {
  const urls = [
    'http://93.184.216.34/hook',
    'http://127.0.0.1:9/hook',
    'http://[::ffff:10.0.0.1]/x',
    'http://169.254.169.254/latest',
    'https://public.test/hook',
    'ftp://93.184.216.34/x',
    'http://exa mple.com/',
    '',
  ];

  it('gives the verdict of checkSendUrlStatically for every text and policy, asked in any order', () => {
    const check = rememberingStaticCheck();
    for (const round of [1, 2]) {
      for (const policy of round === 1 ? [lenient, strict] : [strict, lenient]) {
        for (const raw of urls) {
          const verdict = check(raw, policy);
          const fresh = checkSendUrlStatically(raw, policy);
          expect(verdict.ok, `${raw} ${JSON.stringify(policy)}`).to.equal(fresh.ok);
          if (!verdict.ok && !fresh.ok) expect(verdict.reason, raw).to.equal(fresh.reason);
          if (verdict.ok && fresh.ok) expect(verdict.url.href).to.equal(fresh.url.href);
        }
      }
    }
    // the policy is part of what is remembered: loopback, allowed leniently, stays refused strictly
    expect(check('http://127.0.0.1:9/hook', lenient).ok).to.equal(true);
    expect(check('http://127.0.0.1:9/hook', strict).ok).to.equal(false);
  });

  it('remembers a text once per policy, and keeps no text longer than 512 characters', () => {
    const check = rememberingStaticCheck();
    const url = 'http://93.184.216.34/hook';
    expect(check(url, strict)).to.equal(check(url, strict));
    expect(check(url, lenient)).to.not.equal(check(url, strict));
    const long = `http://93.184.216.34/${'a'.repeat(600)}`;
    expect(check(long, strict).ok).to.equal(true);
    expect(check(long, strict)).to.not.equal(check(long, strict));
  });

  it('forgets everything past 1,000 texts, so random URLs cannot grow memory', () => {
    const check = rememberingStaticCheck();
    const first = check('http://93.184.216.34/first', strict);
    for (let i = 0; i < 999; i++) check(`http://93.184.216.34/${i}`, strict);
    expect(check('http://93.184.216.34/first', strict)).to.equal(first);
    check('http://93.184.216.34/one-more', strict);
    expect(check('http://93.184.216.34/first', strict)).to.not.equal(first);
  });

  it('is what checkSendUrl uses when given, host names still resolved and checked each time', async () => {
    const seen: string[] = [];
    const check = rememberingStaticCheck();
    const counting = (raw: string, policy: { allowPrivate: boolean }) => {
      seen.push(raw);
      return check(raw, policy);
    };
    const resolve = fakeResolver({ 'public.test': ['93.184.216.34'], 'inside.test': ['10.0.0.7'] });
    expect((await checkSendUrl('https://public.test/hook', strict, { resolve, checkStatically: counting })).ok).to.equal(true);
    const inside = await checkSendUrl('https://inside.test/hook', strict, { resolve, checkStatically: counting });
    expect(inside.ok).to.equal(false);
    expect(seen).to.deep.equal(['https://public.test/hook', 'https://inside.test/hook']);
  });
});
