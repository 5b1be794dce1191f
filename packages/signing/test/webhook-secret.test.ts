import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { MIN_WEBHOOK_KEY_BYTES, webhookSecretProblem, webhookSigningKey } from '../src/index.js';

const whsec = (bytes: number): string => `whsec_${Buffer.alloc(bytes, 0xfb).toString('base64')}`;

describe('webhook secret checks', () => {
  it('accepts whsec_ keys of 16 bytes or more, which the reference verifier takes as they are', () => {
    for (const secret of [whsec(MIN_WEBHOOK_KEY_BYTES), whsec(17), whsec(24), whsec(64), 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw']) {
      expect(webhookSecretProblem(secret), secret).to.equal(undefined);
      expect(() => new Webhook(secret), secret).not.to.throw();
      expect(webhookSigningKey(secret).length).to.be.at.least(MIN_WEBHOOK_KEY_BYTES);
    }
  });

  it('accepts a plain secret of 16 characters (its UTF-8 bytes are the key)', () => {
    expect(webhookSecretProblem('sixteen-chars-xx')).to.equal(undefined);
    expect(webhookSecretProblem('fifteen-chars-x')).to.match(/shorter than 16 characters/);
  });

  it('refuses an empty key, text that is not standard base64, and keys shorter than 16 bytes', () => {
    expect(webhookSecretProblem('whsec_')).to.match(/no key after "whsec_"/);
    for (const bad of [
      'whsec_not base64',
      whsec(24).replaceAll('+', '-'),
      `${whsec(24)}A`,
      `${whsec(16).replace(/=+$/, '')}`,
      'whsec_QUJD*',
    ]) {
      expect(webhookSecretProblem(bad), bad).to.match(/standard base64/);
    }
    expect(webhookSecretProblem(whsec(15))).to.match(/15-byte key, shorter than 16 bytes/);
  });

  it('never quotes the secret', () => {
    for (const secret of ['whsec_secret!value', whsec(8), 'short-secret']) {
      expect(webhookSecretProblem(secret)).not.to.include(secret.replace(/^whsec_/, ''));
    }
  });
});
