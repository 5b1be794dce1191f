import { expect } from 'chai';
import { signRequest, signingString, withSignature } from '../src/index.js';
import { DEMO } from './vectors.js';

const demoBody = (): Record<string, unknown> => JSON.parse(DEMO.bodyJson) as Record<string, unknown>;

describe('sdk: signRequest', () => {
  it('builds the documented signing string (RFC 8785) without the signature member', () => {
    expect(signingString({ ...demoBody(), signature: 'ignored' })).to.equal(DEMO.jcs);
  });

  it('signs the documented worked example with hmac-sha256 (the default scheme)', () => {
    expect(signRequest(demoBody(), { secret: DEMO.secret })).to.equal(DEMO.hmac);
    expect(signRequest(demoBody(), { secret: DEMO.secret, scheme: 'hmac-sha256' })).to.equal(DEMO.hmac);
  });

  it('signs the documented worked example with md5 over secret + timestamp + client', () => {
    expect(signRequest(demoBody(), { secret: DEMO.secret, scheme: 'md5' })).to.equal(DEMO.md5);
  });

  it('ignores an existing signature and the order of members', () => {
    const { message_info: info, ...top } = demoBody();
    const reordered = { message_info: info, signature: 'old', ...top };
    expect(signRequest(reordered, { secret: DEMO.secret })).to.equal(DEMO.hmac);
  });

  it('returns a signed copy with withSignature and leaves the input alone', () => {
    const body = demoBody();
    const signed = withSignature(body, { secret: DEMO.secret });
    expect(signed.signature).to.equal(DEMO.hmac);
    expect(body).not.to.have.property('signature');
  });

  it('refuses a body RFC 8785 cannot represent', () => {
    expect(() => signRequest({ client: 'demo', timestamp: Number.POSITIVE_INFINITY }, { secret: DEMO.secret })).to.throw(
      TypeError,
      /canonicalized/,
    );
  });
});
