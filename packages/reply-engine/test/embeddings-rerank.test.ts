import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmbeddingsConfig } from '@dialog-relay/config';
import { createEngineFromConfig, RANKED_TEXT_MAX_CHARS, type ConfiguredEngine } from './internals.js';
import { requestOf, textMessage } from './context-messages.js';
import { freePort, startFakeChatServer, type FakeAnswer, type FakeChatServer, type RecordedRequest } from '@dialog-relay/testkit';

const FAQ = `
fallback: "A colleague will answer."
entries:
  - id: order-status
    questions: ["Where is my order?", "Track my package"]
    answer: "Your order is on its way."
  - id: refunds
    questions: ["Can I get a refund?"]
    answer: "Refunds take 5 days."
`;

/** Topic vectors: parcels, money, weather; the fake model knows that "stuff" is a parcel and "dough" is money. */
function vectorOf(text: string): number[] {
  const has = (pattern: RegExp): number => (pattern.test(text.toLowerCase()) ? 1 : 0);
  return [has(/order|package|stuff|parcel/), has(/refund|dough/), has(/weather|rain/), 0.01];
}

function embeddingsAnswer(request: RecordedRequest): FakeAnswer {
  const { input } = JSON.parse(request.body) as { input: string[] };
  return {
    status: 200,
    body: JSON.stringify({ object: 'list', data: input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })) }),
  };
}

describe('embeddings re-rank of the knowledge engine', () => {
  let dir: string;
  let server: FakeChatServer | undefined;
  let engine: ConfiguredEngine | undefined;
  const warnings: string[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reply-engine-embeddings-'));
    await writeFile(join(dir, 'faq.yaml'), FAQ);
    warnings.length = 0;
  });
  afterEach(async () => {
    engine?.close();
    await server?.close();
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const build = async (embeddings: EmbeddingsConfig): Promise<ConfiguredEngine> => {
    engine = await createEngineFromConfig(
      { kind: 'knowledge', knowledgeFile: join(dir, 'faq.yaml'), embeddings },
      { fallbackText: '', logger: { warn: (message) => warnings.push(message) }, watchIntervalMs: 0 },
    );
    return engine;
  };
  const ask = async (text: string): Promise<string | undefined> =>
    (await engine!.reply(requestOf(textMessage('customer', text)))).content[0]?.content;
  const inputsOf = (request: RecordedRequest): string[] => (JSON.parse(request.body) as { input: string[] }).input;

  it('answers a message the words miss from the closest phrasing, embedding the phrasings once', async () => {
    server = await startFakeChatServer(embeddingsAnswer);
    await build({ baseUrl: server.baseUrl, apiKey: 'ek', model: 'embed-test', timeoutMs: 2000 });
    expect(await ask('any news on my stuff?')).to.equal('Your order is on its way.');
    expect(await ask('give me my dough')).to.equal('Refunds take 5 days.');
    expect(server.requests.map((r) => r.url)).to.deep.equal(['/v1/embeddings', '/v1/embeddings', '/v1/embeddings']);
    expect(inputsOf(server.requests[0]!)).to.deep.equal(['Where is my order?', 'Track my package', 'Can I get a refund?']);
    expect(inputsOf(server.requests[2]!)).to.deep.equal(['give me my dough']);
    expect(JSON.parse(server.requests[0]!.body)).to.include({ model: 'embed-test' });
    expect(server.requests[0]!.headers['authorization']).to.equal('Bearer ek');
  });

  it('does not ask the endpoint when the words are confident, nor for a message without words', async () => {
    server = await startFakeChatServer(embeddingsAnswer);
    await build({ baseUrl: server.baseUrl, apiKey: undefined, model: 'm', timeoutMs: 2000 });
    expect(await ask('Can I get a refund please?')).to.equal('Refunds take 5 days.');
    expect(await ask('thanks!')).to.equal('A colleague will answer.');
    expect(server.requests).to.deep.equal([]);
  });

  it('keeps the fallback when no entry is similar enough', async () => {
    server = await startFakeChatServer(embeddingsAnswer);
    await build({ baseUrl: server.baseUrl, apiKey: undefined, model: 'm', timeoutMs: 2000 });
    expect(await ask('will it rain tomorrow')).to.equal('A colleague will answer.');
    expect(warnings).to.deep.equal([]);
  });

  it('sends the endpoint only the part of a long message the engine ranks', async () => {
    server = await startFakeChatServer(embeddingsAnswer);
    await build({ baseUrl: server.baseUrl, apiKey: undefined, model: 'm', timeoutMs: 2000 });
    const long = `any news on my stuff? ${'zz '.repeat(200_000)}`;
    expect(await ask(long)).to.equal('Your order is on its way.');
    expect(inputsOf(server.requests[1]!)).to.deep.equal([long.slice(0, RANKED_TEXT_MAX_CHARS)]);
  });

  it('fails the re-rank, with a warning, when the endpoint answers more than its size limit', async () => {
    const vector = Array.from({ length: 50_000 }, () => 0.123456789);
    server = await startFakeChatServer((request) => ({
      status: 200,
      body: JSON.stringify({ data: inputsOf(request).map((_text, index) => ({ index, embedding: vector })) }),
    }));
    await build({ baseUrl: server.baseUrl, apiKey: undefined, model: 'm', timeoutMs: 2000 });
    expect(await ask('any news on my stuff?')).to.equal('A colleague will answer.');
    expect(warnings).to.deep.equal(['embeddings re-rank failed, answering from the knowledge file alone']);
  });

  it('answers with the fallback and a warning when the endpoint fails or is down', async () => {
    server = await startFakeChatServer(() => ({ status: 500, body: '{"error":"boom"}' }));
    await build({ baseUrl: server.baseUrl, apiKey: undefined, model: 'm', timeoutMs: 2000 });
    expect(await ask('any news on my stuff?')).to.equal('A colleague will answer.');
    engine?.close();
    await build({ baseUrl: `http://127.0.0.1:${await freePort()}/v1`, apiKey: undefined, model: 'm', timeoutMs: 500 });
    expect(await ask('any news on my stuff?')).to.equal('A colleague will answer.');
    expect(warnings).to.deep.equal([
      'embeddings re-rank failed, answering from the knowledge file alone',
      'embeddings re-rank failed, answering from the knowledge file alone',
    ]);
  });
});
