import { hmacSigningString } from '@dialog-relay/signing';
import { expect } from 'chai';
import { redactDetail } from '../src/redact-detail.js';

const jcs = (value: Record<string, unknown>): string => hmacSigningString(value);
const redact = (text: string, clientSecrets: string[] = [], maxChars = 8192): string =>
  redactDetail(text, { clientSecrets, maxChars, json: true });

describe('redactDetail', () => {
  it('writes {secret} for a secret member of every JSON type, at any depth', () => {
    const text = jcs({
      a: { secret: 'x' },
      b: [{ secret: 7 }, { secret: { k: ['v'] } }],
      c: { secret: [1, { d: '}' }] },
      e: { secret: true },
      f: { secret: null },
    });
    expect(redact(text)).to.equal(
      jcs({
        a: { secret: '{secret}' },
        b: [{ secret: '{secret}' }, { secret: '{secret}' }],
        c: { secret: '{secret}' },
        e: { secret: '{secret}' },
        f: { secret: '{secret}' },
      }),
    );
  });

  it('writes {secret} for a member named secret in any letter case', () => {
    const text = jcs({ Secret: 'a-widget-secret', SECRET: 42, nested: { sEcReT: ['x'] }, secretive: 'keep' });
    expect(redact(text)).to.equal(jcs({ Secret: '{secret}', SECRET: '{secret}', nested: { sEcReT: '{secret}' }, secretive: 'keep' }));
  });

  it('leaves the word secret alone where it is not a member name', () => {
    const body = { list: ['secret', 'x'], content: 'the "secret":"x" is {"secret":1}', secretive: 'keep', n: { notsecret: 'keep' } };
    expect(redact(jcs(body))).to.equal(jcs(body));
  });

  it('reads a secret value with escaped quotes, backslashes and brackets to its end', () => {
    const text = jcs({ secret: 'a\\"b}]\\\\', z: 'shown' });
    expect(redact(text)).to.equal('{"secret":"{secret}","z":"shown"}');
  });

  it('writes {secret} for the client secret wherever it appears, plain or as JSON escapes it', () => {
    const text = jcs({ content: 'key shop-secret-0001!', other: 'q"uote-secret-01' });
    expect(redact(text, ['shop-secret-0001', 'q"uote-secret-01'])).to.equal('{"content":"key {secret}!","other":"{secret}"}');
  });

  it('cuts to maxChars and names the full length', () => {
    const text = jcs({ pad: 'x'.repeat(100) });
    expect(redact(text, [], 20)).to.equal(`${text.slice(0, 20)}… (cut; ${text.length} characters in all)`);
  });

  it('shows no part of a secret member value or a client secret that the cut runs through', () => {
    const member = jcs({ a: 1, secret: 'long-member-value-'.repeat(10) });
    expect(redact(member, [], 20)).to.equal('{"a":1,"secret":"{secret}"… (cut; ' + String(member.length) + ' characters in all)');
    const plain = jcs({ content: 'abcdefghij shop-secret-0001' });
    const shown = redact(plain, ['shop-secret-0001'], 26);
    expect(shown).to.not.include('shop-');
    expect(shown).to.include('{secret}');
  });

  it('does not show a client secret that a shorter redaction before it would pull into the shown part', () => {
    const text = jcs({ a: { secret: 'y'.repeat(200) }, b: 'shop-secret-0001' });
    const shown = redact(text, ['shop-secret-0001'], 230);
    expect(shown).to.not.include('shop-');
  });

  it('only replaces client secrets in text that is not JSON', () => {
    expect(
      redactDetail('{secret}1700000000shop-secret-0001', { clientSecrets: ['shop-secret-0001'], maxChars: 100, json: false }),
    ).to.equal('{secret}1700000000{secret}');
  });
});
