import { expect } from 'chai';
import canonicalize from 'canonicalize';
import { canonicalJson } from '../src/canonical-json.js';

/** What the signature covered before the one-pass form: the library's JCS of the body without "signature". */
const reference = (body: Record<string, unknown>): string | undefined =>
  canonicalize(Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'signature')));

/** Deterministic pseudo-random JSON values (numbers of every form, unicode, nesting). */
function randomValue(seed: { n: number }, depth: number): unknown {
  const next = (): number => (seed.n = (seed.n * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  const texts = ['', 'a', 'é', '退货', '返品したい', '\u2028\n"\\', '😀 emoji', '\u0000\u001f', 'Z', 'a\uD83D\uDE00b'];
  switch (pick) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return [0, -0, 1, -1, 1.5, 1e21, 1e-7, 123456789012345680000, 5e-324, 0.1 + 0.2, Number.MAX_SAFE_INTEGER][Math.floor(next() * 11)];
    case 3: return texts[Math.floor(next() * texts.length)];
    case 4: return Math.floor(next() * 1e9) / 7;
    case 5: return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(seed, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(next() * 5); i++) object[texts[Math.floor(next() * texts.length)] + String(i % 3)] = randomValue(seed, depth + 1);
      return object;
    }
  }
}

describe('canonical JSON of a request body (RFC 8785)', () => {
  it('is what the canonicalize library gives for the body without its signature, on 2,000 generated bodies', () => {
    const seed = { n: 42 };
    for (let i = 0; i < 2000; i++) {
      const body: Record<string, unknown> = { signature: 'x', b: randomValue(seed, 0), a: randomValue(seed, 0), 'é': randomValue(seed, 0) };
      expect(canonicalJson(body, 'signature')).to.equal(reference(body));
    }
  });

  it('orders keys by UTF-16 code units and leaves out only the top-level signature', () => {
    const body = { signature: 's', '\uD83D\uDE00': 1, '\uFB01': 2, b: { signature: 'kept' }, a: [{ z: 1, y: 2 }] };
    expect(canonicalJson(body, 'signature')).to.equal(reference(body));
    expect(canonicalJson(body, 'signature')).to.contain('"signature":"kept"');
  });

  it('refuses what JCS refuses: lone surrogates (in values and keys) and non-finite numbers', () => {
    for (const body of [{ a: 'x\uD800' }, { ['\uDC00']: 1 }, { a: [Number.POSITIVE_INFINITY] }, { a: Number.NaN }]) {
      expect(() => canonicalJson(body, 'signature')).to.throw();
      expect(() => reference(body)).to.throw();
    }
  });

  it('hands values JSON.parse never makes (toJSON, undefined) to the library, with the same result', () => {
    const body = { when: new Date(0), gone: undefined, list: [undefined, 1] };
    expect(canonicalJson(body, 'signature')).to.equal(reference(body));
  });
});
