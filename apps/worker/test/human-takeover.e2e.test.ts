import { expect } from 'chai';
import { answerAfter, startReceiver } from './support/receiver.js';
import { suiteSystem } from './support/suite-system.js';
import { waitUntil } from '@dialog-relay/testkit';

describe('a human takes over (real worker process, real receiver)', function () {
  // A long attempt time-out, so only an abort can end an attempt on a slow receiver early.
  const suite = suiteSystem({
    workers: 1,
    env: { AUTO_REPLY_DEBOUNCE_MS: '700', HUMAN_PAUSE_S: '2', DELIVERY_TIMEOUT_MS: '60000', WORKER_LOCK_MS: '70000' },
  });

  const customer = { from_user_id: 'takeover-customer', to_user_id: 'bound-takeover' };
  const agentWrites = (fromUserType: 1 | 3, msgId: string) =>
    suite.system.send(
      {
        from_user_id: customer.to_user_id,
        to_user_id: customer.from_user_id,
        content: 'Hi, Anna here, let me check.',
        msg_id: msgId,
        from_user_type: fromUserType,
      },
      { send_url: suite.receiver.url },
    );
  const status = () => suite.system.command(customer, 'auto_reply_status');

  it('cancels the unsent reply when an agent answers, pauses HUMAN_PAUSE_S, then replies again', async () => {
    const asked = await suite.system.send(
      { ...customer, content: 'where is my parcel?', msg_id: 'ht-1' },
      { send_url: suite.receiver.url },
    );
    expect(asked.json.data).to.include({ status: 'queued' });

    const human = await agentWrites(1, 'ht-agent-1');
    expect(human.status).to.equal(202);
    expect(human.json.data).to.include({ status: 'recorded' });

    const during = await suite.system.send({ ...customer, content: 'thanks!', msg_id: 'ht-2' }, { send_url: suite.receiver.url });
    expect(during.json.data).to.include({ status: 'suppressed' });
    const paused = await status();
    const pausedUntil = Date.parse(String(paused.json.data!['paused_until']));
    expect(pausedUntil).to.be.greaterThan(Date.now());
    expect(paused.json.data!['pending']).to.deep.equal([]);

    await waitUntil(() => Date.now() > pausedUntil + 50, 5000);
    expect((await status()).json.data!['paused_until']).to.equal(null);
    const after = await suite.system.send({ ...customer, content: 'one more thing', msg_id: 'ht-3' }, { send_url: suite.receiver.url });
    expect(after.json.data).to.include({ status: 'queued' });
    const [reply] = await suite.receiver.waitFor(1);
    // ht-1 was cancelled by the agent's message, ht-2 came during the pause: only ht-3 is answered.
    expect(reply!.body.in_reply_to).to.deep.equal(['ht-3']);
    expect(suite.receiver.requests).to.have.length(1);
  });

  it('a staff message (type 3) cancels a reply too', async () => {
    suite.receiver.requests.length = 0;
    const other = { from_user_id: 'takeover-customer-2', to_user_id: 'bound-takeover' };
    await suite.system.send({ ...other, content: 'hello?', msg_id: 'ht-b1' }, { send_url: suite.receiver.url });
    const staff = await suite.system.send(
      { from_user_id: other.to_user_id, to_user_id: other.from_user_id, content: 'Staff here.', msg_id: 'ht-b-staff', from_user_type: 3 },
      { send_url: suite.receiver.url },
    );
    expect(staff.json.data).to.include({ status: 'recorded' });
    const state = await suite.system.command(other, 'auto_reply_status');
    expect(state.json.data).to.include({ auto_reply: 'active' });
    expect(state.json.data!['pending']).to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 1200)); // proving an absence: past the 700 ms debounce
    expect(suite.receiver.requests).to.deep.equal([]);
  });

  type Delivery = { state: string; attempts: { error: string | null; status: number | null }[] };
  const conversationOf = (customerId: string) => ({
    ask: (msgId: string, sendUrl: string) =>
      suite.system.send(
        { from_user_id: customerId, to_user_id: 'bound-takeover', content: 'is it in stock?', msg_id: msgId },
        { send_url: sendUrl },
      ),
    agentWrites: (msgId: string, sendUrl: string) =>
      suite.system.send(
        { from_user_id: 'bound-takeover', to_user_id: customerId, content: 'Anna here, checking.', msg_id: msgId, from_user_type: 1 },
        { send_url: sendUrl },
      ),
    latestDelivery: async (): Promise<Delivery | undefined> => {
      const answer = await suite.system.command({ from_user_id: customerId, to_user_id: 'bound-takeover' }, 'auto_reply_status');
      return (answer.json.data!['deliveries'] as Delivery[])[0];
    },
  });

  it("an agent's message cancels a reply waiting to be retried: it is recorded cancelled and nothing is delivered after the 202", async () => {
    // The first attempt gets 503 with a Retry-After far longer than this test: the reply waits in retry.
    const slow = await startReceiver((_request, index, res) =>
      index === 0 ? res.writeHead(503, { 'retry-after': '30' }).end('busy') : res.writeHead(200).end('ok'),
    );
    try {
      const talk = conversationOf('takeover-customer-retry');
      const asked = await talk.ask('ht-r1', slow.url);
      const conversationId = String(asked.json.data!['conversation_id']);
      await slow.waitFor(1);
      await waitUntil(async () => (await talk.latestDelivery())?.state === 'retrying', 10_000);

      const human = await talk.agentWrites('ht-r-agent', slow.url);

      expect(human.status).to.equal(202);
      expect(human.json.data).to.include({ status: 'recorded' });
      const delivery = await talk.latestDelivery();
      expect(delivery?.state).to.equal('cancelled');
      expect(delivery!.attempts.map((a) => a.status)).to.deep.equal([503]);
      // The waiting turn job is gone (removed) or ended: nothing can deliver the reply any more.
      await waitUntil(async () => ['unknown', 'completed'].includes(await suite.system.turnJobState(conversationId, 0)), 10_000);
      expect(slow.requests).to.have.length(1);
    } finally {
      await slow.close();
    }
  });

  it("an agent's message aborts an attempt in flight on a slow receiver, records it cancelled, and its 202 does not wait for the attempt", async () => {
    const holdMs = 20_000;
    const hold = { ended: false, closedDuringHold: false };
    const slow = await startReceiver((_request, _index, res) => answerAfter(holdMs, res, hold));
    try {
      const talk = conversationOf('takeover-customer-hang');
      const asked = await talk.ask('ht-h1', slow.url);
      const conversationId = String(asked.json.data!['conversation_id']);
      await slow.waitFor(1);

      const human = await talk.agentWrites('ht-h-agent', slow.url);

      // Answered while the receiver still held the request.
      expect(hold.ended).to.equal(false);
      expect(human.status).to.equal(202);
      expect(human.json.data).to.include({ status: 'recorded' });
      // Aborted: the receiver saw the connection closed before its hold ended.
      await waitUntil(() => hold.closedDuringHold, 10_000);
      await waitUntil(async () => ((await talk.latestDelivery())?.attempts.length ?? 0) === 1, 10_000);
      const delivery = await talk.latestDelivery();
      expect(delivery?.state).to.equal('cancelled');
      expect(delivery!.attempts[0]).to.include({ status: null });
      expect(delivery!.attempts[0]!.error).to.match(/^cancelled/);
      await waitUntil(async () => (await suite.system.turnJobState(conversationId, 0)) === 'completed', 10_000);
      expect(slow.requests).to.have.length(1);
      expect(hold.ended).to.equal(false);
    } finally {
      await slow.close();
    }
  });
});
