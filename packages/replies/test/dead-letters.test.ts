import { DONE, JOB_NAMES, type JobProducer } from '@dialog-relay/queue';
import { expect } from 'chai';
import { listDeadLetters, processRedelivery, processTurn } from './internals.js';
import { CONVERSATION, outcome, SETTINGS, T0, type Harness, testDeliveryId } from './harness.js';
import { replayOn } from './support/replay.js';
import { harnessPerTest } from './support/suite-hooks.js';

/** The one producer method a replay uses, recorded. */
function fakeQueue(): { queue: Pick<JobProducer, 'add'>; added: { name: string; data: unknown; opts: unknown }[] } {
  const added: { name: string; data: unknown; opts: unknown }[] = [];
  const queue: Pick<JobProducer, 'add'> = {
    add: (name, data, opts) => {
      added.push({ name, data, opts });
      return Promise.resolve();
    },
  };
  return { queue, added };
}

describe('dead letters: listing, replay and redelivery', () => {
  let h: Harness;
  let fake: ReturnType<typeof fakeQueue>;
  harnessPerTest('dead-letters-test', (harness) => (h = harness));
  beforeEach(() => {
    fake = fakeQueue();
  });

  const id = testDeliveryId(CONVERSATION, 0);
  const replay = async (deliveryId: string): Promise<boolean> => (await replayOn(h, fake.queue, deliveryId)) === 'queued';
  /** A reply dead-lettered by a permanent answer in the conversation's first turn. */
  const deadLetter = async (): Promise<void> => {
    await h.receive('a');
    h.deliverer.answer(outcome.permanent(410));
    expect(await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 })).to.deep.equal(DONE);
    expect((await h.deliveries.get(id))?.state).to.equal('dead');
  };

  it('requeues a dead letter as a redeliver job, pending with a fresh deadline and off the dead-letter list', async () => {
    await deadLetter();
    h.clock.now = T0 + 10 * SETTINGS.replyMaxAgeMs; // long after the original deadline

    expect(await replay(id)).to.equal(true);

    expect(fake.added).to.have.length(1);
    expect(fake.added[0]!.name).to.equal(JOB_NAMES.redeliver);
    expect(fake.added[0]!.data).to.deep.equal({ deliveryId: id });
    expect((fake.added[0]!.opts as { jobId?: string }).jobId)
      .to.be.a('string')
      .and.include(id);
    const record = await h.deliveries.get(id);
    expect(record?.state).to.equal('pending');
    expect(record?.deadline_ms).to.equal(h.clock.now + SETTINGS.replyMaxAgeMs);
    expect(await listDeadLetters(h.deliveries)).to.deep.equal([]);
  });

  it('redelivers a replayed dead letter with the same delivery id and body; its attempt log continues', async () => {
    await deadLetter();
    h.clock.now = T0 + 10 * SETTINGS.replyMaxAgeMs;
    await replay(id);

    expect(await processRedelivery(h.deps, { deliveryId: id })).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.have.length(2);
    expect(h.deliverer.requests[1]!.deliveryId).to.equal(id);
    expect(h.deliverer.requests[1]!.body).to.equal(h.deliverer.requests[0]!.body);
    expect(h.deliverer.requests[1]!.timestampS).to.equal(Math.floor(h.clock.now / 1000));
    expect((await h.deliveries.get(id))?.state).to.equal('delivered');
    expect((await h.deliveries.attempts(id)).map((a) => [a.attempt, a.status])).to.deep.equal([
      [1, 410],
      [2, 200],
    ]);
    expect((await h.contexts.read(CONVERSATION)).map((m) => [m.msg_id, m.role])).to.deep.equal([
      ['a', 'customer'],
      [id, 'bot'],
    ]);
    expect(h.engine.calls).to.have.length(1);
  });

  it('waits to retry a redelivery that gets a retryable answer', async () => {
    await deadLetter();
    await replay(id);
    h.deliverer.answer(outcome.retry(503));

    const decision = await processRedelivery(h.deps, { deliveryId: id });

    expect(decision.kind).to.equal('wait');
    expect(decision.kind === 'wait' && decision.untilMs).to.be.within(h.clock.now, h.clock.now + SETTINGS.backoffMs * 2);
    expect((await h.deliveries.get(id))?.state).to.equal('retrying');
  });

  it("starts a replay's backoff afresh: its first retryable answer waits as a first attempt's would", async () => {
    // Dead after maxAttempts retryable answers: a backoff counted from the whole log would wait as a fourth failure does.
    await h.receive('a');
    h.deliverer.answer(outcome.retry(503), outcome.retry(503), outcome.retry(503));
    const turn = () => processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
    for (let attempt = 1; attempt < SETTINGS.maxAttempts; attempt++) {
      const waiting = await turn();
      h.clock.now = waiting.kind === 'wait' ? waiting.untilMs : h.clock.now;
    }
    expect(await turn()).to.deep.equal(DONE);
    expect((await h.deliveries.get(id))?.dead_reason).to.equal('attempts_exhausted');
    await replay(id);
    h.deliverer.answer(outcome.retry(503));

    const decision = await processRedelivery(h.deps, { deliveryId: id });

    // random() is 0.5 in the harness: half of the first window, SETTINGS.backoffMs.
    expect(decision).to.deep.equal({
      kind: 'wait',
      untilMs: h.clock.now + SETTINGS.backoffMs / 2,
      lastError: `delivery ${id} attempt 4: answered 503`,
    });
  });

  it('does not send a replay to a stopped conversation', async () => {
    await deadLetter();
    await h.replies.stop(CONVERSATION);
    expect(await replay(id)).to.equal(true);

    expect(await processRedelivery(h.deps, { deliveryId: id })).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.have.length(1);
    expect((await h.deliveries.get(id))?.state).to.equal('cancelled');
  });

  it('refuses to replay what is not a dead letter, and queues nothing', async () => {
    expect(await replay('dlv_unknown_0')).to.equal(false);

    await h.receive('a');
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
    expect((await h.deliveries.get(id))?.state).to.equal('delivered');
    expect(await replay(id)).to.equal(false);
    expect((await h.deliveries.get(id))?.state).to.equal('delivered');

    expect(fake.added).to.deep.equal([]);
  });

  it('replays a dead letter only once', async () => {
    await deadLetter();

    expect(await replay(id)).to.equal(true);
    expect(await replay(id)).to.equal(false);

    expect(fake.added).to.have.length(1);
  });

  it('redelivers nothing for a record that is still dead, already delivered, or unknown', async () => {
    await deadLetter();
    expect(await processRedelivery(h.deps, { deliveryId: id })).to.deep.equal(DONE); // still dead: not replayed
    expect(await processRedelivery(h.deps, { deliveryId: 'dlv_unknown_0' })).to.deep.equal(DONE);
    expect(h.deliverer.requests).to.have.length(1);

    await replay(id);
    expect(await processRedelivery(h.deps, { deliveryId: id })).to.deep.equal(DONE);
    expect(h.deliverer.requests).to.have.length(2);
    expect(await processRedelivery(h.deps, { deliveryId: id })).to.deep.equal(DONE); // a duplicate job
    expect(h.deliverer.requests).to.have.length(2);
  });
});
