import { expect } from 'chai';
import { parseRawAnswer, rawExchange } from './support/raw-http.js';
import { bodyFor, post, sign, startTestApi, type TestApi } from './support/test-api.js';

/** Every row of docs/service-rules.md §3's error table, sent over real HTTP to the real API. */
describe('POST /custom-im/chat-messages error table', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ BODY_LIMIT_BYTES: '65536' });
  });
  after(() => t.close());

  const expectError = (answer: Awaited<ReturnType<typeof post>>, status: number, error: string): void => {
    expect(answer.status, JSON.stringify(answer.json)).to.equal(status);
    expect(answer.json).to.include({ code: status, error });
    expect(answer.json['request_id']).to.be.a('string');
    expect(answer.headers.get('x-request-id')).to.equal(answer.json['request_id']);
  };

  it('answers invalid_request when client, signature, timestamp or message_info is missing, listing each', async () => {
    const answer = await post(t.url, { message_info: bodyFor('website_dialog').message_info });
    expectError(answer, 400, 'invalid_request');
    expect(answer.json.errors?.map((e) => e.path)).to.include.members(['/client', '/signature', '/timestamp']);
  });

  it('answers invalid_request for a wrongly typed field and unknown enum values, with JSON Pointers', async () => {
    const body = bodyFor(
      'website_dialog',
      { message_type: 3, files_info: [{ content: 'http://x/y.png', file_type: 'video' }] },
      { timestamp: '1700000000' },
    );
    const answer = await post(t.url, sign(body));
    expectError(answer, 400, 'invalid_request');
    expect(answer.json.errors?.map((e) => e.path)).to.include.members([
      '/timestamp',
      '/message_info/message_type',
      '/message_info/files_info/0/file_type',
    ]);
  });

  it('answers invalid_request when send_url is given twice with different values', async () => {
    const answer = await post(
      t.url,
      sign(bodyFor('auto_dialog', { send_url: 'http://127.0.0.1:9/a' }, { send_url: 'http://127.0.0.1:9/b' })),
    );
    expectError(answer, 400, 'invalid_request');
    expect(answer.json.errors?.map((e) => e.path)).to.include('/message_info/send_url');
  });

  it('answers invalid_request for an unknown event_type', async () => {
    expectError(await post(t.url, sign(bodyFor('group_chat'))), 400, 'invalid_request');
  });

  const ruleCases: [string, string, () => Record<string, unknown>][] = [
    ['content_or_files_required', 'neither content nor files_info', () => bodyFor('website_dialog', { content: '  ' })],
    ['quote_required', 'message_type 2 without quote', () => bodyFor('website_dialog', { message_type: 2 })],
    ['sender_or_group_required', 'no from_user_id and no group_id', () => bodyFor('website_dialog', { from_user_id: '' })],
    [
      'from_user_type_required',
      'auto_dialog without from_user_type',
      () => bodyFor('auto_dialog', { from_user_type: undefined }, { send_url: 'http://127.0.0.1:9/x' }),
    ],
    ['msg_id_required', 'assist_dialog without msg_id', () => bodyFor('assist_dialog', { msg_id: undefined })],
    ['at_list_not_allowed', 'at_list outside auto_dialog', () => bodyFor('website_dialog', { at_list: ['bot-1'] })],
    [
      'mixed_content_types',
      'auto_dialog mixing text and an image',
      () =>
        bodyFor(
          'auto_dialog',
          { files_info: [{ content: 'https://cdn.example/a.png', file_type: 'image' }] },
          { send_url: 'http://127.0.0.1:9/x' },
        ),
    ],
    ['send_url_not_supported', 'website_dialog with a send_url', () => bodyFor('website_dialog', {}, { send_url: 'http://127.0.0.1:9/x' })],
    ['send_url_required', 'auto_dialog with no send_url and no default', () => bodyFor('auto_dialog')],
    ['send_url_forbidden', 'a send_url that is not http(s)', () => bodyFor('auto_dialog', {}, { send_url: 'ftp://files.example/x' })],
    ['unknown_command', 'an unknown command', () => bodyFor('cmd_dialog', { content: 'self_destruct' })],
  ];
  for (const [error, what, make] of ruleCases) {
    it(`answers 400 ${error} for ${what}`, async () => {
      const answer = await post(t.url, sign(make()));
      expectError(answer, 400, error);
      expect(
        answer.json.errors?.some((e) => e.code === error),
        JSON.stringify(answer.json.errors),
      ).to.equal(true);
    });
  }

  it('lists the known commands in the unknown_command answer', async () => {
    const answer = await post(t.url, sign(bodyFor('cmd_dialog', { content: 'self_destruct' })));
    expect(answer.json['message']).to.include('stop_auto_reply').and.include('resume_auto_reply').and.include('auto_reply_status');
  });

  it('lists every problem when several rules break at once, the first by precedence leading', async () => {
    const answer = await post(t.url, sign(bodyFor('website_dialog', { content: '', message_type: 2, from_user_id: '', at_list: ['x'] })));
    expectError(answer, 400, 'content_or_files_required');
    expect(answer.json.errors?.map((e) => e.code)).to.include.members([
      'content_or_files_required',
      'quote_required',
      'sender_or_group_required',
      'at_list_not_allowed',
    ]);
  });

  it('answers 400 malformed_json for a body that is not JSON', async () => {
    expectError(await post(t.url, '{"client": "shop",'), 400, 'malformed_json');
  });

  it('never echoes a malformed body in the malformed_json answer: a secret in single quotes stays out of it', async () => {
    const secret = 's3cr3t-abcdef-123456';
    const missingComma = `{"client":"shop","signature":"x","secret":"${secret}" "timestamp":1}`;
    const answers = [
      await post(t.url, `{"client":"shop","secret":'${secret}',"timestamp":1}`),
      await post(t.url, missingComma),
      await post(t.url, `{"secret":"${secret}`),
    ];
    for (const answer of answers) {
      expectError(answer, 400, 'malformed_json');
      // all of the answer but its request id, which the service makes at random (a UUID may hold "-abc")
      const text = JSON.stringify({ ...answer.json, request_id: undefined });
      for (let i = 0; i + 4 <= secret.length; i++)
        expect(text, `echoes "${secret.slice(i, i + 4)}"`).not.to.include(secret.slice(i, i + 4));
    }
    // where the parser says where the error is, the answer still does
    expect(answers[1]!.json['detail']).to.equal(
      `Expected ',' or '}' after property value at position ${missingComma.indexOf('"timestamp"')}`,
    );
  });

  it('answers 400 malformed_json for an empty body, as for any text that is not JSON', async () => {
    for (const body of ['', '\ufeff']) {
      const answer = await post(t.url, body);
      expectError(answer, 400, 'malformed_json');
      expect(answer.json).to.not.have.property('errors');
    }
  });

  it('answers 400 malformed_json for JSON that is not an object', async () => {
    expectError(await post(t.url, '[1,2,3]'), 400, 'malformed_json');
    expectError(await post(t.url, 'null'), 400, 'malformed_json');
    expectError(await post(t.url, '"text"'), 400, 'malformed_json');
  });

  it('answers 415 unsupported_media_type for another Content-Type or none', async () => {
    expectError(await post(t.url, 'client=shop', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
    const response = await fetch(`${t.url}/custom-im/chat-messages`, { method: 'POST', body: new Uint8Array(Buffer.from('{}')) });
    expect(response.status).to.equal(415);
  });

  it('answers 415 to a request with another Content-Type and no body at all (neither Content-Length nor Transfer-Encoding)', async () => {
    const raw = await rawExchange(
      t.url,
      'POST /custom-im/chat-messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n',
    );
    const answer = parseRawAnswer(raw);
    expect(answer.status, answer.body).to.equal(415);
    expect(JSON.parse(answer.body)).to.include({ code: 415, error: 'unsupported_media_type' });
  });

  it('answers 413 payload_too_large for a body over the limit', async () => {
    const body = sign(bodyFor('website_dialog', { content: 'x'.repeat(70_000) }));
    expectError(await post(t.url, body), 413, 'payload_too_large');
  });

  it('answers 429 rate_limited with Retry-After past the client limit', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(t.url, sign(bodyFor('website_dialog', {}, { client: 'tiny' }), 'tiny-secret-0001'))),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).to.be.greaterThan(0);
    expectError(limited[0]!, 429, 'rate_limited');
    expect(limited[0]!.headers.get('retry-after')).to.equal('1');
  });

  it('answers 404 not_found and 405 method_not_allowed in the envelope', async () => {
    const missing = await fetch(`${t.url}/nope`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.include({ code: 404, error: 'not_found' });
    const wrongMethod = await fetch(`${t.url}/custom-im/chat-messages`);
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.headers.get('allow')).to.equal('POST');
  });

  it('answers OPTIONS on the operations and documentation paths with 404 in the envelope, like any method they do not take', async () => {
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/init.js', '/docs/assets/swagger-ui.css']) {
      const response = await fetch(`${t.url}${path}`, { method: 'OPTIONS' });
      expect(response.status, path).to.equal(404);
      expect(await response.json(), path).to.include({ code: 404, error: 'not_found' });
    }
    const chat = await fetch(`${t.url}/custom-im/chat-messages`, { method: 'OPTIONS' });
    expect(chat.status).to.equal(405);
  });
});
