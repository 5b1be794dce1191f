import { SIGNATURE_SCHEMES } from '@dialog-relay/contracts';
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { hmacSigningString, verifyRequestSignature, md5SigningString, signHmacSha256, signMd5, signRequestBody } from '../src/index.js';
import {
  DEMO_BODY_JSON,
  DEMO_CLIENT,
  DEMO_HMAC_SIGNATURE,
  DEMO_JCS,
  DEMO_MD5_SIGNATURE,
  DEMO_MD5_STRING,
  DEMO_SECRET,
  DEMO_TIMESTAMP,
  demoBody,
} from './test-vectors.js';

describe('request signing', () => {
  it('signs and verifies with every scheme packages/contracts lists', () => {
    for (const scheme of SIGNATURE_SCHEMES) {
      const signature = signRequestBody(demoBody(), DEMO_SECRET, scheme);
      expect(verifyRequestSignature({ body: { ...demoBody(), signature }, signature, scheme, secrets: [DEMO_SECRET] }).ok, scheme).to.equal(
        true,
      );
    }
  });

  it('keys the hmac with the UTF-8 bytes of a secret outside ASCII', () => {
    // the key is handed to the HMAC as the string: its bytes must stay the UTF-8 ones, as documented
    const secret = 'sécret-ключ-密钥-🔑-0123456789';
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update('{"a":1}', 'utf8').digest('hex');
    expect(signHmacSha256(secret, '{"a":1}')).to.equal(expected);
    expect(signHmacSha256(secret, '{"a":1}')).to.not.equal(
      createHmac('sha256', Buffer.from(secret, 'latin1')).update('{"a":1}', 'utf8').digest('hex'),
    );
  });

  it('produces the documented JCS string and hmac-sha256 signature for the demo body', () => {
    expect(hmacSigningString(demoBody())).to.equal(DEMO_JCS);
    expect(signHmacSha256(DEMO_SECRET, DEMO_JCS)).to.equal(DEMO_HMAC_SIGNATURE);
    expect(signRequestBody(demoBody(), DEMO_SECRET, 'hmac-sha256')).to.equal(DEMO_HMAC_SIGNATURE);
  });

  it('produces the documented md5 string and signature', () => {
    expect(md5SigningString(DEMO_SECRET, DEMO_TIMESTAMP, DEMO_CLIENT)).to.equal(DEMO_MD5_STRING);
    expect(signMd5(DEMO_SECRET, DEMO_TIMESTAMP, DEMO_CLIENT)).to.equal(DEMO_MD5_SIGNATURE);
    expect(signMd5(DEMO_SECRET, String(DEMO_TIMESTAMP), DEMO_CLIENT)).to.equal(DEMO_MD5_SIGNATURE);
    expect(signRequestBody(demoBody(), DEMO_SECRET, 'md5')).to.equal(DEMO_MD5_SIGNATURE);
  });

  it('ignores the signature member, whitespace and key order of the original body', () => {
    const reordered =
      '{ "signature": "abc",\n  "timestamp": 1700000000,\n  "message_info": {"to_user_id":"bot-1", ' +
      '"create_timestamp":1700000000, "message_type":1, "event_type":"assist_dialog", ' +
      '"msg_id":"m-1", "from_user_id":"u-1", "content":"\\u4f60\\u597d, what are your opening hours?"},' +
      '  "client": "demo" }';
    const body = JSON.parse(reordered) as Record<string, unknown>;
    expect(hmacSigningString(body)).to.equal(DEMO_JCS);
    expect(signRequestBody(body, DEMO_SECRET, 'hmac-sha256')).to.equal(DEMO_HMAC_SIGNATURE);
    expect(signRequestBody(body, DEMO_SECRET, 'md5')).to.equal(DEMO_MD5_SIGNATURE);
  });

  it('keeps unknown members and send_url in the signed string', () => {
    const body = { ...demoBody(), send_url: 'https://example.com/hook', zz_extra: [1, { b: 2, a: null }] };
    const signed = hmacSigningString(body);
    expect(signed).to.contain('"send_url":"https://example.com/hook"');
    expect(signed.endsWith(',"timestamp":1700000000,"zz_extra":[1,{"a":null,"b":2}]}')).to.equal(true);
    expect(signRequestBody(body, DEMO_SECRET, 'hmac-sha256')).to.not.equal(DEMO_HMAC_SIGNATURE);
  });

  it('matches the RFC 8785 numbers, strings and literals example', () => {
    const input =
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
      '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}';
    const expected =
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' + '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    expect(hmacSigningString(JSON.parse(input) as Record<string, unknown>)).to.equal(expected);
  });

  it('sorts keys by UTF-16 code units as in RFC 8785', () => {
    const input =
      '{"\\u20ac":"Euro","\\r":"CR","\\ufb33":"Hebrew","1":"One",' + '"\\ud83d\\ude00":"Smiley","\\u0080":"Ctl","\\u00f6":"Umlaut"}';
    const expected = '{"\\r":"CR","1":"One","\u0080":"Ctl","\u00f6":"Umlaut","\u20ac":"Euro","\ud83d\ude00":"Smiley","\ufb33":"Hebrew"}';
    expect(hmacSigningString(JSON.parse(input) as Record<string, unknown>)).to.equal(expected);
  });

  it('refuses to canonicalize a body JSON.parse turned into Infinity', () => {
    const body = JSON.parse('{"client":"demo","n":1e400}') as Record<string, unknown>;
    expect(() => hmacSigningString(body)).to.throw();
  });

  it('documents a JCS string with the same values as the documented body', () => {
    expect(JSON.parse(DEMO_BODY_JSON)).to.deep.equal(JSON.parse(DEMO_JCS));
  });
});
