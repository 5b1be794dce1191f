import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhookSignature, webhookHeaders, webhookSigningKey } from '../src/index.js';
import { PLAIN_SECRET_WEBHOOK, SPEC_WEBHOOK } from './test-vectors.js';

describe('webhook signatures', () => {
  it('reproduces the Standard Webhooks specification example', () => {
    const { secret, id, timestamp, body, signature } = SPEC_WEBHOOK;
    expect(signWebhook({ key: webhookSigningKey(secret), id, timestamp, body })).to.equal(signature);
  });

  it('uses the UTF-8 bytes of a secret without the whsec_ prefix as the key', () => {
    const { secret, id, timestamp, body, signature } = PLAIN_SECRET_WEBHOOK;
    expect(webhookSigningKey(secret).equals(Buffer.from('demo-secret', 'utf8'))).to.equal(true);
    expect(signWebhook({ key: webhookSigningKey(secret), id, timestamp, body })).to.equal(signature);
  });

  it('base64-decodes the rest of a whsec_ secret', () => {
    const key = webhookSigningKey(SPEC_WEBHOOK.secret);
    expect(key.toString('base64')).to.equal('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(key.length).to.equal(24);
  });

  it('signs with every byte of a decoded key, those above 0x7f included', () => {
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 200) % 256));
    const key = webhookSigningKey(`whsec_${bytes.toString('base64')}`);
    const expected = createHmac('sha256', bytes).update('msg_1.1700000000.{"x":"é"}', 'utf8').digest('base64');
    expect(signWebhook({ key, id: 'msg_1', timestamp: 1700000000, body: '{"x":"é"}' })).to.equal(`v1,${expected}`);
  });

  it('refuses an empty key', () => {
    expect(() => webhookSigningKey('whsec_')).to.throw(/empty/);
    expect(() => webhookSigningKey('')).to.throw(/empty/);
  });

  it('is accepted by the standardwebhooks reference verifier', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"client":"demo","reply":"你好"}';
    const headers = webhookHeaders({ key: webhookSigningKey(SPEC_WEBHOOK.secret), id: 'msg_1', timestamp, body });
    expect(new Webhook(SPEC_WEBHOOK.secret).verify(body, headers)).to.deep.equal(JSON.parse(body));
    expect(() => new Webhook(SPEC_WEBHOOK.secret).verify(`${body} `, headers)).to.throw();
  });

  it('is accepted by the reference verifier when keyed with a plain request secret', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"ok":true}';
    const headers = webhookHeaders({ key: webhookSigningKey('demo-secret'), id: 'msg_2', timestamp, body });
    const raw = new Webhook(Buffer.from('demo-secret', 'utf8'), { format: 'raw' });
    expect(raw.verify(body, headers)).to.deep.equal({ ok: true });
    // Without format 'raw' the reference library base64-decodes a plain string: a different key.
    expect(() => new Webhook('demo-secret').verify(body, headers)).to.throw();
  });

  it('verifies the specification example and rejects a tampered body, id or timestamp', () => {
    const { secret, id, timestamp, body, signature } = SPEC_WEBHOOK;
    const key = webhookSigningKey(secret);
    expect(verifyWebhookSignature({ key, id, timestamp, body, header: signature })).to.equal(true);
    expect(verifyWebhookSignature({ key, id, timestamp, body: '{"test": 2432232315}', header: signature })).to.equal(false);
    expect(verifyWebhookSignature({ key, id: 'msg_other', timestamp, body, header: signature })).to.equal(false);
    expect(verifyWebhookSignature({ key, id, timestamp: timestamp + 1, body, header: signature })).to.equal(false);
    expect(verifyWebhookSignature({ key: webhookSigningKey('whsec_AAAA'), id, timestamp, body, header: signature })).to.equal(false);
  });

  it('accepts any of several space-separated signatures and ignores other versions', () => {
    const { secret, id, timestamp, body, signature } = SPEC_WEBHOOK;
    const key = webhookSigningKey(secret);
    const digest = signature.slice('v1,'.length);
    const rotated = `v1,bm9wZQ== v1a,${digest} ${signature}`;
    expect(verifyWebhookSignature({ key, id, timestamp, body, header: rotated })).to.equal(true);
    expect(verifyWebhookSignature({ key, id, timestamp, body, header: `v2,${digest} v1a,${digest}` })).to.equal(false);
    expect(verifyWebhookSignature({ key, id, timestamp, body, header: digest })).to.equal(false);
    expect(verifyWebhookSignature({ key, id, timestamp, body, header: '' })).to.equal(false);
  });
});
