import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { hmacSha256, hmacSha256Key } from '../src/hmac-sha256.js';
import { seededRandom } from './seeded-random.js';

// ASCII, Latin, Cyrillic, CJK, an astral emoji, a lone surrogate (UTF-8 writes it as U+FFFD either way)
const ALPHABET = ['a', 'Z', '0', ' ', '{', '"', '\\', 'é', 'ж', '密', '🔑', '\uD800', '\n'];

function text(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(random() * ALPHABET.length)] ?? '';
  return out;
}

function bytes(random: () => number, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

describe('HMAC-SHA256 over one-shot hashes', () => {
  it('gives the RFC 4231 results: a short key, a text key, binary data, a key longer than a block', () => {
    const cases: [string | Buffer, string | Buffer, string][] = [
      [Buffer.alloc(20, 0x0b), 'Hi There', 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
      ['Jefe', 'what do ya want for nothing?', '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'],
      [Buffer.alloc(20, 0xaa), Buffer.alloc(50, 0xdd), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
      [
        Buffer.alloc(131, 0xaa),
        'Test Using Larger Than Block-Size Key - Hash Key First',
        '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
      ],
    ];
    for (const [key, message, expected] of cases) expect(hmacSha256(hmacSha256Key(key), message, 'hex')).to.equal(expected);
  });

  it("equals node's createHmac for 3,000 generated keys and messages, in hex and base64", () => {
    const random = seededRandom(17);
    for (let i = 0; i < 3000; i++) {
      // key lengths around the 64-byte block (shorter, equal, longer: hashed first) and empty
      const keyLength = [0, 1, 63, 64, 65, 200][i % 6] ?? 0;
      const key = i % 2 === 0 ? text(random, keyLength) : bytes(random, keyLength);
      const messageLength = Math.floor(random() * (i % 10 === 0 ? 5000 : 300));
      const message = i % 3 === 0 ? bytes(random, messageLength) : text(random, messageLength);
      const encoding = i % 4 === 0 ? 'base64' : 'hex';
      const expected = createHmac('sha256', key).update(message).digest(encoding);
      expect(hmacSha256(hmacSha256Key(key), message, encoding), `case ${i}`).to.equal(expected);
    }
  });

  it('keeps a prepared key unchanged by its use, so one key signs any number of messages', () => {
    const key = hmacSha256Key('a client secret');
    const first = hmacSha256(key, 'one', 'hex');
    hmacSha256(key, 'two', 'hex');
    expect(hmacSha256(key, 'one', 'hex')).to.equal(first);
    expect(first).to.equal(createHmac('sha256', 'a client secret').update('one').digest('hex'));
  });

  it("copies a key given as bytes: changing the caller's buffer afterwards changes nothing", () => {
    const secret = Buffer.from('0123456789abcdef');
    const key = hmacSha256Key(secret);
    secret.fill(0);
    expect(hmacSha256(key, 'm', 'hex')).to.equal(createHmac('sha256', '0123456789abcdef').update('m').digest('hex'));
  });
});
