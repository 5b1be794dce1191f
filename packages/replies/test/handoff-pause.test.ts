import { DONE } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { processTurn, turnFailedForGood } from './internals.js';
import { CONVERSATION, createHarness, outcome, testDeliveryId, type Harness } from './harness.js';
import { harnessPerTest } from './support/suite-hooks.js';

describe('a turn whose reply hands off (docs/service-rules.md §17)', () => {
  let redis: Redis;
  let h: Harness;
  harnessPerTest(
    'handoff-pause-test',
    (harness, connection) => {
      h = harness;
      redis = connection;
    },
    { settings: { handoffPauseMs: 60_000 } },
  );
  const turn = (generation: number) => processTurn(h.deps, { conversationId: CONVERSATION, generation });
  const bodyOf = (index: number) => JSON.parse(h.deliverer.requests[index]!.body) as { handoff: boolean; sources: string[] };

  it('delivers handoff: true with no sources, then pauses the conversation for HANDOFF_PAUSE_S, leaving a message that came meanwhile unanswered', async () => {
    h.engine.handoff = true;
    await h.receive('a');
    // A customer message arrives while the handoff is being delivered: it is the person's to answer.
    h.deliverer.during = async () => {
      h.deliverer.during = undefined;
      await h.receive('b'); // queued (receive throws otherwise): the pause starts when the turn ends
    };
    expect(await turn(0)).to.deep.equal(DONE);
    expect(bodyOf(0)).to.deep.include({ handoff: true, sources: [] });
    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 0)))?.handoff).to.equal(true);
    const status = await h.replies.status(CONVERSATION);
    expect(Date.parse(String(status.paused_until))).to.be.greaterThan(Date.now() + 50_000);
    expect(status.pending).to.deep.equal([]);
    expect(h.turnJobs).to.deep.equal([]);
    expect(h.engine.calls).to.have.length(1);
    const c = await h.receive('c').catch((error: Error) => error.message);
    expect(c).to.equal('message c was not queued: paused');

    await h.replies.resume(CONVERSATION);
    expect((await h.replies.status(CONVERSATION)).paused_until).to.equal(null);
  });

  it('does not pause after an answer, and a handoff pauses nothing with HANDOFF_PAUSE_S 0', async () => {
    await h.receive('a');
    await turn(0);
    expect(bodyOf(0)).to.deep.include({ handoff: false, sources: ['fixed-entry'] });
    expect((await h.replies.status(CONVERSATION)).paused_until).to.equal(null);

    const unpaused = createHarness(redis, { settings: { handoffPauseMs: 0 } });
    unpaused.engine.handoff = true;
    await unpaused.receive('a');
    await processTurn(unpaused.deps, { conversationId: CONVERSATION, generation: 0 });
    expect((await unpaused.replies.status(CONVERSATION)).paused_until).to.equal(null);
  });

  it('pauses only when the turn ends: not while its delivery is retried, then with the end of a turn that gave up (FINISH)', async () => {
    h.engine.handoff = true;
    h.deliverer.answer(outcome.retry(503));
    await h.receive('a');
    const decision = await turn(0);
    expect(decision).to.include({ kind: 'wait' });
    expect(await h.deliveries.get(testDeliveryId(CONVERSATION, 0))).to.include({ state: 'retrying', handoff: true });
    expect((await h.replies.status(CONVERSATION)).paused_until).to.equal(null);

    await turnFailedForGood(h.deps, { conversationId: CONVERSATION, generation: 0 }, new Error('redis went away'));
    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 0)))?.state).to.equal('dead');
    expect(Date.parse(String((await h.replies.status(CONVERSATION)).paused_until))).to.be.greaterThan(Date.now() + 50_000);
  });
});
