import { replyQueueKeys } from '@dialog-relay/queue';
import { createRedisKeys, type Redis } from '@dialog-relay/redis';
import { uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { createTurnStore, type TakeResult, type TurnStore, type TurnTimings } from './internals.js';
import { dueMessage as due } from './support/due-message.js';
import { testRedisForSuite } from './support/suite-hooks.js';

describe('turn store (the per-conversation turn protocol)', () => {
  let redis: Redis;
  let keys: ReturnType<typeof createRedisKeys>;
  testRedisForSuite('turns-test', (connection) => (redis = connection));
  const storeWith = (timings: Partial<TurnTimings> = {}): TurnStore => {
    keys = createRedisKeys(uniquePrefix('turns'));
    return createTurnStore({
      redis,
      keys,
      timings: { debounceMs: 0, maxWaitMs: 0, pendingTtlMs: 60_000, attemptMarkerTtlMs: 5000, ...timings },
    });
  };
  let turns: TurnStore;
  beforeEach(() => {
    turns = storeWith();
  });

  const ids = (taken: TakeResult): string[] | string =>
    taken.kind === 'batch' ? taken.batch.messages.map((m) => m.message.msg_id) : taken.kind;
  const pending = async (c = 'c_one'): Promise<string[]> => (await turns.snapshot(c)).pending.map((m) => m.message.msg_id);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  it('queues every message for generation 0 until a turn takes them', async () => {
    expect(await turns.schedule(due('a'))).to.deep.equal({ kind: 'queued', generation: 0, opensTurn: true });
    expect(await turns.schedule(due('b'))).to.deep.equal({ kind: 'queued', generation: 0, opensTurn: false });
    expect(await pending()).to.deep.equal(['a', 'b']);
  });

  it('a message opens its turn (the caller adds job G) only when nothing waits and no batch is taken', async () => {
    expect(await turns.schedule(due('a'))).to.include({ generation: 0, opensTurn: true });
    expect(await turns.take('c_one', 0, 'dlv_a')).to.include({ kind: 'batch' });
    // Turn 0 holds a batch: the worker adds job 1 when turn 0 ends, since b waits.
    expect(await turns.schedule(due('b'))).to.include({ generation: 0, opensTurn: false });
    expect(await turns.finish('c_one', 0)).to.deep.equal({ next: true, generation: 1 });
    expect(await turns.schedule(due('c'))).to.include({ generation: 1, opensTurn: false });
    // Without a debounce a turn takes one message: turn 1 takes b, turn 2 takes c and ends with nothing waiting.
    expect(await turns.take('c_one', 1, 'dlv_b')).to.include({ kind: 'batch' });
    expect(await turns.finish('c_one', 1)).to.deep.equal({ next: true, generation: 2 });
    expect(await turns.take('c_one', 2, 'dlv_c')).to.include({ kind: 'batch' });
    expect(await turns.finish('c_one', 2)).to.deep.equal({ next: false, generation: 3 });
    // No job 3 exists, so d opens turn 3.
    expect(await turns.schedule(due('d'))).to.include({ generation: 3, opensTurn: true });
    expect(await turns.schedule(due('e'))).to.include({ generation: 3, opensTurn: false });
    // After a cancel (a human's message) nothing waits and the batch is gone: the next message opens a turn.
    await turns.cancel('c_one', { setStop: false, pauseMs: 0 });
    expect(await turns.schedule(due('f'))).to.include({ generation: 4, opensTurn: true });
  });

  it('never queues the same msg_id twice (a retried request), yet names the generation to make sure its job exists', async () => {
    expect(await turns.schedule(due('a'))).to.deep.equal({ kind: 'queued', generation: 0, opensTurn: true });
    expect(await turns.schedule(due('a'))).to.deep.equal({ kind: 'queued', generation: 0, opensTurn: true });
    expect(await pending()).to.deep.equal(['a']);
  });

  it('with debounce 0 takes one message per turn, in order, each under the delivery id given when it was taken', async () => {
    await turns.schedule(due('a'));
    await turns.schedule(due('b'));
    const first = await turns.take('c_one', 0, 'dlv_first');
    expect(ids(first)).to.deep.equal(['a']);
    expect(first.kind === 'batch' && first.batch).to.include({ deliveryId: 'dlv_first', generation: 0 });
    expect(await turns.finish('c_one', 0)).to.deep.equal({ next: true, generation: 1 });
    expect(ids(await turns.take('c_one', 1, 'dlv_second'))).to.deep.equal(['b']);
    expect(await turns.finish('c_one', 1)).to.deep.equal({ next: false, generation: 2 });
  });

  it('waits out the debounce window, then takes all pending messages as one batch', async () => {
    turns = storeWith({ debounceMs: 60_000, maxWaitMs: 120_000 });
    await turns.schedule(due('a'));
    await turns.schedule(due('b'));
    const early = await turns.take('c_one', 0, 'dlv_x');
    expect(early.kind === 'wait' && early.ms).to.be.within(59_000, 60_000);
    turns = createTurnStore({
      redis,
      keys,
      timings: { debounceMs: 1, maxWaitMs: 120_000, pendingTtlMs: 60_000, attemptMarkerTtlMs: 5000 },
    });
    await sleep(5); // let a 1 ms window pass on the server clock
    expect(ids(await turns.take('c_one', 0, 'dlv_x'))).to.deep.equal(['a', 'b']);
  });

  it('answers a customer who keeps typing at the latest AUTO_REPLY_MAX_WAIT_MS after the oldest unanswered message', async () => {
    turns = storeWith({ debounceMs: 60_000, maxWaitMs: 150 });
    await turns.schedule(due('a'));
    const first = await turns.take('c_one', 0, 'dlv_x');
    expect(first.kind === 'wait' && first.ms).to.be.within(1, 150); // the ceiling, not the 60 s debounce
    // Messages keep coming faster than the debounce: the quiet window never ends, the ceiling does.
    for (const msgId of ['b', 'c']) {
      await sleep(60);
      await turns.schedule(due(msgId));
    }
    await sleep(60);
    expect(ids(await turns.take('c_one', 0, 'dlv_x'))).to.deep.equal(['a', 'b', 'c']);
    await turns.schedule(due('d'));
    expect(await turns.finish('c_one', 0)).to.deep.equal({ next: true, generation: 1 });
    // The ceiling runs again from the oldest message not yet answered: d.
    const next = await turns.take('c_one', 1, 'dlv_y');
    expect(next.kind === 'wait' && next.ms).to.be.within(1, 150);
  });

  it('gives a re-run of the same turn the same batch and delivery id (a crashed worker loses nothing)', async () => {
    await turns.schedule(due('a'));
    await turns.take('c_one', 0, 'dlv_first');
    await turns.schedule(due('b'));
    const again = await turns.take('c_one', 0, 'dlv_other');
    expect(ids(again)).to.deep.equal(['a']);
    expect(again.kind === 'batch' && again.batch.deliveryId).to.equal('dlv_first');
  });

  it('calls a job of an old generation stale', async () => {
    await turns.schedule(due('a'));
    await turns.take('c_one', 0, 'dlv_x');
    await turns.finish('c_one', 0);
    expect(await turns.take('c_one', 0, 'dlv_x')).to.deep.equal({ kind: 'stale', current: 1 });
  });

  it('stop drops pending messages and the live batch, advances the generation, names what was live, and refuses new messages', async () => {
    await turns.schedule(due('a'));
    await turns.schedule(due('b'));
    await turns.take('c_one', 0, 'dlv_live');
    expect(await turns.beginAttempt('c_one', 0, 'dlv_live')).to.equal(true);
    const result = await turns.cancel('c_one', { setStop: true, pauseMs: 0 });
    expect(result).to.deep.equal({
      cancelled: 2,
      batchDeliveryId: 'dlv_live',
      inFlightDeliveryIds: ['dlv_live'],
      pausedUntilMs: 0,
      generation: 0,
      waiting: 1,
    });
    const snapshot = await turns.snapshot('c_one');
    expect(snapshot).to.deep.include({ stopped: true, pausedUntilMs: null, pending: [], batch: undefined });
    expect(await redis.pttl(keys.autoReplyStopped('c_one'))).to.equal(-1); // a stop lasts until resume
    expect(await turns.schedule(due('c'))).to.deep.equal({ kind: 'stopped' });
    expect(await turns.take('c_one', 0, 'dlv_x')).to.deep.equal({ kind: 'stale', current: 1 });
    await turns.resume('c_one');
    expect(await turns.schedule(due('d'))).to.deep.equal({ kind: 'queued', generation: 1, opensTurn: true });
  });

  it('stop names the delivery id and size of a batch whose messages carry content; content over the cap stays in the context only', async () => {
    const storeWithDebounce = storeWith({ debounceMs: 1, maxWaitMs: 1 });
    const text = [{ type: 'text' as const, content: '"'.repeat(10_000) }]; // the longest text, every character escaped
    const photo = [{ type: 'image' as const, content: 'A'.repeat(512 * 1024) }];
    for (const msgId of ['a', 'b']) await storeWithDebounce.schedule(due(msgId, 'c_one', text));
    await storeWithDebounce.schedule(due('c', 'c_one', photo));
    await sleep(5);
    const taken = await storeWithDebounce.take('c_one', 0, 'dlv_0193c4d27b1e7a449d2f3e5a6b7c8d9e_s5');
    expect(taken.kind === 'batch' && taken.batch.messages.map((m) => m.message.content)).to.deep.equal([text, text, undefined]);
    expect(await redis.getrange(keys.replyBatch('c_one'), 0, 299)).to.match(
      /^\{"delivery_id":"dlv_0193c4d27b1e7a449d2f3e5a6b7c8d9e_s5","generation":0,"count":3,"carrier":0,"messages":\[/,
    );
    expect(await storeWithDebounce.cancel('c_one', { setStop: false, pauseMs: 0 })).to.include({
      cancelled: 3,
      batchDeliveryId: 'dlv_0193c4d27b1e7a449d2f3e5a6b7c8d9e_s5',
      waiting: 0,
    });
  });

  it('stop reads the batch’s header only, never the messages after it', async () => {
    // Cut short after the header: decoding it would fail; the header alone says what was live.
    await redis.set(
      keys.replyBatch('c_one'),
      '{"delivery_id":"dlv_head","generation":0,"count":2,"messages":[{"message":{"msg_id":"a","role":"customer","from_user_id":"cust","content":[{"type":"image","cont',
    );
    expect(await turns.cancel('c_one', { setStop: false, pauseMs: 0 })).to.include({ cancelled: 2, batchDeliveryId: 'dlv_head' });
  });

  it("a human's message cancels the unsent reply without stopping, and with a pause refuses customer messages until it ends", async () => {
    await turns.schedule(due('a'));
    await turns.take('c_one', 0, 'dlv_live');
    const cancelled = await turns.cancel('c_one', { setStop: false, pauseMs: 0 });
    expect(cancelled).to.include({ cancelled: 1, batchDeliveryId: 'dlv_live', pausedUntilMs: 0 });
    expect((await turns.snapshot('c_one')).stopped).to.equal(false);
    expect(await turns.schedule(due('b'))).to.deep.equal({ kind: 'queued', generation: 1, opensTurn: true });

    const paused = await turns.cancel('c_one', { setStop: false, pauseMs: 200 });
    expect(paused.cancelled).to.equal(1);
    expect(paused.pausedUntilMs).to.be.greaterThan(Date.now() - 1000);
    expect((await turns.snapshot('c_one')).pausedUntilMs).to.equal(paused.pausedUntilMs);
    expect(await turns.schedule(due('c'))).to.deep.equal({ kind: 'paused' });
    await sleep(250);
    expect(await turns.schedule(due('d'))).to.deep.equal({ kind: 'queued', generation: 2, opensTurn: true });
  });

  it('refuses a delivery attempt once stopped, or once the generation moved on, even after resume', async () => {
    await turns.schedule(due('a'));
    await turns.take('c_one', 0, 'dlv_1');
    expect(await turns.beginAttempt('c_one', 0, 'dlv_1')).to.equal(true);
    expect(await redis.hkeys(keys.attemptsInFlight('c_one'))).to.deep.equal(['dlv_1']);
    await turns.cancel('c_one', { setStop: true, pauseMs: 0 });
    expect(await turns.beginAttempt('c_one', 0, 'dlv_1')).to.equal(false);
    await turns.resume('c_one');
    expect(await turns.beginAttempt('c_one', 0, 'dlv_1')).to.equal(false);
    expect(await turns.beginAttempt('c_one', null, 'dlv_replay')).to.equal(true);
  });

  it('stop names every attempt in flight (a replay beside the turn), not one whose marker has run out', async () => {
    await turns.schedule(due('a'));
    await turns.take('c_one', 0, 'dlv_live');
    expect(await turns.beginAttempt('c_one', 0, 'dlv_live')).to.equal(true);
    expect(await turns.beginAttempt('c_one', null, 'dlv_replay')).to.equal(true);
    await redis.hset(keys.attemptsInFlight('c_one'), 'dlv_worker_died', '1'); // its time ran out long ago
    const result = await turns.cancel('c_one', { setStop: true, pauseMs: 0 });
    expect(result.inFlightDeliveryIds).to.have.members(['dlv_live', 'dlv_replay']);
  });

  it('keeps conversations apart', async () => {
    await turns.schedule(due('a', 'c_one'));
    await turns.schedule(due('x', 'c_two'));
    await turns.cancel('c_one', { setStop: true, pauseMs: 0 });
    expect(await pending('c_two')).to.deep.equal(['x']);
  });

  it("drops the marker BullMQ left for the shard's workers when no job waits, and keeps it while one does", async () => {
    const queue = replyQueueKeys(keys.bullPrefix(keys.shardOf('c_one')));
    const marker = async (): Promise<string[]> => redis.zrange(queue.jobsMarker, '0', '-1');
    // moveToActive handed the job over and left its base marker '0'; a delayed job's marker is '1'.
    await redis.zadd(queue.jobsMarker, '0', '0', String(Date.now() + 60_000), '1');
    await turns.schedule(due('a'));
    expect(await turns.take('c_one', 0, 'dlv_a')).to.include({ kind: 'batch' });
    expect(await marker()).to.deep.equal(['1']);

    // Another job waits (in the wait list, or prioritized): its marker stays, a worker wakes for it.
    for (const waiting of [() => redis.rpush(queue.jobsWaiting, 'c_two-0'), () => redis.zadd(queue.jobsPrioritized, '1', 'c_two-0')]) {
      await redis.del(queue.jobsWaiting, queue.jobsPrioritized);
      await waiting();
      await redis.zadd(queue.jobsMarker, '0', '0');
      expect(await turns.take('c_one', 0, 'dlv_a')).to.include({ kind: 'batch' });
      expect(await marker()).to.deep.equal(['0', '1']);
    }
  });
});
