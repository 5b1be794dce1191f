import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { signDelivery, verifyDelivery } from '../src/index.js';
import { PLAIN_SECRET_WEBHOOK, SPEC_WEBHOOK, specHeaders } from './vectors.js';

const at = { nowS: SPEC_WEBHOOK.timestamp };

describe('sdk: verifyDelivery (Standard Webhooks)', () => {
  it('accepts the specification example with its whsec_ secret', () => {
    const result = verifyDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, at);
    expect(result).to.deep.equal({ ok: true, id: SPEC_WEBHOOK.id, timestamp: SPEC_WEBHOOK.timestamp, payload: { test: 2432232314 } });
  });

  it('accepts a delivery signed with a plain request secret (its UTF-8 bytes are the key)', () => {
    const v = PLAIN_SECRET_WEBHOOK;
    const headers = { 'webhook-id': v.id, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature };
    expect(verifyDelivery(v.body, headers, v.secret, { nowS: v.timestamp }).ok).to.equal(true);
  });

  it('accepts when any of several space-separated signatures matches', () => {
    const header = `v1,bm90LXRoaXMtb25l v2,ignored ${SPEC_WEBHOOK.signature}`;
    expect(verifyDelivery(SPEC_WEBHOOK.body, specHeaders({ 'webhook-signature': header }), SPEC_WEBHOOK.secret, at).ok).to.equal(true);
  });

  it('accepts raw bytes and fetch Headers as well as strings and node:http headers', () => {
    const headers = new Headers(specHeaders());
    expect(verifyDelivery(new TextEncoder().encode(SPEC_WEBHOOK.body), headers, SPEC_WEBHOOK.secret, at).ok).to.equal(true);
  });

  it('refuses a re-serialized body: JSON.stringify of the parsed body is not what was signed', () => {
    const reserialized = JSON.stringify(JSON.parse(SPEC_WEBHOOK.body));
    const result = verifyDelivery(reserialized, specHeaders(), SPEC_WEBHOOK.secret, at);
    expect(result).to.include({ ok: false, reason: 'invalid_signature' });
  });

  it('refuses the wrong secret', () => {
    const result = verifyDelivery(SPEC_WEBHOOK.body, specHeaders(), 'whsec_d3JvbmctLXNlY3JldA==', at);
    expect(result).to.include({ ok: false, reason: 'invalid_signature' });
  });

  it('refuses a timestamp outside the tolerance, in the past or the future', () => {
    const old = verifyDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, { nowS: SPEC_WEBHOOK.timestamp + 301 });
    expect(old).to.include({ ok: false, reason: 'stale_timestamp' });
    expect(old.ok ? '' : old.message).to.match(/301 s old/);
    const future = verifyDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, { nowS: SPEC_WEBHOOK.timestamp - 301 });
    expect(future).to.include({ ok: false, reason: 'stale_timestamp' });
    const wide = verifyDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, {
      nowS: SPEC_WEBHOOK.timestamp + 301,
      toleranceS: 600,
    });
    expect(wide.ok).to.equal(true);
  });

  it('refuses missing headers and a timestamp that is not unix seconds', () => {
    expect(verifyDelivery(SPEC_WEBHOOK.body, { 'webhook-id': SPEC_WEBHOOK.id }, SPEC_WEBHOOK.secret, at)).to.include({
      reason: 'missing_headers',
    });
    expect(verifyDelivery(SPEC_WEBHOOK.body, specHeaders({ 'webhook-timestamp': '2021-02-25' }), SPEC_WEBHOOK.secret, at)).to.include({
      reason: 'invalid_timestamp',
    });
  });

  it('verifies what the standardwebhooks library signs, and signs what it verifies', () => {
    const nowS = Math.floor(Date.now() / 1000);
    const library = new Webhook(SPEC_WEBHOOK.secret);
    const body = '{"type":"auto_dialog.reply","delivery_id":"dlv_1"}';
    const signature = library.sign('dlv_1', new Date(nowS * 1000), body);
    const headers = { 'webhook-id': 'dlv_1', 'webhook-timestamp': String(nowS), 'webhook-signature': signature };
    expect(verifyDelivery(body, headers, SPEC_WEBHOOK.secret).ok).to.equal(true);
    const ours = signDelivery({ id: 'dlv_2', timestamp: nowS, body, secret: SPEC_WEBHOOK.secret });
    expect(library.verify(body, ours)).to.deep.equal(JSON.parse(body));
  });
  it('refuses to verify with a tolerance or clock that is not a number instead of accepting any timestamp', () => {
    const yearLater = SPEC_WEBHOOK.timestamp + 365 * 24 * 3600;
    expect(() =>
      verifyDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, { nowS: yearLater, toleranceS: Number(undefined) }),
    ).to.throw(RangeError, /toleranceS/);
    expect(() => verifyDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, { nowS: yearLater, toleranceS: -1 })).to.throw(
      RangeError,
      /toleranceS/,
    );
    expect(() => verifyDelivery(SPEC_WEBHOOK.body, specHeaders(), SPEC_WEBHOOK.secret, { nowS: Number.NaN })).to.throw(RangeError, /nowS/);
  });

  it('accepts the body as an ArrayBuffer or a DataView (fetch request.arrayBuffer())', () => {
    const bytes = new TextEncoder().encode(SPEC_WEBHOOK.body);
    expect(verifyDelivery(bytes.buffer, specHeaders(), SPEC_WEBHOOK.secret, at).ok).to.equal(true);
    expect(verifyDelivery(new DataView(bytes.buffer), specHeaders(), SPEC_WEBHOOK.secret, at).ok).to.equal(true);
  });

  it('throws a TypeError that names the fix for a body that was already parsed', () => {
    const parsed: unknown = JSON.parse(SPEC_WEBHOOK.body);
    expect(() => verifyDelivery(parsed as string, specHeaders(), SPEC_WEBHOOK.secret, at)).to.throw(TypeError, /raw body/);
  });

  it('accepts a matching signature when a proxy joined several signature headers with a comma', () => {
    const joined = `v1,bm90LXRoaXMtb25l, ${SPEC_WEBHOOK.signature}, v1,b3RoZXI=`;
    expect(verifyDelivery(SPEC_WEBHOOK.body, specHeaders({ 'webhook-signature': joined }), SPEC_WEBHOOK.secret, at).ok).to.equal(true);
    const headers = new Headers(specHeaders());
    headers.append('webhook-signature', 'v1,b3RoZXI=');
    expect(verifyDelivery(SPEC_WEBHOOK.body, headers, SPEC_WEBHOOK.secret, at).ok).to.equal(true);
  });
});
