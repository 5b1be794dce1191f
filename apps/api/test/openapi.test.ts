import { Validator } from '@seriousme/openapi-schema-validator';
import { buildRequestSchema, createRequestValidator, DEFAULT_LIMITS, ERROR_STATUS } from '@dialog-relay/contracts';
import { verifyRequestSignature } from '@dialog-relay/signing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { checkAnswerAgainstOpenApi, isRegisteredApi } from '@dialog-relay/testkit';
import { startTestApi, type TestApi } from './support/test-api.js';

type Json = Record<string, unknown>;
/** The member at this path of a JSON value (undefined when absent). */
const at = <T = Json>(value: unknown, ...path: string[]): T => path.reduce<unknown>((v, key) => (v as Json | undefined)?.[key], value) as T;

describe('OpenAPI document at GET /openapi.json', () => {
  let t: TestApi;
  let doc: Json;
  before(async () => {
    t = await startTestApi();
    doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as Json;
  });
  after(() => t.close());

  const chat = (): Json => at(doc, 'paths', '/custom-im/chat-messages', 'post');
  const limits = { contentMaxChars: 10_000, filesMax: 10, atListMax: 100, idMaxChars: DEFAULT_LIMITS.idMaxChars };

  it('is a valid OpenAPI 3.1 document for an OpenAPI validator library', async () => {
    expect(doc['openapi']).to.equal('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect(result.valid).to.equal(true);
  });

  it('describes the request with the very schema the API validates with', () => {
    const { description, ...schema } = at(doc, 'components', 'schemas', 'ChatMessageRequest');
    expect(description).to.be.a('string');
    expect(schema).to.deep.equal(buildRequestSchema(limits));
  });

  it('follows the configured limits: a change to the schema changes the document', async () => {
    const other = await startTestApi({ CONTENT_MAX_CHARS: '77' });
    try {
      const otherDoc = (await (await fetch(`${other.url}/openapi.json`)).json()) as Json;
      expect(
        at(otherDoc, 'components', 'schemas', 'ChatMessageRequest', 'properties', 'message_info', 'properties', 'content', 'maxLength'),
      ).to.equal(77);
    } finally {
      await other.close();
    }
  });

  it('states the configured timestamp window, idempotency period, delivery time-out and reply age, not the defaults', async () => {
    const stated = (document: Json): string[] => [
      at<string>(document, 'info', 'description'),
      at<string>(document, 'components', 'headers', 'IdempotentReplayed', 'description'),
      at<string>(document, 'components', 'callbacks', 'AutoReply', '{$request.body#/send_url}', 'post', 'description'),
    ];
    const [info, replayed, delivery] = stated(doc);
    expect(info).to.include('within 300 s of the server clock');
    expect(replayed).to.include('within 24 h');
    expect(delivery).to.include('time-outs (10 s)').and.to.include('until the reply is 15 minutes old');
    const other = await startTestApi({
      TIMESTAMP_TOLERANCE_S: '60',
      IDEMPOTENCY_TTL_S: '7200',
      DELIVERY_TIMEOUT_MS: '2500',
      REPLY_MAX_AGE_MS: '120000',
    });
    try {
      const [otherInfo, otherReplayed, otherDelivery] = stated((await (await fetch(`${other.url}/openapi.json`)).json()) as Json);
      expect(otherInfo).to.include('within 60 s of the server clock');
      expect(otherReplayed).to.include('within 2 h');
      expect(otherDelivery).to.include('time-outs (2500 ms)').and.to.include('until the reply is 2 minutes old');
    } finally {
      await other.close();
    }
  });

  it('has a request example for every scenario and command, each passing the API validation with a valid demo signature', () => {
    const examples = at<Record<string, { value: Json }>>(chat(), 'requestBody', 'content', 'application/json', 'examples');
    expect(Object.keys(examples)).to.include.members([
      'assist_dialog',
      'website_dialog',
      'auto_dialog',
      'stop_auto_reply',
      'resume_auto_reply',
      'auto_reply_status',
    ]);
    const validate = createRequestValidator(limits);
    for (const [name, { value }] of Object.entries(examples)) {
      const result = validate(value);
      expect(result.ok, `${name}: ${JSON.stringify(result.ok ? [] : result.errors)}`).to.equal(true);
      const check = verifyRequestSignature({
        body: value,
        signature: value['signature'] as string,
        scheme: 'hmac-sha256',
        secrets: ['demo-secret'],
      });
      expect(check.ok, name).to.equal(true);
    }
    expect(examples['assist_dialog']!.value['signature']).to.equal('83045600700838d52a3b01f3ac805f3701044a92c2afc5eead5ad444d02b4199');
  });

  it('has answer and delivery examples that match their own schemas', () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false });
    ajv.addSchema(doc, 'openapi.json');
    const check = (schemaPointer: string, value: unknown, label: string): void => {
      const validate = ajv.compile({ $ref: `openapi.json#${schemaPointer}` });
      expect(validate(value), `${label}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    };
    const base = '/paths/~1custom-im~1chat-messages/post/responses';
    for (const [status, response] of Object.entries(chat()['responses'] as Record<string, Json>)) {
      const media = at<Json | undefined>(response, 'content', 'application/json');
      const examples = Object.values(at<Record<string, Json> | undefined>(media, 'examples') ?? {}).map((e) => e['value']);
      const values: unknown[] = media?.['example'] === undefined ? examples : [media['example'], ...examples];
      for (const value of values) check(`${base}/${status}/content/application~1json/schema`, value, `response ${status}`);
    }
    const callback = at(doc, 'components', 'callbacks', 'AutoReply', '{$request.body#/send_url}', 'post');
    check(
      '/components/schemas/DeliveryPayload',
      at<unknown>(callback, 'requestBody', 'content', 'application/json', 'example'),
      'delivery',
    );
  });

  it('names every error code, each under its own status on the chat endpoint', () => {
    expect([...at<string[]>(doc, 'components', 'schemas', 'ErrorCode', 'enum')].sort()).to.deep.equal(Object.keys(ERROR_STATUS).sort());
    const responses = chat()['responses'] as Record<string, Json>;
    const adminOnly = ['unauthorized', 'forbidden', 'not_found', 'method_not_allowed'];
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      if (adminOnly.includes(code)) continue;
      const codes = at<string[] | undefined>(
        responses[String(status)],
        'content',
        'application/json',
        'schema',
        'properties',
        'error',
        'enum',
      );
      expect(codes, `${code} under ${status}`).to.include(code);
    }
  });

  it('documents X-Request-Id on every answer, Idempotent-Replayed on successes and Retry-After on 409, 429 and 503', () => {
    const responses = chat()['responses'] as Record<string, Json>;
    for (const [status, response] of Object.entries(responses)) expect(response['headers'], status).to.have.property('X-Request-Id');
    expect(responses['200']!['headers']).to.have.property('Idempotent-Replayed');
    for (const status of ['409', '429', '503']) expect(responses[status]!['headers'], status).to.have.property('Retry-After');
  });

  it('describes the delivery to send_url as a callback with the Standard Webhooks headers and the retried answers', () => {
    expect(chat()['callbacks']).to.deep.equal({ autoReply: { $ref: '#/components/callbacks/AutoReply' } });
    const delivery = at(doc, 'components', 'callbacks', 'AutoReply', '{$request.body#/send_url}', 'post');
    expect((delivery['parameters'] as { name: string }[]).map((p) => p.name)).to.include.members([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(at(delivery, 'requestBody', 'content', 'application/json', 'schema')).to.deep.equal({
      $ref: '#/components/schemas/DeliveryPayload',
    });
    expect(Object.keys(delivery['responses'] as Json)).to.include.members(['2XX', '408', '425', '429', '5XX', 'default']);
  });

  it('describes what every other request gets: 405 with Allow for another method on the chat path, 404 for an unknown path, and the errors of any request', async () => {
    for (const method of ['get', 'put', 'patch', 'delete', 'head', 'options', 'trace']) {
      expect(at(doc, 'paths', '/custom-im/chat-messages', method, 'responses', '405'), method).to.deep.equal({
        $ref: '#/components/responses/MethodNotAllowed',
      });
    }
    expect(at(doc, 'components', 'responses', 'MethodNotAllowed', 'headers')).to.have.property('Allow');
    expect(at(doc, 'x-other-requests', 'responses', '404')).to.deep.equal({ $ref: '#/components/responses/NotFound' });
    for (const [path, item] of Object.entries(at<Record<string, Record<string, Json>>>(doc, 'paths'))) {
      for (const [method, operation] of Object.entries(item)) {
        expect(Object.keys(operation['responses'] as Json), `${method} ${path}`).to.include.members(['400', '408', '431', '500']);
      }
    }
    const get = await fetch(`${t.url}/custom-im/chat-messages`);
    expect([get.status, get.headers.get('allow')]).to.deep.equal([405, 'POST']);
    expect((await fetch(`${t.url}/no/such/path`, { method: 'DELETE' })).status).to.equal(404);
  });

  it('makes the HTTP tests fail on an answer the document does not describe', async () => {
    const headers = new Headers({ 'x-request-id': 'r-1', 'content-type': 'application/json; charset=utf-8' });
    const request = { method: 'POST', path: '/custom-im/chat-messages' };
    const good = { code: 202, message: 'ok', request_id: 'r-1', data: { conversation_id: 'c_1', msg_id: 'm-1', status: 'queued' } };
    await checkAnswerAgainstOpenApi(t.url, request, { status: 202, headers, body: good });
    const drifted = { ...good, data: { ...good.data, status: 'maybe' } };
    const refusal = async (answer: { status: number; headers: Headers; body: unknown }): Promise<string> => {
      try {
        await checkAnswerAgainstOpenApi(t.url, request, answer);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(await refusal({ status: 202, headers, body: drifted })).to.match(/does not match the document/);
    expect(await refusal({ status: 202, headers, body: { ...good, data: { ...good.data, extra: 1 } } })).to.match(/does not match/);
    expect(await refusal({ status: 418, headers, body: good })).to.match(/not documented/);
    expect(await refusal({ status: 202, headers: new Headers({ 'content-type': 'application/json' }), body: good })).to.match(
      /X-Request-Id is missing/,
    );
    expect(
      await refusal({
        status: 202,
        headers: new Headers({ 'x-request-id': 'r', 'content-type': 'application/json', 'retry-after': '1' }),
        body: good,
      }),
    ).to.match(/retry-after is not documented/);
    expect(
      await refusal({ status: 202, headers: new Headers({ 'x-request-id': 'r', 'content-type': 'text/html' }), body: '<p>ok</p>' }),
    ).to.match(/Content-Type text\/html of the 202 answer .* is not documented/);
    expect(await refusal({ status: 202, headers: new Headers({ 'x-request-id': 'r' }), body: good })).to.match(/Content-Type \(none\)/);
  });

  it('forgets a closed test API, so a later server on its reused port is not checked as an API', async () => {
    // CI once failed here: a CLI listener got the port of an API closed earlier in the same run, and
    // the guard, still taking that origin for an API, tried to read the listener's OpenAPI document.
    const other = await startTestApi();
    const origin = new URL(other.url).origin;
    expect(isRegisteredApi(origin)).to.equal(true);
    await other.close();
    expect(isRegisteredApi(origin)).to.equal(false);
  });
});
