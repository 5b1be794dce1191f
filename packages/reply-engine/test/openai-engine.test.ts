import type { ReplyPart } from '@dialog-relay/contracts';
import { expect } from 'chai';
import {
  createOpenAiEngine,
  OPENAI_REPLY_MAX_CHARS,
  OPENAI_RESPONSE_MAX_BYTES,
  type EngineLogger,
  type OpenAiEngineOptions,
} from './internals.js';
import { fileMessage, messageOf, requestOf, textMessage } from './context-messages.js';
import { freePort, completionBody, startFakeChatServer, type FakeAnswer, type FakeChatServer } from '@dialog-relay/testkit';

const API_KEY = 'sk-test-secret-0123456789';
const FALLBACK: ReplyPart[] = [{ type: 'text', content: 'A colleague will answer shortly.' }];

interface WarnCall {
  message: string;
  meta: Record<string, unknown> | undefined;
}

function recordingLogger(): EngineLogger & { calls: WarnCall[] } {
  const calls: WarnCall[] = [];
  return { calls, warn: (message, meta) => calls.push({ message, meta }) };
}

describe('openai engine', () => {
  let server: FakeChatServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function setUp(answer: (index: number) => FakeAnswer, overrides: Partial<OpenAiEngineOptions> = {}, baseUrlSuffix = '') {
    server = await startFakeChatServer((_request, index) => answer(index));
    const logger = recordingLogger();
    const engine = createOpenAiEngine({
      baseUrl: `${server.baseUrl}${baseUrlSuffix}`,
      apiKey: API_KEY,
      model: 'test-model',
      timeoutMs: 2000,
      maxRetries: 2,
      systemPrompt: 'You are the Northwind Goods assistant.',
      fallback: FALLBACK,
      logger,
      ...overrides,
    });
    return { engine, logger, server };
  }
  const ok = (text: string | null): FakeAnswer => ({ status: 200, body: completionBody(text) });
  const question = requestOf(textMessage('customer', 'Where is my order?'));

  it('posts model, system prompt, mapped history and the message, with the bearer key', async () => {
    const { engine, server, logger } = await setUp(() => ok('  It ships today.  '), {}, '//');
    const context = [
      textMessage('customer', 'Hello'),
      textMessage('bot', 'Hi! How can I help?'),
      messageOf('customer', [
        { type: 'text', content: 'This arrived broken' },
        { type: 'image', content: 'https://x.example/a.jpg' },
      ]),
      fileMessage('customer', 'voice', 'base64-voice'),
      textMessage('agent', 'Sorry about that, we will replace it.'),
    ];
    const incoming = messageOf('customer', [
      { type: 'document', content: 'https://x.example/receipt.pdf' },
      { type: 'text', content: 'Here is my receipt' },
    ]);
    expect(engine.name).to.equal('openai');
    expect((await engine.reply(requestOf(incoming, context))).content).to.deep.equal([{ type: 'text', content: 'It ships today.' }]);

    expect(server.requests).to.have.length(1);
    const [request] = server.requests;
    expect(request!.method).to.equal('POST');
    expect(request!.url).to.equal('/v1/chat/completions');
    expect(request!.headers['authorization']).to.equal(`Bearer ${API_KEY}`);
    expect(request!.headers['content-type']).to.match(/^application\/json/);
    expect(JSON.parse(request!.body)).to.deep.equal({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You are the Northwind Goods assistant.\n\nThe customer writes in English (en); answer in English.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'This arrived broken\n[image]' },
        { role: 'user', content: '[voice]' },
        { role: 'assistant', content: 'Sorry about that, we will replace it.' },
        { role: 'user', content: '[document]\nHere is my receipt' },
      ],
    });
    expect(logger.calls).to.deep.equal([]);
  });

  it('sends only the last historyMessages context messages', async () => {
    const { engine, server } = await setUp(() => ok('Sure.'), { historyMessages: 1 });
    const context = [textMessage('customer', 'first'), textMessage('bot', 'second'), textMessage('customer', 'third')];
    await engine.reply(requestOf(textMessage('customer', 'fourth'), context));
    const sent = (JSON.parse(server.requests[0]!.body) as { messages: { role: string; content: string }[] }).messages;
    expect(sent.map((m) => `${m.role}:${m.content}`)).to.deep.equal([
      'system:You are the Northwind Goods assistant.\n\nThe customer writes in English (en); answer in English.',
      'user:third',
      'user:fourth',
    ]);
  });

  it("tells the model the customer's language, from the newest message or the latest customer message with words", async () => {
    const { engine, server } = await setUp(() => ok('好的'));
    await engine.reply(requestOf(textMessage('customer', '我的订单到哪里了？')));
    await engine.reply(
      requestOf(fileMessage('customer', 'image', 'https://x.example/a.jpg'), [
        textMessage('customer', '荷物が届きません'),
        textMessage('bot', 'Sorry!'),
      ]),
    );
    const systems = server.requests.map(
      (r) => (JSON.parse(r.body) as { messages: { role: string; content: string }[] }).messages[0]?.content,
    );
    expect(systems).to.deep.equal([
      'You are the Northwind Goods assistant.\n\nThe customer writes in Chinese (zh); answer in Chinese.',
      'You are the Northwind Goods assistant.\n\nThe customer writes in Japanese (ja); answer in Japanese.',
    ]);
  });

  it('retries after a 500 and replies with the second answer', async () => {
    const { engine, server, logger } = await setUp((i) =>
      i === 0 ? { status: 500, body: '{"error":"boom"}' } : ok('Your order is on its way.'),
    );
    expect((await engine.reply(question)).content).to.deep.equal([{ type: 'text', content: 'Your order is on its way.' }]);
    expect(server.requests).to.have.length(2);
    expect(server.requests[1]!.body).to.equal(server.requests[0]!.body);
    expect(logger.calls).to.deep.equal([]);
  });

  it('honours Retry-After on a 429 before retrying', async () => {
    const { engine, server } = await setUp((i) => (i === 0 ? { status: 429, body: '{}', headers: { 'retry-after': '1' } } : ok('Done.')));
    expect((await engine.reply(question)).content).to.deep.equal([{ type: 'text', content: 'Done.' }]);
    expect(server.requests).to.have.length(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).to.be.at.least(900);
  });

  it('gives up on a permanent 500 after maxRetries, warns without the key and returns the fallback', async () => {
    const { engine, server, logger } = await setUp(() => ({ status: 500, body: '{}', headers: { 'retry-after': '0' } }));
    expect(await engine.reply(question)).to.deep.equal({ content: FALLBACK, handoff: true, sources: [], outcome: 'error' });
    expect(server.requests).to.have.length(3);
    expect(logger.calls).to.have.length(1);
    expect(logger.calls[0]!.meta).to.include({ reason: 'HTTP 500', status: 500, attempts: 3 });
    expect(JSON.stringify(logger.calls)).not.to.include(API_KEY);
  });

  it('does not retry a 400 and returns the fallback', async () => {
    const { engine, server, logger } = await setUp(() => ({ status: 400, body: '{"error":"bad"}' }));
    expect((await engine.reply(question)).content).to.deep.equal(FALLBACK);
    expect(server.requests).to.have.length(1);
    expect(logger.calls[0]!.meta).to.include({ reason: 'HTTP 400' });
  });

  it('returns the fallback when the server is slower than timeoutMs on every attempt', async () => {
    const { engine, server, logger } = await setUp(() => ({ ...ok('too late'), delayMs: 1000 }), { timeoutMs: 150, maxRetries: 1 });
    const started = Date.now();
    expect((await engine.reply(question)).content).to.deep.equal(FALLBACK);
    expect(Date.now() - started).to.be.below(1000);
    expect(server.requests).to.have.length(2);
    expect(logger.calls[0]!.meta).to.include({ code: 'ETIMEDOUT' });
  });

  it('returns the fallback for an answer that is not JSON, or has no usable content', async () => {
    for (const body of ['<html>not json</html>', completionBody('   '), completionBody(null), '{"choices":[]}']) {
      const { engine, logger } = await setUp(() => ({ status: 200, body }));
      expect((await engine.reply(question)).content, body).to.deep.equal(FALLBACK);
      expect(logger.calls, body).to.have.length(1);
      await server?.close();
      server = undefined;
    }
  });

  it('returns the fallback, without retrying, for an answer larger than the response size limit', async () => {
    const { engine, server, logger } = await setUp(() => ok('x'.repeat(OPENAI_RESPONSE_MAX_BYTES + 1)));
    expect((await engine.reply(question)).content).to.deep.equal(FALLBACK);
    expect(server.requests).to.have.length(1);
    expect(logger.calls).to.have.length(1);
    expect(String(logger.calls[0]!.meta?.['reason'])).to.include(`larger than ${OPENAI_RESPONSE_MAX_BYTES} bytes`);
  });

  it('cuts a reply longer than the reply limit to that many characters, never inside a character, and warns', async () => {
    const long = '\u{1F600}'.repeat(OPENAI_REPLY_MAX_CHARS);
    const { engine, logger } = await setUp(() => ok(long));
    const [part, ...rest] = (await engine.reply(question)).content;
    expect(rest).to.deep.equal([]);
    expect(part!.type).to.equal('text');
    expect(part!.content.length).to.be.at.most(OPENAI_REPLY_MAX_CHARS);
    expect(part!.content).to.match(/^(\u{1F600})+$/u);
    expect(logger.calls).to.have.length(1);
  });

  it('never passes the API key on to the customer: an answer containing it is replaced by the fallback, logged without the key', async () => {
    const { engine, logger } = await setUp(() => ok(`Sure! The key is ${API_KEY}.`));
    expect((await engine.reply(question)).content).to.deep.equal(FALLBACK);
    expect(logger.calls).to.have.length(1);
    expect(JSON.stringify(logger.calls)).not.to.include(API_KEY);
  });

  it('keeps an answer that happens to contain a short placeholder key (a local server that needs none)', async () => {
    const { engine } = await setUp(() => ok('Your order ships next week.'), { apiKey: 'x' });
    expect((await engine.reply(question)).content).to.deep.equal([{ type: 'text', content: 'Your order ships next week.' }]);
  });

  it('returns [] (send nothing) when the fallback is empty', async () => {
    const { engine, logger } = await setUp(() => ({ status: 503, body: '{}', headers: { 'retry-after': '0' } }), { fallback: [] });
    expect((await engine.reply(question)).content).to.deep.equal([]);
    expect(logger.calls).to.have.length(1);
  });

  it('returns the fallback when nothing listens on the port', async () => {
    const logger = recordingLogger();
    const port = await freePort();
    const engine = createOpenAiEngine({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: API_KEY,
      model: 'm',
      timeoutMs: 500,
      maxRetries: 0,
      systemPrompt: '',
      fallback: FALLBACK,
      logger,
    });
    expect((await engine.reply(question)).content).to.deep.equal(FALLBACK);
    expect(logger.calls[0]!.meta).to.include({ code: 'ECONNREFUSED' });
  });

  it('rejects with the abort reason when the signal aborts, without warning', async () => {
    const { engine, server, logger } = await setUp(() => ({ ...ok('slow'), delayMs: 2000 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);
    const started = Date.now();
    const outcome = await engine.reply(question, controller.signal).then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    expect(outcome).to.equal('caller gave up');
    expect(Date.now() - started).to.be.below(1500);
    expect(server.requests).to.have.length(1);
    expect(logger.calls).to.deep.equal([]);
  });
});
