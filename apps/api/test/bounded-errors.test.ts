import { expect } from 'chai';
import { bodyFor, sign, startTestApi, type TestApi } from './support/test-api.js';

const KIB = 1024;

/** docs/service-rules.md §16: an answer to a bad request is small and cheap, whatever the request holds. */
describe('bounded error answers', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi();
  });
  after(() => t.close());

  const send = async (body: string): Promise<{ status: number; bytes: number; json: Record<string, unknown> & { errors?: unknown[] } }> => {
    const response = await fetch(`${t.url}/custom-im/chat-messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await response.text();
    return {
      status: response.status,
      bytes: Buffer.byteLength(text),
      json: JSON.parse(text) as Record<string, unknown> & { errors?: unknown[] },
    };
  };
  const withAtList = (count: number): string => {
    const body = JSON.stringify({ ...bodyFor('auto_dialog', { at_list: [] }), signature: 'bad' });
    return body.replace('"at_list":[]', `"at_list":[${new Array<string>(count).fill('7').join(',')}]`);
  };

  it('answers 9,000 numbers in at_list with one maxItems error, not one error per item', async () => {
    const answer = await send(withAtList(9_000));
    expect(answer.status).to.equal(400);
    expect(answer.json['error']).to.equal('invalid_request');
    expect(answer.json.errors).to.deep.equal([
      { path: '/message_info/at_list', code: 'maxItems', message: 'message_info.at_list must have at most 100 items.' },
    ]);
    expect(answer.bytes).to.be.below(2 * KIB);
  });

  it('answers a 5 MiB body with 1.2 M numbers in at_list and a bad signature under 64 KiB', async () => {
    const body = withAtList(1_200_000).replace('"signature":"bad"', `"signature":"bad","pad":"${'x'.repeat(2_000_000)}"`);
    expect(body.length).to.be.above(4 * KIB * KIB);
    const answer = await send(body);
    expect(answer.status).to.equal(400);
    expect(answer.json.errors).to.have.length(1);
    expect(answer.bytes).to.be.below(64 * KIB);
  });

  it('lists at most 50 errors and then says errors_truncated: true', async () => {
    const answer = await send(withAtList(100));
    expect(answer.status).to.equal(400);
    expect(answer.json.errors).to.have.length(50);
    expect(answer.json['errors_truncated']).to.equal(true);
  });

  it('does not add errors_truncated when every error is listed', async () => {
    const answer = await send(withAtList(3));
    expect(answer.json.errors).to.have.length(3);
    expect(answer.json).to.not.have.property('errors_truncated');
  });

  it('keeps a 401 answer for a large body of escaped characters under 64 KiB', async () => {
    const body = { ...bodyFor('website_dialog'), pad: '\u0001"\\é😀'.repeat(200_000), signature: 'bad' };
    const answer = await send(JSON.stringify(body));
    expect(answer.status).to.equal(401);
    expect(answer.bytes).to.be.below(64 * KIB);
  });

  // A signed body whose message_info opens with an `extra` object of that many members, then `after`.
  const tooManyValues: [name: string, members: number, after: string][] = [
    ['refuses a body of 330,000 members with 400 before checking its signature', 330_000, '},'],
    ['refuses a body of more than 10,000 values before parsing it (a syntax error after them is never reached)', 20_000, ',!!! not JSON'],
  ];
  for (const [name, count, after] of tooManyValues) {
    it(name, async () => {
      const members = Array.from({ length: count }, (_, i) => `"k${i}":0`).join(',');
      const body = JSON.stringify(sign(bodyFor('website_dialog'))).replace(
        '"message_info":{',
        `"message_info":{"extra":{${members}${after}`,
      );
      const answer = await send(body);
      expect(answer.status).to.equal(400);
      expect(answer.json['error']).to.equal('invalid_request');
      expect(answer.json.errors).to.deep.equal([
        { path: '', code: 'maxValues', message: 'The request body holds more than 10000 JSON values.' },
      ]);
    });
  }

  it('answers a UTF-16 body with 415, since only UTF-8 bytes are checked before parsing', async () => {
    const body = Buffer.from(JSON.stringify(sign(bodyFor('website_dialog'))), 'utf16le');
    const response = await fetch(`${t.url}/custom-im/chat-messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16le' },
      body,
    });
    expect(response.status).to.equal(415);
    expect(await response.json()).to.include({ error: 'unsupported_media_type' });
  });

  it('refuses a body nested deeper than 32 levels before parsing it', async () => {
    const answer = await send(`{"client":"shop","message_info":{"deep":${'['.repeat(40)}!!! not JSON`);
    expect(answer.status).to.equal(400);
    expect(answer.json.errors).to.deep.equal([
      { path: '', code: 'maxDepth', message: 'The request body is nested deeper than 32 levels.' },
    ]);
  });

  it('refuses a body nested deeper than 32 levels with 400, whatever its signature', async () => {
    const body = JSON.stringify(sign(bodyFor('website_dialog'))).replace(
      '"message_info":{',
      `"message_info":{"deep":${'['.repeat(40)}${']'.repeat(40)},`,
    );
    const answer = await send(body);
    expect(answer.status).to.equal(400);
    expect(answer.json.errors).to.deep.equal([
      { path: '', code: 'maxDepth', message: 'The request body is nested deeper than 32 levels.' },
    ]);
  });
});
