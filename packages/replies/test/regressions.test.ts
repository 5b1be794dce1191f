import { DONE, type JobProducer } from '@dialog-relay/queue';
import { expect } from 'chai';
import { listDeadLetters, processRedelivery, processTurn } from './internals.js';
import { CONVERSATION, outcome, SETTINGS, type Harness, testDeliveryId } from './harness.js';
import { replayOn } from './support/replay.js';
import { harnessPerTest } from './support/suite-hooks.js';

/** Regressions found by probing the worker logic: each of these once went wrong. */
describe('worker logic regressions', () => {
  let h: Harness;
  harnessPerTest('regressions-test', (harness) => (h = harness));
  const id = testDeliveryId(CONVERSATION, 0);
  const stopDuringAttempt = (): void => {
    h.deliverer.during = async () => {
      await h.replies.stop(CONVERSATION);
      await h.deliveries.cancel(id);
    };
  };

  it('keeps a reply cancelled when the attempt in flight during the stop then gets a 400 (never a dead letter to replay)', async () => {
    await h.receive('m-1');
    h.deliverer.answer(outcome.permanent(400));
    stopDuringAttempt();
    expect(await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 })).to.deep.equal(DONE);
    expect((await h.deliveries.get(id))?.state).to.equal('cancelled');
    expect(await listDeadLetters(h.deliveries)).to.deep.equal([]);
  });

  it('does not schedule a retry when the attempt in flight during the stop gets a 503', async () => {
    await h.receive('m-1');
    h.deliverer.answer(outcome.retry(503));
    stopDuringAttempt();
    expect(await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 })).to.deep.equal(DONE);
    expect((await h.deliveries.get(id))?.state).to.equal('cancelled');
  });

  it('puts a dead letter back on the list when its redelivery cannot be queued, so it can be replayed later', async () => {
    await h.receive('m-1');
    h.deliverer.answer(outcome.permanent(400));
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
    const failing: Pick<JobProducer, 'add'> = { add: () => Promise.reject(new Error('redis down')) };
    let thrown: unknown;
    await replayOn(h, failing, id).catch((error: unknown) => (thrown = error));
    expect(thrown).to.be.instanceOf(Error);
    expect((await h.deliveries.get(id))?.state).to.equal('dead');
    expect((await listDeadLetters(h.deliveries)).map((l) => l.record.delivery_id)).to.deep.equal([id]);
  });

  it('gives a replayed exhausted letter a fresh attempt budget and clears its dead reason', async () => {
    await h.receive('m-1');
    h.deliverer.answer(outcome.retry(503), outcome.retry(503), outcome.retry(503), outcome.retry(503), outcome.delivered());
    for (let i = 0; i < SETTINGS.maxAttempts; i++) await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
    expect((await h.deliveries.get(id))?.dead_reason).to.equal('attempts_exhausted');
    const added: unknown[] = [];
    const jobs: Pick<JobProducer, 'add'> = { add: (...args) => Promise.resolve(void added.push(args)) };
    expect(await replayOn(h, jobs, id)).to.equal('queued');
    expect((await h.deliveries.get(id))?.dead_reason).to.equal('');
    const first = await processRedelivery(h.deps, { deliveryId: id });
    expect(first.kind).to.equal('wait');
    expect(await processRedelivery(h.deps, { deliveryId: id })).to.deep.equal(DONE);
    expect((await h.deliveries.get(id))?.state).to.equal('delivered');
  });

  it('shows the engine its own earlier reply even when it was recorded after a newer customer message', async () => {
    await h.receive('m-a', { text: 'first question' });
    await h.receive('m-b', { text: 'second question' });
    h.deliverer.answer(outcome.delivered(), outcome.delivered());
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 1 });
    const second = h.engine.calls[1]!;
    expect(second.message.msg_id).to.equal('m-b');
    expect(second.context.map((m) => m.role)).to.deep.equal(['customer', 'bot']);
  });
});
