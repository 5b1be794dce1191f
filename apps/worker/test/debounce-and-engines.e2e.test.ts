import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem } from './support/system.js';
import { waitUntil } from '@dialog-relay/testkit';

describe('debounce', function () {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  beforeEach(() => {
    receiver.requests.length = 0;
  });

  it('answers three quick messages with one reply listing all three', async () => {
    const system = await startSystem({ workers: 1, env: { AUTO_REPLY_DEBOUNCE_MS: '600' } });
    try {
      const ids = ['d-1', 'd-2', 'd-3'].map((id) => `${id}-${Date.now()}`);
      for (const id of ids)
        await system.send(
          { msg_id: id, from_user_id: 'debounce-customer', to_user_id: 'bound', content: 'hi' },
          { send_url: receiver.url },
        );
      const [reply] = await receiver.waitFor(1);
      expect(reply!.body.in_reply_to).to.deep.equal(ids);
      await new Promise((resolve) => setTimeout(resolve, 700)); // proving an absence: no second reply follows
      expect(receiver.requests).to.have.length(1);
    } finally {
      await system.close();
    }
  });

  it('answers a customer who keeps typing faster than the debounce within AUTO_REPLY_MAX_WAIT_MS, each message once and in order', async () => {
    const system = await startSystem({ workers: 1, env: { AUTO_REPLY_DEBOUNCE_MS: '1000', AUTO_REPLY_MAX_WAIT_MS: '1500' } });
    try {
      const ids = Array.from({ length: 14 }, (_, i) => `burst-${i}-${Date.now()}`);
      let repliedWhileTyping = false;
      for (const id of ids) {
        await system.send(
          { msg_id: id, from_user_id: 'typing-customer', to_user_id: 'bound', content: 'and another thing' },
          { send_url: receiver.url },
        );
        if (receiver.requests.length > 0) repliedWhileTyping = true;
        await new Promise((resolve) => setTimeout(resolve, 250)); // typing: a message every 250 ms, 3.5 s in all
      }
      expect(repliedWhileTyping, 'a reply came before the customer stopped typing').to.equal(true);
      await waitUntil(() => receiver.requests.flatMap((r) => r.body.in_reply_to).length === ids.length, 10_000);
      expect(receiver.requests.flatMap((r) => r.body.in_reply_to)).to.deep.equal(ids);
      expect(receiver.requests.length).to.be.within(2, 4);
    } finally {
      await system.close();
    }
  });

  it('with 0, answers three quick messages with three replies in order', async () => {
    const system = await startSystem({ workers: 1, env: { AUTO_REPLY_DEBOUNCE_MS: '0' } });
    try {
      const ids = ['n-1', 'n-2', 'n-3'].map((id) => `${id}-${Date.now()}`);
      for (const id of ids)
        await system.send(
          { msg_id: id, from_user_id: 'nodebounce-customer', to_user_id: 'bound', content: 'hi' },
          { send_url: receiver.url },
        );
      const replies = await receiver.waitFor(3);
      expect(replies.map((r) => r.body.in_reply_to)).to.deep.equal(ids.map((id) => [id]));
    } finally {
      await system.close();
    }
  });
});

describe('openai engine in the worker, against a local OpenAI-compatible server', function () {
  let receiver: Receiver;
  let fake: Server;
  let fakeUrl: string;
  let failing = false;
  const seen: { authorization: string | undefined; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
  before(async () => {
    receiver = await startReceiver();
    fake = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        seen.push({ authorization: req.headers.authorization, body: JSON.parse(raw) as (typeof seen)[number]['body'] });
        if (failing) {
          res.writeHead(500).end('{"error":"down"}');
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: ' Your parcel ships today. ' } }] }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    await receiver.close();
    fake.closeAllConnections();
    await new Promise((resolve) => fake.close(resolve));
  });

  const engineEnv = () => ({
    REPLY_ENGINE: 'openai',
    OPENAI_BASE_URL: fakeUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODEL: 'tiny-model',
    OPENAI_TIMEOUT_MS: '1000',
    OPENAI_MAX_RETRIES: '1',
    REPLY_FALLBACK: 'A colleague will answer soon.',
  });

  it('delivers the model answer, sending the conversation as history', async () => {
    failing = false;
    const system = await startSystem({ workers: 1, env: engineEnv() });
    try {
      const accepted = await system.send(
        {
          from_user_id: 'ai-customer',
          to_user_id: 'bound',
          content: 'I ordered yesterday',
          from_user_type: 2,
          msg_id: `ai-1-${Date.now()}`,
        },
        { send_url: receiver.url },
      );
      expect(accepted.status, JSON.stringify(accepted.json)).to.equal(202);
      await receiver.waitFor(1);
      const delivered = async (): Promise<boolean> => {
        const status = await system.command({ from_user_id: 'ai-customer', to_user_id: 'bound' }, 'auto_reply_status');
        return (status.json.data?.['deliveries'] as { state: string }[] | undefined)?.[0]?.state === 'delivered';
      };
      await waitUntil(delivered); // the reply enters the context once its delivery succeeded
      await system.send(
        { from_user_id: 'ai-customer', to_user_id: 'bound', content: 'when will it ship?', msg_id: `ai-2-${Date.now()}` },
        { send_url: receiver.url },
      );
      const replies = await receiver.waitFor(2);
      expect(replies[1]!.body.message_info['content']).to.equal('Your parcel ships today.');
      const last = seen[seen.length - 1]!;
      expect(last.authorization).to.equal('Bearer sk-test');
      expect(last.body.model).to.equal('tiny-model');
      expect(last.body.messages.map((m) => m.role)).to.deep.equal(['system', 'user', 'assistant', 'user']);
      expect(last.body.messages[3]!.content).to.equal('when will it ship?');
    } finally {
      await system.close();
      receiver.requests.length = 0;
    }
  });

  it('sends the configured fallback when the model endpoint fails for good, and logs why', async () => {
    failing = true;
    const system = await startSystem({ workers: 1, env: engineEnv() });
    try {
      await system.send({ from_user_id: 'ai-customer-2', to_user_id: 'bound', content: 'hello?' }, { send_url: receiver.url });
      const [reply] = await receiver.waitFor(1);
      expect(reply!.body.message_info['content']).to.equal('A colleague will answer soon.');
      expect(system.workers[0]!.output()).to.include('"level":"warn"');
      expect(system.workers[0]!.output()).to.not.include('sk-test');
    } finally {
      await system.close();
    }
  });
});
