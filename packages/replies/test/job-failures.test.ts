import { DONE } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import {
  listDeadLetters,
  NO_REPLY_METRICS,
  processRedelivery,
  processTurn,
  redeliveryFailedForGood,
  turnFailedForGood,
  type DeadReason,
} from './internals.js';
import { CONVERSATION, outcome, type Harness, testDeliveryId } from './harness.js';
import { replayOn } from './support/replay.js';
import { harnessPerTest } from './support/suite-hooks.js';

/** What happens when BullMQ gives up on a job (docs/service-rules.md §15): a dead letter with a reason, and the conversation goes on. */
describe('job failures: the final failure of a turn or a redelivery', () => {
  let redis: Redis;
  let h: Harness;
  let deadReasons: DeadReason[];
  harnessPerTest('job-failures-test', (harness, connection) => {
    h = harness;
    redis = connection;
  });
  beforeEach(() => {
    deadReasons = [];
    h.deps.metrics = { ...NO_REPLY_METRICS, deadLetter: (reason) => void deadReasons.push(reason) };
  });

  const firstId = testDeliveryId(CONVERSATION, 0);
  const turn = (generation: number) => processTurn(h.deps, { conversationId: CONVERSATION, generation });
  /** A turn job whose engine call throws after the turn took its messages (the batch is stored). */
  const failAfterTake = async (): Promise<void> => {
    h.engine.during = () => Promise.reject(new Error('engine exploded'));
    let thrown: unknown;
    await turn(0).catch((error: unknown) => (thrown = error));
    expect((thrown as Error).message).to.equal('engine exploded');
    h.engine.during = undefined;
  };
  /** The conversation goes on: its old turn is over and a new message is answered by the next generation. */
  const conversationGoesOn = async (nextGeneration: number): Promise<void> => {
    expect(await h.deps.turns.take(CONVERSATION, 0, 'unused')).to.deep.equal({ kind: 'stale', current: nextGeneration });
    await h.receive('later');
    expect(await turn(nextGeneration)).to.deep.equal(DONE);
    expect(h.deliverer.answered().at(-1)).to.deep.equal(['later']);
    expect((await h.deliveries.get(testDeliveryId(CONVERSATION, nextGeneration)))?.state).to.equal('delivered');
  };

  it('dead-letters a reply never produced under the id its turn chose, with reason failed and the error, once however often it runs', async () => {
    await h.receive('a');
    await failAfterTake();

    await turnFailedForGood(h.deps, { conversationId: CONVERSATION, generation: 0 }, new Error('engine exploded'));
    await turnFailedForGood(h.deps, { conversationId: CONVERSATION, generation: 0 }, new Error('engine exploded'));

    const letters = await listDeadLetters(h.deliveries);
    expect(letters.map((l) => l.record.delivery_id)).to.deep.equal([firstId]);
    expect(letters[0]!.record).to.deep.include({ state: 'dead', dead_reason: 'failed', in_reply_to: ['a'], payload: '' });
    expect(letters[0]!.record.dead_detail).to.match(/the turn job failed for good: Error: engine exploded/);
    expect(deadReasons).to.deep.equal(['failed']);
    expect(h.turnJobs).to.deep.equal([]);
    await conversationGoesOn(1);
  });

  it('dead-letters a turn whose batch record is corrupt under a new delivery id, saying so, and finishes the turn', async () => {
    h.deps.newDeliveryId = () => 'dlv_0190aa00000070008000000000000001_s0';
    await h.receive('a');
    await failAfterTake();
    await redis.set(h.keys.replyBatch(CONVERSATION), '{"delivery_id": 7, "messages": ');

    await turnFailedForGood(h.deps, { conversationId: CONVERSATION, generation: 0 }, new Error('Unexpected end of JSON input'));

    const letters = await listDeadLetters(h.deliveries);
    expect(letters.map((l) => l.record.delivery_id)).to.deep.equal(['dlv_0190aa00000070008000000000000001_s0']);
    expect(letters[0]!.record).to.deep.include({ state: 'dead', dead_reason: 'failed', conversation_id: CONVERSATION, in_reply_to: [] });
    expect(letters[0]!.record.dead_detail).to.match(/^corrupt turn record; the turn job failed for good: /);
    expect(deadReasons).to.deep.equal(['failed']);
    expect(await redis.exists(h.keys.replyBatch(CONVERSATION))).to.equal(0);
    await conversationGoesOn(1);
  });

  it('dead-letters a turn whose batch record holds messages that are not due messages, saying so, and finishes the turn', async () => {
    h.deps.newDeliveryId = () => 'dlv_0190aa00000070008000000000000002_s0';
    await h.receive('a');
    await failAfterTake();
    await redis.set(
      h.keys.replyBatch(CONVERSATION),
      JSON.stringify({ delivery_id: testDeliveryId(CONVERSATION, 0), generation: 0, messages: [null, 7] }),
    );

    await turnFailedForGood(
      h.deps,
      { conversationId: CONVERSATION, generation: 0 },
      new Error("Cannot read properties of null (reading 'conversationId')"),
    );

    const letters = await listDeadLetters(h.deliveries);
    expect(letters.map((l) => l.record.delivery_id)).to.deep.equal(['dlv_0190aa00000070008000000000000002_s0']);
    expect(letters[0]!.record).to.deep.include({ state: 'dead', dead_reason: 'failed', conversation_id: CONVERSATION, in_reply_to: [] });
    expect(letters[0]!.record.dead_detail).to.match(/^corrupt turn record; the turn job failed for good: /);
    expect(deadReasons).to.deep.equal(['failed']);
    await conversationGoesOn(1);
  });

  it('makes no dead letter when the turn failed before taking its messages: the next turn, queued at once, takes and answers them', async () => {
    await h.receive('a');
    await h.receive('b');

    // e.g. Redis answered every try of the take script with an error
    await turnFailedForGood(h.deps, { conversationId: CONVERSATION, generation: 0 }, new Error('ECONNRESET'));

    expect(await listDeadLetters(h.deliveries)).to.deep.equal([]);
    expect(deadReasons).to.deep.equal([]);
    expect(h.turnJobs).to.deep.equal([{ conversationId: CONVERSATION, generation: 1, delayMs: 0 }]);
    // job 1 answers a, then goes on to b's turn in the same run (no job 2)
    expect(await turn(1)).to.deep.equal(DONE);
    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b']]);
    expect(h.turnJobs).to.have.length(1);
  });

  it('dead-letters the batch of a later turn its job went on to, ends that turn, and leaves the conversation going', async () => {
    await h.receive('a');
    await h.receive('b');
    await h.receive('c');
    // job 0 answers a, goes on to b's turn (taken in SETTLE), and b's attempt fails for good
    let runs = 0;
    h.deliverer.during = () => ((runs += 1) === 2 ? Promise.reject(new Error('ECONNRESET')) : Promise.resolve());
    await turn(0).catch(() => undefined);
    expect(h.deliverer.answered()).to.deep.equal([['a'], ['b']]);
    const batch = await h.turns.checkedBatch(CONVERSATION);
    expect(batch !== 'corrupt' && batch?.generation).to.equal(1);
    expect(batch !== 'corrupt' && batch?.carrier).to.equal(0);

    await turnFailedForGood(h.deps, { conversationId: CONVERSATION, generation: 0 }, new Error('ECONNRESET'));

    expect(deadReasons).to.deep.equal(['failed']);
    expect((await listDeadLetters(h.deliveries)).map((d) => d.record.delivery_id)).to.deep.equal([testDeliveryId(CONVERSATION, 1)]);
    expect(h.turnJobs).to.deep.equal([{ conversationId: CONVERSATION, generation: 2, delayMs: 0 }]);
    h.deliverer.during = undefined;
    expect(await turn(2)).to.deep.equal(DONE);
    expect(h.deliverer.answered().at(-1)).to.deep.equal(['c']);
  });

  it('puts a replayed letter whose redelivery failed for good back on the dead letters with reason failed; the conversation is not held up', async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.permanent(410));
    await turn(0);
    const jobs = { add: () => Promise.resolve() };
    expect(await replayOn(h, jobs, firstId)).to.equal('queued');
    expect(await listDeadLetters(h.deliveries)).to.deep.equal([]);
    deadReasons.length = 0;

    await redeliveryFailedForGood(
      h.deps,
      { deliveryId: firstId },
      new Error('WRONGTYPE Operation against a key holding the wrong kind of value'),
    );

    const letters = await listDeadLetters(h.deliveries);
    expect(letters.map((l) => l.record.delivery_id)).to.deep.equal([firstId]);
    expect(letters[0]!.record).to.deep.include({ state: 'dead', dead_reason: 'failed' });
    expect(letters[0]!.record.dead_detail).to.match(/^the redelivery job failed for good: Error: WRONGTYPE/);
    expect(letters[0]!.attempts.map((a) => a.status)).to.deep.equal([410]);
    expect(deadReasons).to.deep.equal(['failed']);
    // A later run of the old redelivery job sends nothing: the letter is dead again.
    expect(await processRedelivery(h.deps, { deliveryId: firstId })).to.deep.equal(DONE);
    expect(h.deliverer.requests).to.have.length(1);
    await conversationGoesOn(1);
  });
});
