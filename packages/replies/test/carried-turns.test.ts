import { DONE } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { commandCalls } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { processTurn, TURNS_PER_JOB, turnFailedForGood } from './internals.js';
import { CONVERSATION, createHarness, outcome, type Harness, testDeliveryId } from './harness.js';
import { harnessPerTest } from './support/suite-hooks.js';

/**
 * A job goes on to the conversation's next turn when messages already wait as its turn ends
 * (docs/design/reply-protocol.md "The turn"): SETTLE ends turn G and takes turn G+1 in one step, so
 * a backlog costs one BullMQ job, not one per turn; the batch names the job serving it (its
 * carrier), which is how a re-run, the sweep and a failed job find it.
 */
describe('turns a job goes on to', () => {
  let redis: Redis;
  let h: Harness;
  harnessPerTest('carried-turns-test', (harness, connection) => {
    h = harness;
    redis = connection;
  });

  const turn = (generation: number) => processTurn(h.deps, { conversationId: CONVERSATION, generation });
  const evalCalls = async (during: () => Promise<unknown>): Promise<number> => {
    const evalsha = async (): Promise<number> => commandCalls(await redis.info('commandstats')).get('evalsha') ?? 0;
    const before = await evalsha();
    await during();
    return (await evalsha()) - before;
  };

  it('answers a backlog in order with one job: no job added, one script per turn after the first (SETTLE takes the next)', async () => {
    for (const id of ['a', 'b', 'c']) await h.receive(id);

    const scripts = await evalCalls(async () => expect(await turn(0)).to.deep.equal(DONE));

    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b'], ['c']]);
    expect(h.deliverer.requests.map((r) => r.deliveryId)).to.deep.equal([0, 1, 2].map((g) => testDeliveryId(CONVERSATION, g)));
    expect(h.turnJobs).to.deep.equal([]);
    // TAKE, then one SETTLE per turn (the last one finds nothing waiting); the test Redis is shared, so at least these
    expect(scripts).to.be.at.least(4);
    expect(scripts).to.be.below(4 + 3);
    expect((await h.contexts.read(CONVERSATION)).map((m) => m.role)).to.deep.equal([
      'customer',
      'customer',
      'customer',
      'bot',
      'bot',
      'bot',
    ]);
    expect(await h.turns.checkedBatch(CONVERSATION)).to.equal(undefined);
  });

  it(`serves at most TURNS_PER_JOB turns (${TURNS_PER_JOB} by default), then queues the next turn as a job of its own`, async () => {
    h.deps.turnsPerJob = 2;
    for (const id of ['a', 'b', 'c']) await h.receive(id);

    expect(await turn(0)).to.deep.equal(DONE);
    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b']]);
    expect(h.turnJobs).to.deep.equal([{ conversationId: CONVERSATION, generation: 2, delayMs: 0 }]);

    expect(await turn(2)).to.deep.equal(DONE);
    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b'], ['c']]);
  });

  it('does not go on when the next turn waits out its debounce window: job G+1 is queued, delayed by what is left of it', async () => {
    // the debounce is long; a's ceiling (maxWait, 200 ms) has passed when its job runs, b's has not when a's turn ends
    h = createHarness(redis, { timings: { debounceMs: 60_000, maxWaitMs: 200 } });
    await h.receive('a');
    await new Promise((resolve) => setTimeout(resolve, 250));
    h.deliverer.during = async () => {
      h.deliverer.during = undefined;
      await h.receive('b');
    };

    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.deliverer.answered()).to.deep.equal([['a']]);
    // b's ceiling (200 ms from its arrival) comes before its quiet window (60 s): the job is added that late
    expect(h.turnJobs.map((job) => [job.conversationId, job.generation])).to.deep.equal([[CONVERSATION, 1]]);
    expect(h.turnJobs[0]!.delayMs).to.be.within(100, 200);
  });

  it('resumes a turn it went on to when re-run after a crash: same delivery id, same batch, then the rest', async () => {
    for (const id of ['a', 'b', 'c']) await h.receive(id);
    let posts = 0;
    h.deliverer.during = () => {
      posts += 1;
      // the worker dies during b's attempt (b's turn was taken by a's SETTLE)
      return posts === 2 ? Promise.reject(new Error('worker died')) : Promise.resolve();
    };
    await turn(0).catch((error: unknown) => expect((error as Error).message).to.equal('worker died'));
    const carried = await h.turns.checkedBatch(CONVERSATION);
    expect(carried !== 'corrupt' && carried && [carried.generation, carried.carrier]).to.deep.equal([1, 0]);

    // BullMQ runs the same job again (its payload still says generation 0)
    h.deliverer.during = undefined;
    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b'], ['b'], ['c']]);
    expect(h.deliverer.requests.map((r) => r.deliveryId).slice(1, 3)).to.deep.equal([1, 1].map((g) => testDeliveryId(CONVERSATION, g)));
    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 1)))?.state).to.equal('delivered');
    expect(h.turnJobs).to.deep.equal([]);
  });

  it('waits as the job that went on when the next turn is retried, and its next run retries that turn', async () => {
    for (const id of ['a', 'b']) await h.receive(id);
    h.deliverer.answer(outcome.delivered(), outcome.retry(503));

    const decision = await turn(0);

    expect(decision.kind).to.equal('wait');
    h.clock.advance(5000);
    expect(await turn(0)).to.deep.equal(DONE);
    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b'], ['b']]);
    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 1)))?.state).to.equal('delivered');
  });

  it('leaves a carried turn alone when a job of its own generation runs too: nothing is sent twice, the batch stays', async () => {
    for (const id of ['a', 'b']) await h.receive(id);
    h.deliverer.answer(outcome.delivered(), outcome.retry(503));
    await turn(0); // b's turn is carried by job 0, waiting for its retry

    expect(await turn(1)).to.deep.equal(DONE);

    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b']]);
    const batch = await h.turns.checkedBatch(CONVERSATION);
    expect(batch !== 'corrupt' && batch?.carrier).to.equal(0);
  });

  it('names the carrying job to the sweep, so it makes sure of that job and adds no second one', async () => {
    for (const id of ['a', 'b', 'c']) await h.receive(id);
    h.deliverer.answer(outcome.delivered(), outcome.retry(503));
    await turn(0); // b's turn carried by job 0, c waiting

    expect(await h.turns.waitingTurn(CONVERSATION)).to.equal(0);
  });

  it('reaches a turn it went on to with a stop: its attempt in flight is aborted and cancelled, nothing after it is sent', async () => {
    for (const id of ['a', 'b', 'c']) await h.receive(id);
    let posts = 0;
    h.deliverer.during = async () => {
      if ((posts += 1) === 2) await h.replies.stop(CONVERSATION);
    };

    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.aborts.map((a) => a.deliveryId)).to.deep.equal([testDeliveryId(CONVERSATION, 1)]);
    // the worker heard it: the attempt of the turn it went on to is registered under its delivery id
    expect(h.acknowledged).to.deep.equal([testDeliveryId(CONVERSATION, 1)]);
    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 1)))?.state).to.equal('cancelled');
    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b']]);
    expect(await h.turns.checkedBatch(CONVERSATION)).to.equal(undefined);
  });

  it('stops going on when the worker drains: the next turn is queued, not taken', async () => {
    for (const id of ['a', 'b']) await h.receive(id);
    const draining = new AbortController();
    h.deps.stopping = draining.signal;
    h.deliverer.during = () => Promise.resolve(draining.abort());

    expect(await turn(0)).to.deep.equal(DONE);

    expect(h.deliverer.answered()).to.deep.equal([['a']]);
    expect(h.turnJobs).to.deep.equal([{ conversationId: CONVERSATION, generation: 1, delayMs: 0 }]);
  });

  it('dead-letters a carried turn whose job failed for good and lets the conversation go on', async () => {
    for (const id of ['a', 'b']) await h.receive(id);
    let posts = 0;
    h.deliverer.during = () => ((posts += 1) === 2 ? Promise.reject(new Error('ECONNRESET')) : Promise.resolve());
    await turn(0).catch(() => undefined);

    await turnFailedForGood(h.deps, { conversationId: CONVERSATION, generation: 0 }, new Error('ECONNRESET'));

    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, 1)))?.state).to.equal('dead');
    expect(await h.turns.checkedBatch(CONVERSATION)).to.equal(undefined);
    expect(await h.deps.turns.take(CONVERSATION, 1, 'unused')).to.deep.equal({ kind: 'stale', current: 2 });
  });

  it("goes on past a dead worker's expired in-flight marker, which a stop ignores and the next TAKE sweeps", async () => {
    const attempts = h.keys.attemptsInFlight(CONVERSATION);
    for (const id of ['a', 'b', 'c']) await h.receive(id);
    await redis.hset(attempts, 'dlv_worker_died', '1'); // its time ran out long ago
    // each attempt of the backlog finds the markers as SETTLE left them
    const seen: string[][] = [];
    h.deliverer.during = async () => void seen.push((await redis.hkeys(attempts)).sort());

    expect(await turn(0)).to.deep.equal(DONE);
    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b'], ['c']]);
    // TAKE swept it; the turns SETTLE went on to were marked beside nothing else
    expect(seen).to.deep.equal([0, 1, 2].map((g) => [testDeliveryId(CONVERSATION, g)]));

    // a marker that runs out while turns go on is left for the next TAKE, and a stop does not name it
    for (const id of ['d', 'e']) await h.receive(id);
    h.deliverer.during = async () => {
      if (h.deliverer.requests.length === 4) await redis.hset(attempts, 'dlv_worker_died_later', '1');
      seen.push((await redis.hkeys(attempts)).sort());
    };
    expect(await turn(3)).to.deep.equal(DONE);
    expect(seen.at(-1)).to.deep.equal([testDeliveryId(CONVERSATION, 4), 'dlv_worker_died_later']);
    const stopped = await h.turns.cancel(CONVERSATION, { setStop: true, pauseMs: 0 });
    expect(stopped.inFlightDeliveryIds).to.deep.equal([]);
  });
});
