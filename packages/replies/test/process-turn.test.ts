import { DONE } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { webhookSigningKey } from '@dialog-relay/signing';
import { expect } from 'chai';
import { attemptDelivery, processTurn, produceReply, replyInput, settleAttempt } from './internals.js';
import {
  BOUND,
  CONVERSATION,
  createHarness,
  dueOf,
  keyProbe,
  CUSTOMER,
  outcome,
  SEND_URL,
  T0,
  WEBHOOK_SECRET,
  type Harness,
  testDeliveryId,
} from './harness.js';
import { harnessPerTest } from './support/suite-hooks.js';

describe('processTurn (one conversation turn)', () => {
  let redis: Redis;
  let h: Harness;
  harnessPerTest('process-turn-test', (harness, connection) => {
    h = harness;
    redis = connection;
  });

  const turn = (generation: number, conversationId = CONVERSATION) => processTurn(h.deps, { conversationId, generation });
  const firstId = testDeliveryId(CONVERSATION, 0);

  it('answers a due message once: engine reply delivered under testDeliveryId(conversation, 0), recorded as the bot, turn finished', async () => {
    await h.receive('a');

    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.engine.calls).to.have.length(1);
    expect(h.engine.calls[0]!.conversationId).to.equal(CONVERSATION);
    expect(h.engine.calls[0]!.message).to.include({ msg_id: 'a', role: 'customer', from_user_id: CUSTOMER });
    expect(h.engine.calls[0]!.context).to.deep.equal([]);

    expect(h.deliverer.requests).to.have.length(1);
    const request = h.deliverer.requests[0]!;
    expect(request.deliveryId).to.equal(firstId);
    expect(request.url).to.equal(SEND_URL);
    expect(request.timestampS).to.equal(Math.floor(T0 / 1000));
    expect(request.timeoutMs).to.equal(h.deps.settings.timeoutMs);
    expect(keyProbe(request.signingKey)).to.equal(keyProbe(webhookSigningKey(WEBHOOK_SECRET)));
    const body = JSON.parse(request.body) as {
      delivery_id: string;
      conversation_id: string;
      in_reply_to: string[];
      message_info: Record<string, unknown>;
    };
    expect(body).to.include({ delivery_id: firstId, conversation_id: CONVERSATION });
    expect(body.in_reply_to).to.deep.equal(['a']);
    expect(body.message_info).to.include({
      msg_id: firstId,
      from_user_id: BOUND,
      to_user_id: CUSTOMER,
      content: 'We open at nine.',
      from_user_type: 4,
    });

    const record = await h.deliveries.get(firstId);
    expect(record?.state).to.equal('delivered');
    expect((await h.deliveries.attempts(firstId)).map((a) => [a.attempt, a.status])).to.deep.equal([[1, 200]]);

    const context = await h.contexts.read(CONVERSATION);
    expect(context.map((m) => [m.msg_id, m.role])).to.deep.equal([
      ['a', 'customer'],
      [firstId, 'bot'],
    ]);
    expect(context[1]).to.deep.include({
      from_user_id: BOUND,
      content: [{ type: 'text', content: 'We open at nine.' }],
      event_type: 'auto_dialog',
    });

    // The turn is over: generation 1 is current, the batch is gone, no next job (nothing pending).
    expect(await h.deps.turns.take(CONVERSATION, 0, 'unused')).to.deep.equal({ kind: 'stale', current: 1 });
    expect((await h.turns.snapshot(CONVERSATION)).batch).to.equal(undefined);
    expect(await h.attemptInFlight()).to.equal(false);
    expect(h.turnJobs).to.deep.equal([]);
  });

  it('gives the engine the conversation before the message, including the earlier bot reply', async () => {
    await h.receive('a');
    await turn(0);
    await h.receive('b');

    expect(await turn(1)).to.deep.equal(DONE);

    expect(h.engine.calls.map((c) => c.message.msg_id)).to.deep.equal(['a', 'b']);
    expect(h.engine.calls[1]!.context.map((m) => [m.msg_id, m.role])).to.deep.equal([
      ['a', 'customer'],
      [firstId, 'bot'],
    ]);
    expect(h.deliverer.requests.map((r) => r.deliveryId)).to.deep.equal([firstId, testDeliveryId(CONVERSATION, 1)]);
  });

  it('re-runs a waiting turn with the stored reply: the engine is not asked again and nothing is answered twice', async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.retry(503));

    const first = await turn(0);
    expect(first.kind).to.equal('wait');
    // What the queue dashboard shows while the job waits: the failed attempt, ids and status only.
    expect(first.kind === 'wait' && first.lastError).to.equal(`delivery ${firstId} attempt 1: answered 503`);
    expect((await h.deliveries.get(firstId))?.state).to.equal('retrying');

    h.clock.advance(first.kind === 'wait' ? first.untilMs - h.clock.now : 0);
    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.engine.calls).to.have.length(1);
    expect(h.deliverer.requests).to.have.length(2);
    expect(h.deliverer.requests[1]!.deliveryId).to.equal(firstId);
    expect(h.deliverer.requests[1]!.body).to.equal(h.deliverer.requests[0]!.body);
    expect((await h.deliveries.attempts(firstId)).map((a) => [a.attempt, a.status])).to.deep.equal([
      [1, 503],
      [2, 200],
    ]);
    expect((await h.deliveries.get(firstId))?.state).to.equal('delivered');
    // Recorded from the stored record (this run did not produce it): the bound account's reply, its parts.
    const bot = (await h.contexts.read(CONVERSATION)).filter((m) => m.role === 'bot');
    expect(bot).to.have.length(1);
    expect(bot[0]).to.deep.include({
      msg_id: firstId,
      from_user_id: BOUND,
      content: [{ type: 'text', content: 'We open at nine.' }],
      event_type: 'auto_dialog',
    });
  });

  it('sends the same delivery id again and finishes once when re-run after a crash between the POST and its outcome', async () => {
    await h.receive('a');
    // The first run, cut short after the POST: take (which opens the attempt), produce, attempt, but
    // nothing written after it. Writing the outcome and ending the turn are one step (SETTLE).
    const taken = await h.deps.turns.take(CONVERSATION, 0, 'unused');
    if (taken.kind !== 'batch' || !taken.opened) throw new Error(`expected a batch taken now, got ${taken.kind}`);
    const record = await produceReply(h.deps, taken.batch, taken.opened.context);
    const inFlight = h.deps.attempts.register(CONVERSATION, record!.delivery_id);
    const first = await attemptDelivery(
      h.deps,
      record!,
      { generation: 0, attemptsMade: 0, produced: true, openedAtMs: h.clock.now },
      inFlight,
    );
    expect(first.next.kind).to.equal('delivered');

    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.have.length(2);
    expect(h.deliverer.requests[1]!.deliveryId).to.equal(h.deliverer.requests[0]!.deliveryId);
    expect((await h.deliveries.attempts(record!.delivery_id)).map((a) => a.attempt)).to.deep.equal([1]);
    expect((await h.deliveries.get(record!.delivery_id))?.state).to.equal('delivered');
    expect((await h.contexts.read(CONVERSATION)).filter((m) => m.role === 'bot')).to.have.length(1);
    expect(await h.deps.turns.take(CONVERSATION, 0, 'unused')).to.deep.equal({ kind: 'stale', current: 1 });
  });

  for (const handoff of [false, true])
    it(`stores a record produced in the run whole, with the state its attempt moved it to (SETTLE)${handoff ? ': a handoff keeps its flag' : ''}`, async () => {
      h.engine.handoff = handoff;
      await h.receive('a');
      const taken = await h.deps.turns.take(CONVERSATION, 0, 'unused');
      if (taken.kind !== 'batch' || !taken.opened) throw new Error(`expected a batch taken now, got ${taken.kind}`);
      const record = await produceReply(h.deps, taken.batch, taken.opened.context);
      if (!record) throw new Error('expected a reply');
      expect(record.handoff === true).to.equal(handoff);
      const inFlight = h.deps.attempts.register(CONVERSATION, record.delivery_id);
      const result = await attemptDelivery(
        h.deps,
        record,
        { generation: 0, attemptsMade: 0, produced: true, openedAtMs: h.clock.now },
        inFlight,
      );
      inFlight.release();
      await settleAttempt(h.deps, result, true);
      expect(await h.deliveries.get(record.delivery_id)).to.deep.equal({ ...record, state: 'delivered' });
    });

  it('sends nothing when the engine has nothing to say, and still finishes the turn', async () => {
    h.engine.parts = [];
    await h.receive('a');
    await h.receive('b');

    expect(await turn(0)).to.deep.equal(DONE);

    // a's turn, then b's: the same job goes on to it (TURNS_PER_JOB), with no job of its own
    expect(h.engine.calls.map((c) => c.message.msg_id)).to.deep.equal(['a', 'b']);
    expect(h.deliverer.requests).to.deep.equal([]);
    expect(await h.deliveries.get(firstId)).to.equal(undefined);
    expect((await h.contexts.read(CONVERSATION)).map((m) => m.role)).to.deep.equal(['customer', 'customer']);
    // Both finished: generation 2 is current.
    expect(await h.deps.turns.take(CONVERSATION, 0, 'unused')).to.deep.equal({ kind: 'stale', current: 2 });
    expect(h.turnJobs).to.deep.equal([]);
  });

  it('finishes a turn that finds no message, so the next message gets a fresh generation (and job id)', async () => {
    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.engine.calls).to.deep.equal([]);
    expect(h.deliverer.requests).to.deep.equal([]);
    expect(
      await h.turns.schedule(
        dueOf({
          msg_id: 'late',
          role: 'customer',
          from_user_id: CUSTOMER,
          content: [{ type: 'text', content: 'hello?' }],
          event_type: 'auto_dialog',
          create_timestamp: T0 / 1000,
        }),
      ),
    ).to.deep.equal({ kind: 'queued', generation: 1, opensTurn: true });
  });

  it('waits out the debounce window of a message just scheduled, without producing anything', async () => {
    h = createHarness(redis, { timings: { debounceMs: 60_000, maxWaitMs: 120_000 } });
    await h.receive('a');

    const decision = await turn(0);

    expect(decision.kind).to.equal('wait');
    expect(decision.kind === 'wait' && decision.untilMs).to.be.within(h.clock.now + 59_000, h.clock.now + 60_000);
    expect(h.engine.calls).to.deep.equal([]);
    expect(h.deliverer.requests).to.deep.equal([]);
    expect((await h.turns.snapshot(CONVERSATION)).pending.map((m) => m.message.msg_id)).to.deep.equal(['a']);
  });

  it('answers a message that arrives during a turn in the next turn: a then b, each once', async () => {
    await h.receive('a');
    h.deliverer.during = async () => {
      h.deliverer.during = undefined;
      await h.receive('b');
    };

    // b's turn follows a's in the same job: SETTLE of a takes b (no job 1)
    expect(await turn(0)).to.deep.equal(DONE);
    expect(h.turnJobs).to.deep.equal([]);

    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b']]);
    expect(h.deliverer.requests.map((r) => r.deliveryId)).to.deep.equal([firstId, testDeliveryId(CONVERSATION, 1)]);
    expect(h.engine.calls.map((c) => c.message.msg_id)).to.deep.equal(['a', 'b']);
    // Nothing left: a job of the next generation finds no message.
    expect(await turn(2)).to.deep.equal(DONE);
    expect(h.deliverer.requests).to.have.length(2);
  });

  it("reads the context only as far back as the engine looks (its contextWindow), and after the message only the bot's replies", async () => {
    h.engine.contextWindow = 2;
    for (const id of ['a', 'b', 'c', 'd', 'e']) await h.receive(id);

    expect(await turn(0)).to.deep.equal(DONE);

    const reply = (g: number) => testDeliveryId(CONVERSATION, g);
    expect(h.engine.calls.map((c) => c.message.msg_id)).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    // d: the two before it, then the replies that landed after it (e is a later turn's)
    expect(h.engine.calls[3]!.context.map((m) => m.msg_id)).to.deep.equal(['b', 'c', reply(0), reply(1), reply(2)]);
    // what TAKE hands over: a fresh turn reads the window before the message and the bot's replies after it
    await h.receive('f');
    await h.receive('g');
    const taken = await h.turns.take(CONVERSATION, 5, reply(5), { window: 1 });
    expect(taken.kind === 'batch' && taken.opened?.context.map((m) => m.msg_id)).to.deep.equal([reply(4), 'f']);
  });

  it("reads, for an engine that reads only the customer's texts, its latest messages with text within the window and the message, and none of anyone else's", async () => {
    const stored = (msgId: string, role: 'customer' | 'agent' | 'bot', type: 'text' | 'image') => ({
      msg_id: msgId,
      role,
      from_user_id: 'someone',
      content: [{ type, content: type === 'text' ? `${role} says ${msgId}` : 'https://files.test/a.png' }],
      event_type: 'auto_dialog' as const,
      create_timestamp: 1_700_000_000,
    });
    const taking = async (conversationId: string, reach: { window?: number; customerTexts?: number }) => {
      // c1 c2 (the customer's texts), a1 (an agent's), f1 (the customer's file alone), three replies, then q is answered; r and b4 come after it
      for (const [id, role, type] of [
        ['c1', 'customer', 'text'],
        ['c2', 'customer', 'text'],
        ['a1', 'agent', 'text'],
        ['f1', 'customer', 'image'],
        ['b1', 'bot', 'text'],
        ['b2', 'bot', 'text'],
        ['b3', 'bot', 'text'],
      ] as const)
        await h.contexts.record(conversationId, [stored(id, role, type)]);
      await h.receive('q', { conversationId });
      await h.contexts.record(conversationId, [stored('r', 'customer', 'text'), stored('b4', 'bot', 'text')]);
      const taken = await h.turns.take(conversationId, 0, testDeliveryId(conversationId, 0), reach);
      return taken.kind === 'batch' ? taken.opened?.context.map((m) => m.msg_id) : taken.kind;
    };
    // two texts wanted: the walk back passes the file, the replies and the agent's message (two reads of five)
    expect(await taking('c_reach1', { window: 10, customerTexts: 2 })).to.deep.equal(['c1', 'c2', 'q']);
    expect(await taking('c_reach2', { window: 10, customerTexts: 1 })).to.deep.equal(['c2', 'q']);
    expect(await taking('c_reach3', { window: 10, customerTexts: 0 })).to.deep.equal(['q']);
    // the window still bounds the walk: four back from q reach f1, which has no text
    expect(await taking('c_reach4', { window: 4, customerTexts: 2 })).to.deep.equal(['q']);
    // without customerTexts, every message of the window and the replies after the message, as before
    expect(await taking('c_reach5', { window: 10 })).to.deep.equal(['c1', 'c2', 'a1', 'f1', 'b1', 'b2', 'b3', 'q', 'b4']);
  });

  it('gives the knowledge engine the same history texts from its customer-texts read as from the whole window (30 mixed conversations)', async () => {
    const { createKnowledgeEngine, EXAMPLE_KNOWLEDGE_FILE, loadKnowledgeBase, recentCustomerTexts } =
      await import('@dialog-relay/reply-engine');
    const engine = createKnowledgeEngine(await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE));
    const reach = { window: engine.contextWindow, customerTexts: engine.contextCustomerTexts };
    expect(reach).to.deep.equal({ window: 10, customerTexts: 2 });
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const kinds = [
      ['customer', 'text'],
      ['customer', 'text'],
      ['customer', 'image'],
      ['agent', 'text'],
      ['bot', 'text'],
      ['bot', 'text'],
    ] as const;
    const historyTexts = async (
      conversationId: string,
      sequence: (readonly [string, 'customer' | 'agent' | 'bot', 'text' | 'image'])[],
      customerTexts?: number,
    ) => {
      for (const [id, role, type] of sequence)
        await h.contexts.record(conversationId, [
          {
            msg_id: id,
            role,
            from_user_id: 'someone',
            content: [{ type, content: type === 'text' ? `${role} asks about ${id}` : 'https://files.test/a.png' }],
            event_type: 'auto_dialog',
            create_timestamp: 1_700_000_000,
          },
        ]);
      const due = await h.receive('q', { conversationId });
      const taken = await h.turns.take(conversationId, 0, testDeliveryId(conversationId, 0), { ...reach, customerTexts });
      if (taken.kind !== 'batch' || !taken.opened) throw new Error(`not taken: ${taken.kind}`);
      return recentCustomerTexts(replyInput(due, taken.opened.context).history, 2);
    };
    for (let round = 0; round < 30; round++) {
      const sequence = Array.from({ length: Math.floor(next() * 15) }, (_, i) => {
        const [role, type] = kinds[Math.floor(next() * kinds.length)]!;
        return [`m${i}`, role, type] as const;
      });
      const whole = await historyTexts(`c_whole${round}`, sequence);
      expect(await historyTexts(`c_texts${round}`, sequence, reach.customerTexts), JSON.stringify(sequence)).to.deep.equal(whole);
    }
  });

  it('answers all messages of a debounced batch with one reply that lists them in order', async () => {
    h = createHarness(redis, { timings: { debounceMs: 60_000, maxWaitMs: 120_000 } });
    await h.receive('a');
    await h.receive('b');
    await h.receive('c');
    // TAKE measures the window on the Redis server clock from the latest message: move that back past the window.
    const [seconds] = await redis.time();
    await redis.set(h.keys.pendingSince(CONVERSATION), String(Number(seconds) * 1000 - 61_000));

    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.engine.calls).to.have.length(1);
    expect(h.engine.calls[0]!.message.msg_id).to.equal('c');
    expect(h.engine.calls[0]!.context.map((m) => m.msg_id)).to.deep.equal(['a', 'b']);
    expect(h.deliverer.answered()).to.deep.equal([['a', 'b', 'c']]);
  });

  describe('after stop_auto_reply', () => {
    it('sends nothing more for a retrying reply of the old generation and marks it cancelled', async () => {
      await h.receive('a');
      h.deliverer.answer(outcome.retry(503));
      expect((await turn(0)).kind).to.equal('wait');

      await h.replies.stop(CONVERSATION);
      h.clock.advance(5000);
      expect(await turn(0)).to.deep.equal(DONE);

      expect(h.deliverer.requests).to.have.length(1);
      expect(h.engine.calls).to.have.length(1);
      expect((await h.deliveries.get(firstId))?.state).to.equal('cancelled');
      expect(await h.deliveries.listDead(0, 10)).to.deep.equal([]);
      expect((await h.contexts.read(CONVERSATION)).filter((m) => m.role === 'bot')).to.deep.equal([]);
    });

    it('produces and sends nothing for a job of the old generation that had not started', async () => {
      await h.receive('a');
      await h.replies.stop(CONVERSATION);

      expect(await turn(0)).to.deep.equal(DONE);

      expect(h.engine.calls).to.deep.equal([]);
      expect(h.deliverer.requests).to.deep.equal([]);
      expect(await h.deliveries.get(firstId)).to.equal(undefined);
      expect(h.turnJobs).to.deep.equal([]);
    });

    it('cancels a reply produced while the stop happened: nothing is sent, its opened attempt is logged as cancelled', async () => {
      await h.receive('a');
      h.engine.during = async () => {
        await h.replies.stop(CONVERSATION);
      };

      expect(await turn(0)).to.deep.equal(DONE);

      expect(h.engine.calls).to.have.length(1);
      expect(h.deliverer.requests).to.deep.equal([]);
      expect((await h.deliveries.get(firstId))?.state).to.equal('cancelled');
      const attempts = await h.deliveries.attempts(firstId);
      expect(attempts.map((a) => [a.status, a.error?.startsWith('cancelled')])).to.deep.equal([[null, true]]);
    });

    it('still sends nothing for the old generation after resume, while new messages get replies', async () => {
      await h.receive('a');
      h.deliverer.answer(outcome.retry(503));
      await turn(0);
      expect(await h.replies.stop(CONVERSATION)).to.equal(1);
      await h.turns.resume(CONVERSATION);
      await h.receive('b');

      expect(await turn(0)).to.deep.equal(DONE);
      expect(h.deliverer.requests).to.have.length(1);
      expect(h.turnJobs).to.deep.equal([{ conversationId: CONVERSATION, generation: 1, delayMs: 0 }]);

      expect(await turn(1)).to.deep.equal(DONE);
      expect(h.deliverer.answered()).to.deep.equal([['a'], ['b']]);
      expect((await h.deliveries.get(firstId))?.state).to.equal('cancelled');
      expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 1)))?.state).to.equal('delivered');
    });
  });

  it('hands back a turn whose reply is being produced when the worker drains: no failure, no dead letter, the next run answers it under the same id', async () => {
    await h.receive('a');
    const draining = new AbortController();
    h.deps.stopping = draining.signal;
    const fixed = h.deps.engine;
    h.deps.engine = {
      name: 'slow',
      contextWindow: 50,
      // A slow engine call that only ends when its signal aborts.
      reply: (_request, signal) =>
        new Promise((_resolve, reject) => {
          if (!signal) return reject(new Error('the engine was given no signal to stop with'));
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          draining.abort(new Error('worker draining'));
        }),
    };

    const decision = await turn(0);

    expect(decision).to.deep.equal({ kind: 'wait', untilMs: h.clock.now });
    expect(await h.deliveries.get(firstId)).to.equal(undefined);
    expect(h.deliverer.requests).to.deep.equal([]);
    h.deps.engine = fixed;
    delete h.deps.stopping;
    expect(await turn(0)).to.deep.equal(DONE);
    expect(h.deliverer.answered()).to.deep.equal([['a']]);
    expect((await h.deliveries.get(firstId))?.state).to.equal('delivered');
  });

  it('keeps conversations apart', async () => {
    const other = 'c_conversationTwo';
    await h.receive('a');
    await h.receive('x', { conversationId: other });
    await h.replies.stop(other);

    expect(await turn(0)).to.deep.equal(DONE);
    expect(await turn(0, other)).to.deep.equal(DONE);

    expect(h.deliverer.answered()).to.deep.equal([['a']]);
  });
});
