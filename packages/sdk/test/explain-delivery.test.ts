import { expect } from 'chai';
import { explainDelivery, webhookDigest } from '../src/index.js';
import { SPEC_WEBHOOK, specHeaders } from './vectors.js';

const at = { nowS: SPEC_WEBHOOK.timestamp };

describe('sdk: explainDelivery names the cause of a failed verification', () => {
  it('names a body that was re-serialized after signing', () => {
    const diagnosis = explainDelivery(JSON.stringify(JSON.parse(SPEC_WEBHOOK.body)), specHeaders(), SPEC_WEBHOOK.secret, at);
    expect(diagnosis.reason).to.equal('re_serialized_body');
    expect(diagnosis.explanation).to.match(/raw bytes/);
  });

  it('names a wrong secret', () => {
    const diagnosis = explainDelivery(SPEC_WEBHOOK.body, specHeaders(), 'whsec_b3RoZXItc2VjcmV0LXZhbHVl', at);
    expect(diagnosis).to.include({ ok: false, reason: 'wrong_secret' });
  });

  it('names a whsec_ secret that the sender used as plain text', () => {
    const secret = 'whsec_ZGVtby13ZWJob29rLXNlY3JldA==';
    const body = '{"a":1}';
    const digest = webhookDigest(Buffer.from(secret, 'utf8'), 'dlv_x', String(SPEC_WEBHOOK.timestamp), Buffer.from(body));
    const headers = { 'webhook-id': 'dlv_x', 'webhook-timestamp': String(SPEC_WEBHOOK.timestamp), 'webhook-signature': `v1,${digest}` };
    const diagnosis = explainDelivery(body, headers, secret, at);
    expect(diagnosis.reason).to.equal('secret_format');
    expect(diagnosis.explanation).to.match(/plain UTF-8/);
  });

  it('names a stale timestamp before looking at the signature', () => {
    const diagnosis = explainDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, { nowS: SPEC_WEBHOOK.timestamp + 3600 });
    expect(diagnosis).to.include({ ok: false, reason: 'stale_timestamp' });
    expect(diagnosis.explanation).to.match(/3600 s old/);
  });

  it('says verified for a good delivery', () => {
    expect(explainDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, at)).to.include({ ok: true });
  });

  it('names a body that was already parsed into an object instead of throwing', () => {
    const parsed: unknown = JSON.parse(SPEC_WEBHOOK.body);
    const diagnosis = explainDelivery(parsed as string, specHeaders(), SPEC_WEBHOOK.secret, at);
    expect(diagnosis).to.include({ ok: false, reason: 're_serialized_body' });
    expect(diagnosis.explanation).to.match(/raw/);
  });
});
