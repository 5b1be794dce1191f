import { waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, WEBHOOK_SECRET, type System } from './support/system.js';

/** The shop's own knowledge: the model must see these entries and never the bundled example's. */
const OWN_FAQ = `
fallback: { en: "A person from Birch Lane will answer you here.", zh: "Birch Lane 的同事会在这里回复您。" }
entries:
  - id: birch-returns
    questions: ["How do I return an item?", "return policy"]
    answer: { en: "Returns are free within 45 days.", zh: "45 天内免费退货。" }
  - id: birch-shipping
    questions: ["How long does delivery take?"]
    answer: "Parcels arrive in 3 days."
  - id: birch-catalogue
    questions: ["Do you have a printed catalogue?"]
    answer: [{ type: text, content: "Here is our catalogue." }, { type: document, content: "https://birch.example/catalogue.pdf" }]
`;

interface ModelRequest {
  messages: { role: string; content: string }[];
  response_format?: { type: string };
}

/** The entry ids a grounded system prompt shows. */
const shownIds = (system: string): string[] => [...system.matchAll(/^\[id: ([^\]\n]+)\]$/gm)].map((m) => m[1] ?? '');

describe('grounded replies and handoff through the public API (recording fake model on loopback)', function () {
  let dir: string;
  let model: Server;
  let system: System;
  let receiver: Receiver;
  const seen: ModelRequest[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'grounded-e2e-'));
    const ownFile = join(dir, 'birch-lane.yaml');
    await writeFile(ownFile, OWN_FAQ);
    // The model hands off when the customer mentions seashells; otherwise it answers from the first
    // entry it was shown and also names an entry of the bundled example it never saw.
    model = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const request = JSON.parse(raw) as ModelRequest;
        seen.push(request);
        const last = request.messages[request.messages.length - 1]?.content ?? '';
        const [first] = shownIds(request.messages[0]?.content ?? '');
        const answer = /seashell|贝壳/.test(last)
          ? { answer: 'Maybe ask later?', handoff: true, sources: [] }
          : { answer: `Answer from ${first ?? 'nothing'}.`, handoff: false, sources: [first, 'returns-refunds'] };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(answer) } }] }));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    receiver = await startReceiver();
    system = await startSystem({
      workers: 1,
      env: {
        REPLY_ENGINE: 'openai',
        OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
        OPENAI_API_KEY: 'sk-grounded-e2e',
        OPENAI_TIMEOUT_MS: '2000',
        OPENAI_MAX_RETRIES: '0',
        HANDOFF_PAUSE_S: '600',
        CLIENTS: JSON.stringify({
          shop: { secret: 'shop-secret-0001', webhook_secret: WEBHOOK_SECRET, rate_limit_per_s: 10_000, knowledge_file: ownFile },
        }),
      },
    });
  });
  after(async () => {
    await system.close();
    await receiver.close();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  /** `from` asks `content` in a synchronous scenario through the public API; the answer is a 200 whose data includes `expected`. */
  const expectAnswer = async (
    question: { event_type: string; from: string; to: string; content: string; id: string },
    expected: Record<string, unknown>,
  ): Promise<void> => {
    const answer = await system.send({
      from_user_id: question.from,
      to_user_id: question.to,
      content: question.content,
      event_type: question.event_type,
      msg_id: `${question.id}-${Date.now()}`,
    });
    expect(answer.status, JSON.stringify(answer.json)).to.equal(200);
    expect(answer.json.data).to.deep.include(expected);
  };

  it("website_dialog: the model's answer is the reply, handoff false, sources only entries of the prompt, which holds only the client's own knowledge", async () => {
    const before = seen.length;
    await expectAnswer(
      { event_type: 'website_dialog', from: 'web-visitor', to: 'site', content: 'How do I return an item?', id: 'g-web' },
      {
        content: [{ type: 'text', content: 'Answer from birch-returns.' }],
        handoff: false,
        sources: ['birch-returns'],
      },
    );
    const request = seen[before]!;
    const prompt = request.messages[0]!;
    expect(prompt.role).to.equal('system');
    expect(shownIds(prompt.content)).to.include('birch-returns');
    expect(shownIds(prompt.content).every((id) => id.startsWith('birch-'))).to.equal(true);
    expect(prompt.content).to.include('reply in English').and.not.to.include('How do I return an item?');
    expect(request.messages[request.messages.length - 1]).to.deep.equal({ role: 'user', content: 'How do I return an item?' });
    expect(request.response_format?.type).to.equal('json_schema');
  });

  it("website_dialog: the model's answer carries the file parts of its first source's entry, as the knowledge engine sends them", async () => {
    await expectAnswer(
      { event_type: 'website_dialog', from: 'web-reader', to: 'site', content: 'Do you have a printed catalogue?', id: 'g-files' },
      {
        content: [
          { type: 'text', content: 'Answer from birch-catalogue.' },
          { type: 'document', content: 'https://birch.example/catalogue.pdf' },
        ],
        handoff: false,
        sources: ['birch-catalogue'],
      },
    );
  });

  it("assist_dialog: a model's handoff gives the client's fallback text in the customer's language, data.handoff true", async () => {
    const before = seen.length;
    await expectAnswer(
      { event_type: 'assist_dialog', from: 'assist-customer', to: 'agent', content: '我可以用贝壳付款吗？', id: 'g-assist' },
      {
        content: [{ type: 'text', content: 'Birch Lane 的同事会在这里回复您。' }],
        handoff: true,
        sources: [],
      },
    );
    expect(seen[before]!.messages[0]!.content).to.include('The customer writes in Chinese (zh): reply in Chinese.');
  });

  it('auto_dialog: a handoff is delivered with handoff true, then the bot stays quiet for HANDOFF_PAUSE_S until resume_auto_reply', async () => {
    const customer = { from_user_id: 'handoff-customer', to_user_id: 'bound-grounded' };
    const command = (content: string) => system.command(customer, content);
    /** The customer's `n`th message, its reply to the receiver. */
    const say = (content: string, n: number) =>
      system.send({ ...customer, content, msg_id: `g-auto-${n}-${Date.now()}` }, { send_url: receiver.url });
    receiver.requests.length = 0;
    const asked = await say('Do you take seashells?', 1);
    expect(asked.json.data).to.include({ status: 'queued' });
    const [handoff] = await receiver.waitFor(1);
    expect(handoff!.body).to.deep.include({ handoff: true, sources: [] });
    expect(handoff!.body.message_info['content']).to.equal('A person from Birch Lane will answer you here.');

    // The pause is set when the turn ends, after the delivery.
    let pausedUntil = 0;
    await waitUntil(async () => {
      const until = (await command('auto_reply_status')).json.data?.['paused_until'];
      pausedUntil = typeof until === 'string' ? Date.parse(until) : 0;
      return pausedUntil > 0;
    });
    expect(pausedUntil).to.be.greaterThan(Date.now() + 500_000);
    const modelCalls = seen.length;
    const during = await say('Hello? How long does delivery take?', 2);
    expect(during.json.data).to.include({ status: 'suppressed' });
    const status = await command('auto_reply_status');
    expect(status.json.data!['pending']).to.deep.equal([]);
    expect(seen.length).to.equal(modelCalls);
    expect(receiver.requests).to.have.length(1);

    expect((await command('resume_auto_reply')).json.data).to.include({ auto_reply: 'active' });
    expect((await command('auto_reply_status')).json.data).to.include({ paused_until: null });
    const after = await say('How long does delivery take?', 3);
    expect(after.json.data).to.include({ status: 'queued' });
    const [, answered] = await receiver.waitFor(2);
    expect(answered!.body).to.deep.include({ handoff: false, sources: ['birch-shipping'] });
    expect(answered!.body.message_info['content']).to.equal('Answer from birch-shipping.');
  });
});
