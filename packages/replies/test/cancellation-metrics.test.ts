import { expect } from 'chai';
import { DONE } from '@dialog-relay/queue';
import { processTurn } from './internals.js';
import { CONVERSATION, outcome, testDeliveryId, type Harness } from './harness.js';
import { recordMetrics } from './support/metrics-recorder.js';
import { harnessPerTest } from './support/suite-hooks.js';

/**
 * Every cancelled reply is counted once, by the side that cancelled it: the ingress (a stop or a
 * human's message) for replies not in flight, the worker for an attempt it refused or aborted.
 */
describe('cancellation metrics (ingress and worker count each cancelled reply once)', () => {
  let h: Harness;
  let worker: unknown[][];
  harnessPerTest('cancellation-metrics-test', (harness) => (h = harness));
  beforeEach(() => {
    const r = recordMetrics();
    worker = r.calls;
    h.deps.metrics = r.metrics;
  });
  const turn = (generation = 0) => processTurn(h.deps, { conversationId: CONVERSATION, generation });
  const workerCancellations = (): unknown[][] => worker.filter((call) => call[0] === 'cancelled');

  it('counts a stop that cancels messages still waiting for their turn as one pending reply, cause stop', async () => {
    await h.receive('a');
    await h.receive('b');

    expect(await h.replies.stop(CONVERSATION)).to.equal(2);

    expect(h.ingressMetrics).to.deep.equal([['pendingCancelled', 'stop', 1]]);
    expect(await turn()).to.deep.equal(DONE);
    expect(workerCancellations()).to.deep.equal([]);
  });

  it('counts a human message that cancels a waiting reply with cause human', async () => {
    await h.receive('a');

    await h.replies.humanReplied(CONVERSATION);

    expect(h.ingressMetrics).to.deep.equal([['pendingCancelled', 'human', 1]]);
  });

  it('counts nothing for a stop when no reply is pending', async () => {
    expect(await h.replies.stop(CONVERSATION)).to.equal(0);
    await h.replies.humanReplied(CONVERSATION);
    expect(h.ingressMetrics).to.deep.equal([]);
  });

  it('counts a reply waiting for its retry once, at the ingress, and the worker then counts nothing', async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.retry(503));
    expect((await turn()).kind).to.equal('wait');

    await h.replies.stop(CONVERSATION);
    h.clock.advance(5000);
    expect(await turn()).to.deep.equal(DONE);

    expect(h.ingressMetrics).to.deep.equal([['pendingCancelled', 'stop', 1]]);
    expect(workerCancellations()).to.deep.equal([]);
  });

  it('counts a waiting reply and the next messages behind it as two replies', async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.retry(503));
    await turn();
    await h.receive('b');

    await h.replies.stop(CONVERSATION);

    expect(h.ingressMetrics).to.deep.equal([['pendingCancelled', 'stop', 2]]);
  });

  it('leaves an attempt aborted in flight to the worker (in_flight), counted once', async () => {
    await h.receive('a');
    h.deliverer.during = async () => {
      await h.replies.stop(CONVERSATION);
    };
    await turn();

    expect(h.ingressMetrics).to.deep.equal([]);
    expect(workerCancellations()).to.deep.equal([['cancelled', 'in_flight']]);
  });

  it('counts a reply stopped while the engine produced it once, by the worker (in_flight: its attempt opened with the take), not at the ingress', async () => {
    await h.receive('a');
    h.engine.during = async () => {
      await h.replies.stop(CONVERSATION);
    };

    expect(await turn()).to.deep.equal(DONE);

    expect(h.ingressMetrics).to.deep.equal([]);
    expect(workerCancellations()).to.deep.equal([['cancelled', 'in_flight']]);
    expect(h.deliverer.requests).to.deep.equal([]);
    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 0)))?.state).to.equal('cancelled');
  });

  it('counts a reply stopped between its production and its POST once, by the worker, not at the ingress', async () => {
    const findClient = h.deps.findClient;
    h.deps.findClient = async (id) => {
      await h.replies.stop(CONVERSATION);
      return findClient(id);
    };
    await h.receive('a');

    expect(await turn()).to.deep.equal(DONE);

    expect(h.ingressMetrics).to.deep.equal([]);
    expect(workerCancellations()).to.deep.equal([['cancelled', 'in_flight']]);
    expect(h.deliverer.requests).to.deep.equal([]);
  });

  it("counts a reply the worker refuses at a retry's check (stopped between the take and the check) as before_attempt, once", async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.retry(503));
    expect((await turn()).kind).to.equal('wait');
    h.clock.advance(5000);
    // The stop lands between the retry's take (which finds its batch) and the check that opens the attempt.
    const open = h.deps.attemptStore.open.bind(h.deps.attemptStore);
    h.deps.attemptStore = {
      ...h.deps.attemptStore,
      open: async (...args) => {
        await h.turns.cancel(CONVERSATION, { setStop: true, pauseMs: 0 });
        return open(...args);
      },
    };

    expect(await turn()).to.deep.equal(DONE);

    expect(workerCancellations()).to.deep.equal([['cancelled', 'before_attempt']]);
    expect(h.deliverer.requests).to.have.length(1);
    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 0)))?.state).to.equal('cancelled');
  });
});
