import { parseClientRecord } from '@dialog-relay/config';
import { DONE, type JobDecision } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { webhookSigningKey } from '@dialog-relay/signing';
import { expect } from 'chai';
import { listDeadLetters, processTurn } from './internals.js';
import { CLIENT_ID, CONVERSATION, createHarness, keyProbe, outcome, SETTINGS, T0, type Harness, testDeliveryId } from './harness.js';
import { harnessPerTest } from './support/suite-hooks.js';

describe('attemptDelivery (one delivery attempt and what follows it)', () => {
  let redis: Redis;
  let h: Harness;
  harnessPerTest('attempt-delivery-test', (harness, connection) => {
    h = harness;
    redis = connection;
  });

  const turn = (): Promise<JobDecision> => processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
  const id = testDeliveryId(CONVERSATION, 0);
  const untilOf = (decision: JobDecision): number => {
    if (decision.kind !== 'wait') throw new Error(`expected a wait, got ${decision.kind}`);
    return decision.untilMs;
  };
  const turnFinished = async (): Promise<void> => {
    expect(await h.deps.turns.take(CONVERSATION, 0, 'unused')).to.deep.equal({ kind: 'stale', current: 1 });
  };

  describe('a retryable answer', () => {
    it('waits a time within the first backoff window, marks the reply retrying and records the attempt', async () => {
      await h.receive('a');
      h.deliverer.answer(outcome.retry(503, null));

      const decision = await turn();

      expect(decision.kind).to.equal('wait');
      const until = untilOf(decision);
      expect(until).to.be.within(T0, T0 + SETTINGS.backoffMs);
      expect(until).to.equal(T0 + SETTINGS.backoffMs * 0.5); // full jitter with random() fixed at 0.5
      const record = await h.deliveries.get(id);
      expect(record?.state).to.equal('retrying');
      const attempts = await h.deliveries.attempts(id);
      expect(attempts).to.have.length(1);
      expect(attempts[0]).to.deep.include({
        attempt: 1,
        status: 503,
        at: new Date(T0).toISOString(),
        latency_ms: 20,
        error: null,
        response_body: 'busy',
      });
      expect(await h.attemptInFlight()).to.equal(false);
      // The turn is not over while its reply waits.
      expect((await h.turns.snapshot(CONVERSATION)).batch?.messages.map((m) => m.message.msg_id)).to.deep.equal(['a']);
      expect(h.turnJobs).to.deep.equal([]);
    });

    it('doubles the backoff window per failed attempt', async () => {
      h = createHarness(redis, { settings: { maxAttempts: 5 } });
      await h.receive('a');
      h.deliverer.answer(outcome.retry(), outcome.retry(), outcome.retry());
      const delays: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const until = untilOf(await turn());
        delays.push(until - h.clock.now);
        h.clock.now = until;
      }
      expect(delays).to.deep.equal([500, 1000, 2000]);
      expect(h.engine.calls).to.have.length(1);
    });

    it('honours a Retry-After longer than the backoff', async () => {
      await h.receive('a');
      h.deliverer.answer(outcome.retry(429, 30_000));

      const until = untilOf(await turn());

      expect(until).to.be.at.least(T0 + 30_000);
      expect(until).to.be.below(T0 + SETTINGS.replyMaxAgeMs);
      expect((await h.deliveries.get(id))?.state).to.equal('retrying');
    });

    it('dead-letters a reply whose retry would land after its deadline (stale, not wait)', async () => {
      // Deadline 300 ms from now; the retry would come 500 ms from now.
      await h.receive('a', { receivedAtMs: T0 - SETTINGS.replyMaxAgeMs + 300 });
      h.deliverer.answer(outcome.retry(503));

      expect(await turn()).to.deep.equal(DONE);

      expect(h.deliverer.requests).to.have.length(1);
      const record = await h.deliveries.get(id);
      expect(record).to.deep.include({ state: 'dead', dead_reason: 'stale' });
      expect((await h.deliveries.attempts(id)).map((a) => a.status)).to.deep.equal([503]);
      expect((await listDeadLetters(h.deliveries)).map((d) => d.record.delivery_id)).to.deep.equal([id]);
      await turnFinished();
    });

    it('dead-letters a reply whose Retry-After reaches past its deadline', async () => {
      await h.receive('a');
      h.deliverer.answer(outcome.retry(503, SETTINGS.replyMaxAgeMs));

      expect(await turn()).to.deep.equal(DONE);

      expect(await h.deliveries.get(id)).to.deep.include({ state: 'dead', dead_reason: 'stale' });
    });

    it('dead-letters a reply as exhausted once maxAttempts attempts were retryable', async () => {
      await h.receive('a');
      h.deliverer.answer(outcome.retry(503), outcome.retry(500), outcome.retry(429));

      h.clock.now = untilOf(await turn());
      h.clock.now = untilOf(await turn());
      expect(await turn()).to.deep.equal(DONE);

      expect(h.deliverer.requests).to.have.length(SETTINGS.maxAttempts);
      expect(h.engine.calls).to.have.length(1);
      expect(await h.deliveries.get(id)).to.deep.include({ state: 'dead', dead_reason: 'attempts_exhausted' });
      expect((await h.deliveries.attempts(id)).map((a) => [a.attempt, a.status])).to.deep.equal([
        [1, 503],
        [2, 500],
        [3, 429],
      ]);
      await turnFinished();
    });
  });

  it('dead-letters a reply already past its deadline as stale without attempting it', async () => {
    await h.receive('a', { receivedAtMs: T0 - SETTINGS.replyMaxAgeMs - 1 });

    expect(await turn()).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.deep.equal([]);
    expect(await h.deliveries.get(id)).to.deep.include({ state: 'dead', dead_reason: 'stale' });
    expect(await h.deliveries.attempts(id)).to.deep.equal([]);
    await turnFinished();
  });

  it('dead-letters a waiting reply whose deadline passed before its retry ran, without attempting again', async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.retry(503));
    expect((await turn()).kind).to.equal('wait');

    h.clock.now = T0 + SETTINGS.replyMaxAgeMs; // e.g. the worker was down
    expect(await turn()).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.have.length(1);
    expect(await h.deliveries.get(id)).to.deep.include({ state: 'dead', dead_reason: 'stale' });
  });

  it('dead-letters a permanent failure at once; listDeadLetters returns it with its attempts', async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.permanent(410));

    expect(await turn()).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.have.length(1);
    const letters = await listDeadLetters(h.deliveries);
    expect(letters).to.have.length(1);
    expect(letters[0]!.record).to.deep.include({
      delivery_id: id,
      state: 'dead',
      dead_reason: 'permanent_status',
      conversation_id: CONVERSATION,
      client: CLIENT_ID,
    });
    expect(letters[0]!.record.in_reply_to).to.deep.equal(['a']);
    expect(letters[0]!.attempts).to.have.length(1);
    expect(letters[0]!.attempts[0]).to.deep.include({ attempt: 1, status: 410, response_body: 'bad request' });
    expect((await h.contexts.read(CONVERSATION)).filter((m) => m.role === 'bot')).to.deep.equal([]);
    await turnFinished();
  });

  it('lists dead letters newest first', async () => {
    await h.receive('a');
    await h.receive('x', { conversationId: 'c_conversationTwo' });
    h.deliverer.answer(outcome.permanent(404), outcome.permanent(404));
    await turn();
    h.clock.advance(1000);
    await processTurn(h.deps, { conversationId: 'c_conversationTwo', generation: 0 });

    const letters = await listDeadLetters(h.deliveries);
    expect(letters.map((l) => l.record.delivery_id)).to.deep.equal([testDeliveryId('c_conversationTwo', 0), id]);
    expect((await listDeadLetters(h.deliveries, 1, 5)).map((l) => l.record.delivery_id)).to.deep.equal([id]);
  });

  it('dead-letters a reply whose client no longer exists with reason unknown_client and a detail, without attempting it', async () => {
    h = createHarness(redis, { findClient: () => Promise.resolve(undefined) });
    await h.receive('a');

    expect(await turn()).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.deep.equal([]);
    const record = await h.deliveries.get(id);
    expect(record).to.deep.include({ state: 'dead', dead_reason: 'unknown_client' });
    expect(record?.dead_detail).to.include(CLIENT_ID);
  });

  it('cancels, never dead-letters, the reply of a conversation stopped while its client, now gone, was looked up', async () => {
    h = createHarness(redis, {
      findClient: async () => {
        await h.replies.stop(CONVERSATION);
        return undefined;
      },
    });
    await h.receive('a');

    expect(await turn()).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.deep.equal([]);
    expect((await h.deliveries.get(id))?.state).to.equal('cancelled');
    expect(await listDeadLetters(h.deliveries)).to.deep.equal([]);
    expect(await h.attemptInFlight()).to.equal(false);
  });

  it('cancels, never dead-letters, the reply of a stopped conversation whose client is gone', async () => {
    h = createHarness(redis, { findClient: () => Promise.resolve(undefined) });
    await h.receive('a');
    h.engine.during = async () => {
      await h.replies.stop(CONVERSATION);
    };

    expect(await turn()).to.deep.equal(DONE);

    expect((await h.deliveries.get(id))?.state).to.equal('cancelled');
    expect(await listDeadLetters(h.deliveries)).to.deep.equal([]);
  });

  it('signs with the request secret when the client has no webhook_secret', async () => {
    const client = parseClientRecord(CLIENT_ID, { secrets: ['first-secret', 'second-secret'] }, 10);
    h = createHarness(redis, { findClient: () => Promise.resolve(client) });
    await h.receive('a');

    await turn();

    expect(keyProbe(h.deliverer.requests[0]!.signingKey)).to.equal(keyProbe(webhookSigningKey('first-secret')));
  });

  it("signs with a client's new webhook secret once its settings change (the key is made once per settings)", async () => {
    let client = parseClientRecord(CLIENT_ID, { secret: 'request-secret', webhook_secret: 'old-webhook-secret-of-32-bytes-xx' }, 10);
    h = createHarness(redis, { findClient: () => Promise.resolve(client) });
    await h.receive('a');
    await turn();
    client = parseClientRecord(CLIENT_ID, { secret: 'request-secret', webhook_secret: 'new-webhook-secret-of-32-bytes-xx' }, 10);
    await h.receive('b');
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 1 });

    const keys = h.deliverer.requests.map((request) => keyProbe(request.signingKey));
    expect(keys).to.have.length(2);
    expect(keys[0]).to.equal(keyProbe(webhookSigningKey('old-webhook-secret-of-32-bytes-xx')));
    expect(keys[1]).to.equal(keyProbe(webhookSigningKey('new-webhook-secret-of-32-bytes-xx')));
  });

  it('marks the attempt in flight while the Deliverer runs, and clears the mark afterwards', async () => {
    await h.receive('a');
    const inFlight: boolean[] = [];
    h.deliverer.during = async () => {
      inFlight.push(await h.attemptInFlight());
    };

    await turn();

    expect(inFlight).to.deep.equal([true]);
    expect(await h.attemptInFlight()).to.equal(false);
  });
});
