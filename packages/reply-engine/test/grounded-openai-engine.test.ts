import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineFromConfig, type ConfiguredEngine, type EngineLogger } from './internals.js';
import { fileMessage, requestOf, textMessage } from './context-messages.js';
import { completionBody, startFakeChatServer, type FakeChatServer, type RecordedRequest } from '@dialog-relay/testkit';

interface Sent {
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { schema?: { required?: string[] } } };
}
interface LogCall {
  level: 'info' | 'warn';
  message: string;
  meta: Record<string, unknown> | undefined;
}

const sentOf = (request: RecordedRequest): Sent => JSON.parse(request.body) as Sent;
/** The entry ids a grounded system prompt shows ("[id: …]" lines). */
const shownIds = (system: string): string[] => [...system.matchAll(/^\[id: ([^\]\n]+)\]$/gm)].map((m) => m[1] ?? '');
const json = (value: unknown): string => JSON.stringify(value);

const SHOP_FAQ = `
fallback: { en: "A person from Birch will write to you.", zh: "Birch 的同事会联系您。" }
entries:
  - id: birch-returns
    questions: ["How do I return an item?", "return policy"]
    answer: { en: "Returns are free within 45 days.", zh: "45 天内免费退货。" }
  - id: birch-hours
    questions: ["When are you open?"]
    answer: "Open 10 to 4."
`;

describe("openai engine grounded in the client's knowledge (fake model on loopback)", () => {
  let server: FakeChatServer | undefined;
  let engine: ConfiguredEngine | undefined;
  let dir: string;
  let logs: LogCall[];
  /** What the fake model answers, from the request. */
  let answer: (sent: Sent) => string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'grounded-'));
    logs = [];
    answer = (sent) => json({ answer: 'From the entries.', handoff: false, sources: shownIds(sent.messages[0]!.content).slice(0, 1) });
  });
  afterEach(async () => {
    engine?.close();
    engine = undefined;
    await server?.close();
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const logger: EngineLogger = {
    info: (message, meta) => logs.push({ level: 'info', message, meta }),
    warn: (message, meta) => logs.push({ level: 'warn', message, meta }),
  };
  const build = async (
    options: { contextEntries?: number; contextMaxChars?: number; knowledgeFileOf?: (client: string) => string | undefined } = {},
  ) => {
    server = await startFakeChatServer((request) => ({ status: 200, body: completionBody(answer(sentOf(request))) }));
    engine = await createEngineFromConfig(
      {
        kind: 'openai',
        baseUrl: server.baseUrl,
        apiKey: 'sk-grounded-test-0123456789',
        model: 'm',
        timeoutMs: 2000,
        maxRetries: 0,
        systemPrompt: 'You are the Northwind Goods assistant. Be warm.',
        knowledgeFile: undefined,
        contextEntries: options.contextEntries ?? 6,
        contextMaxChars: options.contextMaxChars ?? 8000,
      },
      {
        fallbackText: 'The model failed.',
        logger,
        watchIntervalMs: 0,
        ...(options.knowledgeFileOf ? { knowledgeFileOf: options.knowledgeFileOf } : {}),
      },
    );
    return { engine, server };
  };
  const ask = (text: string, client?: string) =>
    engine!.reply({ ...requestOf(textMessage('customer', text)), ...(client === undefined ? {} : { client }) });

  it("puts the best entries, with ids and answers, after the operator's prompt and the fixed rules, and asks for {answer, handoff, sources}", async () => {
    const { server } = await build();
    const reply = await ask('How long does delivery take?');
    expect(reply).to.deep.equal({
      content: [{ type: 'text', content: 'From the entries.' }],
      handoff: false,
      sources: ['shipping-time'],
      outcome: 'answered',
    });
    const sent = sentOf(server.requests[0]!);
    const system = sent.messages[0]!;
    expect(system.role).to.equal('system');
    expect(system.content.startsWith('You are the Northwind Goods assistant. Be warm.\n\nRules for every answer:')).to.equal(true);
    expect(system.content).to.include('only source of facts').and.include('set "handoff" to true').and.include('reply in English');
    const ids = shownIds(system.content);
    expect(ids[0]).to.equal('shipping-time');
    expect(ids.length).to.be.within(2, 6);
    expect(system.content).to.include('[id: shipping-time]\nOrders placed before');
    expect(sent.response_format?.type).to.equal('json_schema');
    expect(sent.response_format?.json_schema?.schema?.required).to.deep.equal(['answer', 'handoff', 'sources']);
  });

  it("keeps the customer's words out of the system message: they go in user messages only", async () => {
    const { server } = await build();
    const words = 'Zebra-coloured parcel please, order 7731';
    await engine!.reply(
      requestOf(textMessage('customer', words), [
        textMessage('customer', 'earlier question about zebra stripes'),
        textMessage('bot', 'Happy to help.'),
      ]),
    );
    const { messages } = sentOf(server.requests[0]!);
    expect(messages[0]!.content).not.to.include('7731').and.not.to.include('zebra');
    expect(messages.slice(1).map((m) => m.role)).to.deep.equal(['user', 'assistant', 'user']);
    expect(messages[messages.length - 1]).to.deep.equal({ role: 'user', content: words });
  });

  it("names the customer's language and shows the entries' answers in it", async () => {
    const { server } = await build();
    await ask('我想退货，怎么办？');
    const system = sentOf(server.requests[0]!).messages[0]!.content;
    expect(system).to.include('The customer writes in Chinese (zh): reply in Chinese.');
    expect(shownIds(system)).to.include('returns-refunds');
    expect(system).to.match(/\[id: returns-refunds\]\n[^\n]*[\u4e00-\u9fff]/u);
  });

  it('drops sources the prompt did not show, and keeps each shown one once', async () => {
    answer = (sent) => {
      const [first] = shownIds(sent.messages[0]!.content);
      return json({ answer: 'Yes.', handoff: false, sources: ['invented-entry', first, first, 'careers'] });
    };
    await build({ contextEntries: 2 });
    const reply = await ask('How long does delivery take?');
    expect(reply.sources).to.deep.equal(['shipping-time']);
    expect(reply.handoff).to.equal(false);
  });

  it("attaches the file parts of the first source's entry to the model's answer, in the customer's language, and none of the other sources'", async () => {
    const file = join(dir, 'files.yaml');
    await writeFile(
      file,
      `
fallback: "A person will write to you."
entries:
  - id: size-chart
    questions: ["Where is the size chart?"]
    answer:
      en: [{ type: text, content: "Here is the size chart." }, { type: document, content: "https://shop.example/sizes-en.pdf" }]
      zh: [{ type: text, content: "尺码表在这里。" }, { type: document, content: "https://shop.example/sizes-zh.pdf" }]
  - id: catalogue
    questions: ["Do you have a catalogue with sizes?"]
    answer: [{ type: text, content: "Our catalogue." }, { type: image, content: "https://shop.example/catalogue.jpg" }]
`,
    );
    answer = () => json({ answer: 'See the attached chart.', handoff: false, sources: ['size-chart', 'catalogue'] });
    await build({ knowledgeFileOf: (client) => (client === 'files' ? file : undefined) });
    const reply = await ask('Where is the size chart?', 'files');
    expect(reply.content).to.deep.equal([
      { type: 'text', content: 'See the attached chart.' },
      { type: 'document', content: 'https://shop.example/sizes-en.pdf' },
    ]);
    expect(reply.sources).to.deep.equal(['size-chart', 'catalogue']);
    const chinese = await ask('尺码表在哪里？', 'files');
    expect(chinese.content.slice(1)).to.deep.equal([{ type: 'document', content: 'https://shop.example/sizes-zh.pdf' }]);
    answer = () => json({ answer: 'Open 10 to 4.', handoff: false, sources: [] });
    const unsourced = await ask('Where is the size chart?', 'files');
    expect(unsourced.content).to.deep.equal([{ type: 'text', content: 'Open 10 to 4.' }]);
  });

  it("answers a model's handoff with the knowledge file's fallback in the customer's language", async () => {
    answer = () => json({ answer: 'I am not sure, maybe 90 days?', handoff: true, sources: ['returns-refunds'] });
    await build();
    expect(await ask('Can I pay with seashells?')).to.deep.equal({
      content: [{ type: 'text', content: 'Thanks for your message. A colleague from Northwind Goods will get back to you shortly.' }],
      handoff: true,
      sources: [],
      outcome: 'handoff',
    });
    const zh = await ask('可以用贝壳付款吗？');
    expect(zh.content).to.deep.equal([{ type: 'text', content: '感谢您的留言，Northwind Goods 的同事会尽快回复您。' }]);
    expect(zh.handoff).to.equal(true);
  });

  it('still works with a server that ignores response_format: plain text is the answer, fenced JSON is read', async () => {
    answer = () => 'We ship within 2 business days.';
    await build();
    expect(await ask('How long does delivery take?')).to.deep.equal({
      content: [{ type: 'text', content: 'We ship within 2 business days.' }],
      handoff: false,
      sources: [],
      outcome: 'answered',
    });
    answer = () => '```json\n{"answer": "Two days.", "handoff": false, "sources": ["shipping-time"]}\n```';
    expect(await ask('How long does delivery take?')).to.deep.equal({
      content: [{ type: 'text', content: 'Two days.' }],
      handoff: false,
      sources: ['shipping-time'],
      outcome: 'answered',
    });
    answer = () => '```\n{"answer": "", "handoff": true, "sources": []}\n```';
    expect((await ask('How long does delivery take?')).handoff).to.equal(true);
  });

  it('gives the fallback (outcome error, a handoff) for JSON that is not the answer asked for, never showing it to the customer', async () => {
    for (const body of ['{"reply": "hi"}', '{"answer": "cut off', '{"answer": "  ", "handoff": false, "sources": []}']) {
      answer = () => body;
      await build();
      expect(await ask('How long does delivery take?'), body).to.deep.equal({
        content: [{ type: 'text', content: 'The model failed.' }],
        handoff: true,
        sources: [],
        outcome: 'error',
      });
      engine!.close();
      await server!.close();
      server = undefined;
    }
  });

  it("makes no model call for a message without text: a handoff in the customer's language", async () => {
    const { server } = await build();
    const reply = await engine!.reply(
      requestOf(fileMessage('customer', 'image', 'https://x.example/a.jpg'), [textMessage('customer', '我的包裹坏了')]),
    );
    expect(reply).to.deep.equal({
      content: [{ type: 'text', content: '感谢您的留言，Northwind Goods 的同事会尽快回复您。' }],
      handoff: true,
      sources: [],
      outcome: 'handoff',
    });
    expect(server.requests).to.have.length(0);
  });

  it('shows a follow-up the entries of the question it follows', async () => {
    const { server } = await build();
    await engine!.reply(
      requestOf(textMessage('customer', 'and to Japan?'), [
        textMessage('customer', 'Do you ship internationally?'),
        textMessage('bot', 'Which country?'),
      ]),
    );
    expect(shownIds(sentOf(server.requests[0]!).messages[0]!.content)).to.include('international-shipping');
  });

  it('holds KNOWLEDGE_CONTEXT_ENTRIES and KNOWLEDGE_CONTEXT_MAX_CHARS', async () => {
    const { server } = await build({ contextEntries: 3 });
    await ask('I want to return a damaged item and get my refund');
    expect(shownIds(sentOf(server.requests[0]!).messages[0]!.content)).to.have.length(3);
    engine!.close();
    await server.close();
    const small = await build({ contextMaxChars: 500 });
    await ask('I want to return a damaged item and get my refund');
    const system = sentOf(small.server.requests[0]!).messages[0]!.content;
    const knowledge = system.slice(system.indexOf('Knowledge entries'));
    expect(shownIds(system).length).to.be.at.least(1);
    expect(knowledge.length).to.be.below(500 + 100);
  });

  it('shows a client only its own knowledge file, and other clients the default', async () => {
    const own = join(dir, 'birch.yaml');
    await writeFile(own, SHOP_FAQ);
    const { server } = await build({ knowledgeFileOf: (client) => (client === 'birch' ? own : undefined) });
    await ask('How do I return an item?', 'birch');
    await ask('How do I return an item?', 'northwind');
    const [birch, northwind] = server.requests.map((request) => shownIds(sentOf(request).messages[0]!.content));
    expect(birch).to.include('birch-returns');
    expect(
      birch!.every((id) => id.startsWith('birch-')),
      `birch saw ${birch!.join(', ')}`,
    ).to.equal(true);
    expect(northwind).to.include('returns-refunds');
    expect(northwind!.some((id) => id.startsWith('birch-'))).to.equal(false);
    answer = () => json({ answer: '', handoff: true, sources: [] });
    expect((await ask('Can I pay in gold?', 'birch')).content).to.deep.equal([
      { type: 'text', content: 'A person from Birch will write to you.' },
    ]);
  });

  it("logs at info the entries shown, the sources and the outcome, never the customer's text or the model's answer", async () => {
    answer = (sent) =>
      json({ answer: 'Secret-answer-text: two days.', handoff: false, sources: shownIds(sent.messages[0]!.content).slice(0, 1) });
    await build();
    await ask('Customer-private-words: how long does delivery take?');
    const replied = logs.filter((call) => call.message === 'openai engine: replied');
    expect(replied).to.have.length(1);
    expect(replied[0]!.level).to.equal('info');
    expect(replied[0]!.meta).to.include({ outcome: 'answered', language: 'en' });
    expect(replied[0]!.meta?.['sources']).to.deep.equal(['shipping-time']);
    expect(replied[0]!.meta?.['entries']).to.include('shipping-time');
    const logged = JSON.stringify(logs);
    expect(logged).not.to.include('Customer-private-words').and.not.to.include('Secret-answer-text');
  });
});
