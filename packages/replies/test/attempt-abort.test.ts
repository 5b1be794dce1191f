import { DONE } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { processTurn } from './internals.js';
import { CLIENT, CONVERSATION, createHarness, outcome, type Harness, testDeliveryId } from './harness.js';
import { testRedisForSuite } from './support/suite-hooks.js';

/**
 * A stop or a human's message aborts the attempt in flight (docs/service-rules.md §14), whatever
 * step of the attempt it lands in, and a cancelled reply never enters the conversation's context.
 */
describe('aborting a delivery attempt', () => {
  let redis: Redis;
  let h: Harness;
  testRedisForSuite('attempt-abort-test', (connection) => (redis = connection));

  const id = testDeliveryId(CONVERSATION, 0);
  const turn = () => processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
  const botReplies = async () => (await h.contexts.read(CONVERSATION)).filter((m) => m.role === 'bot');
  /** The stop aborted the attempt before it sent anything: recorded cancelled in one attempt, acknowledged, nothing left in flight or in the context. */
  const expectAbortedUnsent = async (): Promise<void> => {
    expect(h.aborts).to.deep.equal([{ conversationId: CONVERSATION, deliveryId: id }]);
    expect(h.deliverer.requests).to.deep.equal([]);
    expect((await h.deliveries.get(id))?.state).to.equal('cancelled');
    const attempts = await h.deliveries.attempts(id);
    expect(attempts).to.have.length(1);
    expect(attempts[0]!.error).to.match(/^cancelled/);
    expect(h.acknowledged).to.deep.equal([id]);
    expect(await h.attemptInFlight()).to.equal(false);
    expect(await botReplies()).to.deep.equal([]);
  };

  it('cancels an attempt whose stop landed while its client was still being looked up: the stop finds it in flight, nothing is sent, the reply is cancelled', async () => {
    let stopAnswered = false;
    // The take marked the attempt in flight before the client lookup (a Redis-stored client, a cold
    // cache): the stop finds the marker and aborts the attempt, which then sends nothing.
    h = createHarness(redis, {
      findClient: async () => {
        expect(await h.attemptInFlight()).to.equal(true);
        expect(await h.replies.stop(CONVERSATION)).to.equal(1);
        stopAnswered = true;
        return CLIENT;
      },
    });
    await h.receive('a');

    expect(await turn()).to.deep.equal(DONE);

    expect(stopAnswered).to.equal(true);
    await expectAbortedUnsent();
  });

  it('reaches an attempt between its stop check and its request: no request is sent, the attempt is recorded cancelled and acknowledged', async () => {
    h = createHarness(redis);
    const turns = h.deps.turns;
    let stopAnswered = false;
    // The take checks the stop and marks the attempt in flight; the stop lands right after it.
    h.deps.turns = {
      ...turns,
      take: async (...args) => {
        const taken = await turns.take(...args);
        expect(await h.replies.stop(CONVERSATION)).to.equal(1);
        stopAnswered = true;
        return taken;
      },
    };
    await h.receive('a');
    h.deliverer.answer(outcome.delivered());

    expect(await turn()).to.deep.equal(DONE);

    expect(stopAnswered).to.equal(true);
    await expectAbortedUnsent();
    expect((await h.deliveries.attempts(id))[0]).to.include({ attempt: 1, status: null });
  });

  it('leaves nothing registered when the attempt is refused (stopped before it began)', async () => {
    h = createHarness(redis);
    await h.receive('a');
    h.engine.during = async () => {
      await h.replies.stop(CONVERSATION);
    };

    expect(await turn()).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.deep.equal([]);
    expect(h.inFlight.size).to.equal(0);
  });

  it('does not record in the context a reply a stop cancelled while the receiver accepted it', async () => {
    h = createHarness(redis);
    await h.receive('a');
    // The stop's cancellation lands during the attempt but its abort does not reach the worker
    // (e.g. the worker's signal connection was reconnecting); the receiver then answers 200.
    h.deliverer.during = async () => {
      expect((await h.turns.cancel(CONVERSATION, { setStop: true, pauseMs: 0 })).inFlightDeliveryIds).to.deep.equal([id]);
    };
    h.deliverer.answer(outcome.delivered(200));

    expect(await turn()).to.deep.equal(DONE);

    expect(h.deliverer.requests).to.have.length(1);
    expect((await h.deliveries.get(id))?.state).to.equal('cancelled');
    expect((await h.deliveries.attempts(id)).map((a) => a.status)).to.deep.equal([200]);
    expect(await botReplies()).to.deep.equal([]);
  });
});
