import { parseClientRecord } from '@dialog-relay/config';
import { AppError, type ChatMessageRequest } from '@dialog-relay/contracts';
import { hmacSigningString, signMd5, signRequestBody } from '@dialog-relay/signing';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { authenticate } from '../src/authenticate.js';

const NOW_S = 1_700_000_000;

/** A body whose unknown member counts how often the canonicalizer serializes it (it calls toJSON). */
function countingBody(client: string, signature: string): { body: Record<string, unknown>; calls: () => number } {
  let calls = 0;
  const probe = { toJSON: () => ((calls += 1), 'probe') };
  const body = { client, timestamp: NOW_S, signature, probe, message_info: { event_type: 'website_dialog' } };
  return { body, calls: () => calls };
}

describe('authenticate', () => {
  const shop = parseClientRecord('shop', { secret: 'shop-secret-0001' }, 50);
  const widget = parseClientRecord('widget', { secret: 'widget-secret-01', signature_scheme: 'md5' }, 50);
  const run = (body: Record<string, unknown>, client = shop): string =>
    authenticate({ body, request: body as unknown as ChatMessageRequest, client, nowMs: NOW_S * 1000, toleranceS: 300 });

  it('canonicalizes the body once for a wrong signature, its 401 detail included', () => {
    const { body, calls } = countingBody('shop', 'bad');
    expect(() => run(body))
      .to.throw(AppError)
      .with.property('detail')
      .that.includes('"probe":"probe"');
    expect(calls()).to.equal(1);
  });

  it('canonicalizes the body once for a valid md5 signature and its replay digest', () => {
    const { body, calls } = countingBody('widget', signMd5('widget-secret-01', NOW_S, 'widget'));
    expect(run(body, widget)).to.match(/^[0-9a-f]{64}$/);
    expect(calls()).to.equal(1);
  });

  it('says in the 401 detail why nothing can be signed under hmac-sha256 for a body RFC 8785 refuses, instead of showing an empty string', () => {
    for (const odd of ['a\ud800b', Number.POSITIVE_INFINITY]) {
      const body = { client: 'shop', timestamp: NOW_S, signature: 'bad', message_info: { event_type: 'website_dialog', content: odd } };
      expect(() => run(body))
        .to.throw(AppError)
        .with.property('detail')
        .that.matches(
          /^Under hmac-sha256 the server signs: nothing, RFC 8785 cannot canonicalize this body \(a lone surrogate or a number out of range\) — under md5 it signs: \{secret\}1700000000shop$/,
        );
    }
  });

  it('keeps the replay digest of earlier releases (replay marks outlive a deployment): SHA-256 of the signature, for md5 with the body after it', () => {
    const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
    const body = { client: 'shop', timestamp: NOW_S, message_info: { event_type: 'website_dialog', content: 'Ünïcode 送货' } };
    const signature = signRequestBody(body, 'shop-secret-0001', 'hmac-sha256');
    expect(run({ ...body, signature: signature.toUpperCase() })).to.equal(sha256(signature));
    const md5Body = { ...body, client: 'widget', signature: signMd5('widget-secret-01', NOW_S, 'widget') };
    expect(run(md5Body, widget)).to.equal(sha256(`${md5Body.signature}\n${hmacSigningString(md5Body)}`));
  });

  it('gives two md5 requests with different bodies different replay digests', () => {
    const signature = signMd5('widget-secret-01', NOW_S, 'widget');
    const first = run({ client: 'widget', timestamp: NOW_S, signature, message_info: { content: 'a' } }, widget);
    const second = run({ client: 'widget', timestamp: NOW_S, signature, message_info: { content: 'b' } }, widget);
    expect(first).to.not.equal(second);
  });
});
