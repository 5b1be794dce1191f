import { listDeadLetters } from '@dialog-relay/replies';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_SECRET } from './support/system.js';
import { suiteSystem } from './support/suite-system.js';
import { waitUntil } from '@dialog-relay/testkit';

describe('auto_dialog delivery to send_url (API + real worker process + real receiver)', function () {
  const suite = suiteSystem({ workers: 1 });
  beforeEach(() => {
    suite.receiver.requests.length = 0;
    suite.receiver.respond((_r, _i, res) => res.writeHead(200).end('ok'));
  });

  const deliveries = () => suite.system.deliveries();
  let conversationSeq = 0;
  const customer = (content = 'When are you open?') => {
    conversationSeq += 1;
    return { msg_id: `msg-${conversationSeq}-${Date.now()}`, from_user_id: `customer-${conversationSeq}`, to_user_id: 'bound-1', content };
  };
  const send = (info: Record<string, unknown>) => suite.system.send(info, { send_url: suite.receiver.url });

  it('delivers the reply with a signature a Standard Webhooks verifier accepts', async () => {
    const info = customer();
    const accepted = await send(info);
    expect(accepted.status).to.equal(202);
    const [request] = await suite.receiver.waitFor(1);
    const verified = new Webhook(WEBHOOK_SECRET).verify(request!.raw, request!.headers as Record<string, string>) as Record<
      string,
      unknown
    >;
    expect(verified['type']).to.equal('auto_dialog.reply');
    expect(request!.headers['webhook-id']).to.equal(request!.body.delivery_id);
    expect(request!.headers['user-agent']).to.match(/^dialog-relay/);
    expect(request!.body).to.include({ conversation_id: accepted.json.data!['conversation_id'], client: 'shop' });
    expect(request!.body.in_reply_to).to.deep.equal([info.msg_id]);
    expect(request!.body.message_info).to.include({ from_user_id: 'bound-1', to_user_id: info.from_user_id, message_type: 1 });
    expect(String(request!.body.message_info['content'])).to.match(/Monday|open/i);
  });

  it('delivers on the third attempt after 500 and 503, with one webhook-id', async () => {
    suite.receiver.respond((_r, i, res) => res.writeHead(i === 0 ? 500 : i === 1 ? 503 : 200).end());
    await send(customer());
    const requests = await suite.receiver.waitFor(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).to.equal(1);
    const id = requests[0]!.body.delivery_id;
    await waitUntil(async () => (await deliveries().get(id))?.state === 'delivered');
    const attempts = await deliveries().attempts(id);
    expect(attempts.map((a) => a.status)).to.deep.equal([500, 503, 200]);
  });

  for (const status of [400, 410]) {
    it(`dead-letters after one attempt on a ${status}, keeping the attempt`, async () => {
      suite.receiver.respond((_r, _i, res) => res.writeHead(status).end('go away'));
      await send(customer());
      const [request] = await suite.receiver.waitFor(1);
      const id = request!.body.delivery_id;
      await waitUntil(async () => (await deliveries().get(id))?.state === 'dead');
      const letters = await listDeadLetters(deliveries());
      const letter = letters.find((l) => l.record.delivery_id === id);
      expect(letter?.record.dead_reason).to.equal('permanent_status');
      expect(letter?.attempts.map((a) => [a.status, a.response_body])).to.deep.equal([[status, 'go away']]);
      expect(suite.receiver.requests).to.have.length(1);
    });
  }

  it('retries a receiver slower than the time-out', async () => {
    suite.receiver.respond((_r, i, res) => {
      if (i === 0) setTimeout(() => res.writeHead(200).end(), 1500);
      else res.writeHead(200).end();
    });
    await send(customer());
    const requests = await suite.receiver.waitFor(2);
    const id = requests[0]!.body.delivery_id;
    await waitUntil(async () => (await deliveries().get(id))?.state === 'delivered');
    const attempts = await deliveries().attempts(id);
    expect(attempts[0]).to.include({ status: null, error: 'timeout' });
    expect(attempts[1]).to.include({ status: 200 });
  });

  it('waits as long as Retry-After says after a 429', async () => {
    suite.receiver.respond((_r, i, res) => (i === 0 ? res.writeHead(429, { 'retry-after': '2' }).end() : res.writeHead(200).end()));
    const accepted = await send(customer());
    const [first] = await suite.receiver.waitFor(1);
    // While the turn waits, its job says why (the queue dashboard shows it): no run failed, so BullMQ has no failedReason.
    const conversationId = String(accepted.json.data!['conversation_id']);
    await waitUntil(async () => (await suite.system.turnJobState(conversationId, 0)) === 'delayed');
    expect(await suite.system.turnJobProgress(conversationId, 0)).to.deep.equal({
      last_error: `delivery ${first!.body.delivery_id} attempt 1: answered 429`,
    });
    const requests = await suite.receiver.waitFor(2, 10_000);
    expect(requests[1]!.at - requests[0]!.at).to.be.at.least(1900);
  });
});
