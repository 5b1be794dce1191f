import { expect } from 'chai';
import { verifyRequestSignature, type SignatureScheme } from '../src/index.js';
import { DEMO_HMAC_SIGNATURE, DEMO_JCS, DEMO_MD5_SIGNATURE, DEMO_SECRET, demoBody } from './test-vectors.js';

const SCHEMES: readonly { scheme: SignatureScheme; signature: string }[] = [
  { scheme: 'hmac-sha256', signature: DEMO_HMAC_SIGNATURE },
  { scheme: 'md5', signature: DEMO_MD5_SIGNATURE },
];

function check(scheme: SignatureScheme | undefined, signature: string, secrets: readonly string[]) {
  return verifyRequestSignature({ body: { ...demoBody(), signature }, signature, scheme, secrets });
}

describe('verifyRequestSignature', () => {
  for (const { scheme, signature } of SCHEMES) {
    describe(scheme, () => {
      it('accepts the correct signature', () => {
        expect(check(scheme, signature, [DEMO_SECRET]).ok).to.equal(true);
      });

      it('accepts any active secret during a rotation', () => {
        expect(check(scheme, signature, [DEMO_SECRET, 'next-secret']).ok).to.equal(true);
        expect(check(scheme, signature, ['next-secret', DEMO_SECRET]).ok).to.equal(true);
      });

      it('rejects a signature made with a wrong secret', () => {
        expect(check(scheme, signature, ['other-secret']).ok).to.equal(false);
        expect(check(scheme, signature, ['other-secret', 'next-secret']).ok).to.equal(false);
      });

      it('accepts an uppercase hex signature', () => {
        expect(check(scheme, signature.toUpperCase(), [DEMO_SECRET]).ok).to.equal(true);
      });

      it('rejects a signature of the wrong length', () => {
        expect(check(scheme, signature.slice(0, -1), [DEMO_SECRET]).ok).to.equal(false);
        expect(check(scheme, `${signature}0`, [DEMO_SECRET]).ok).to.equal(false);
        expect(check(scheme, '', [DEMO_SECRET]).ok).to.equal(false);
      });

      it('rejects a client with no active secrets', () => {
        expect(check(scheme, signature, []).ok).to.equal(false);
      });

      it('never shows the secret in the strings to sign', () => {
        const strings = check(scheme, 'f'.repeat(signature.length), [DEMO_SECRET, 'next-secret']).stringsToSign();
        const shown = JSON.stringify(strings);
        expect(shown).to.not.contain(DEMO_SECRET);
        expect(shown).to.not.contain('next-secret');
        expect(strings).to.deep.equal({ 'hmac-sha256': DEMO_JCS, md5: '{secret}1700000000demo' });
      });
    });
  }

  it('fails for an unknown client whatever it sends, and still offers the strings to sign', () => {
    const result = check(undefined, DEMO_HMAC_SIGNATURE, []);
    expect(result.ok).to.equal(false);
    expect(check(undefined, DEMO_HMAC_SIGNATURE, [DEMO_SECRET]).ok).to.equal(false);
    expect(result.stringsToSign().md5).to.equal('{secret}1700000000demo');
  });

  it('detects a tampered body under hmac-sha256 but not under legacy md5', () => {
    const tampered = { ...demoBody(), message_info: { content: 'changed' } };
    const hmac = verifyRequestSignature({
      body: tampered,
      signature: DEMO_HMAC_SIGNATURE,
      scheme: 'hmac-sha256',
      secrets: [DEMO_SECRET],
    });
    const md5 = verifyRequestSignature({
      body: tampered,
      signature: DEMO_MD5_SIGNATURE,
      scheme: 'md5',
      secrets: [DEMO_SECRET],
    });
    expect(hmac.ok).to.equal(false);
    expect(md5.ok).to.equal(true);
  });

  it('rejects a signature over a different timestamp under md5', () => {
    const body = { ...demoBody(), timestamp: 1700000001 };
    const result = verifyRequestSignature({ body, signature: DEMO_MD5_SIGNATURE, scheme: 'md5', secrets: [DEMO_SECRET] });
    expect(result.ok).to.equal(false);
    expect(result.stringsToSign().md5).to.equal('{secret}1700000001demo');
  });

  it('fails without throwing when the body cannot be canonicalized', () => {
    const body = JSON.parse('{"client":"demo","timestamp":1700000000,"n":1e400}') as Record<string, unknown>;
    const result = verifyRequestSignature({ body, signature: DEMO_HMAC_SIGNATURE, scheme: 'hmac-sha256', secrets: [DEMO_SECRET] });
    expect(result.ok).to.equal(false);
    expect(result.stringsToSign()).to.deep.equal({ 'hmac-sha256': '', md5: '{secret}1700000000demo' });
  });
});
