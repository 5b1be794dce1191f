import type { DueMessage } from '@dialog-relay/chat';
import { createRedisKeys, createRequestRedis, waitForRedis, type Redis } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { createConversationTurns, type ConversationTurns } from '../src/index.js';

describe('conversation turns (the per-conversation reply protocol)', () => {
  let redis: Redis;
  let turns: ConversationTurns;
  before(async () => {
    redis = createRequestRedis(testRedisUrl(), { name: 'turns-test' });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.disconnect());
  let keys: ReturnType<typeof createRedisKeys>;
  beforeEach(() => {
    keys = createRedisKeys(uniquePrefix('turns'));
    turns = createConversationTurns({ redis, keys, pendingTtlMs: 60_000 });
  });

  const due = (msgId: string, conversationId = 'c_one'): DueMessage => ({
    client: 'shop', conversationId, msgId, sendUrl: 'http://127.0.0.1:9/x', groupId: undefined, groupName: undefined,
    customerId: 'cust', boundAccountId: 'bound', receivedAtMs: Date.now(),
  });

  it('queues every message for generation 0 until a turn takes them', async () => {
    expect(await turns.schedule(due('a'))).to.deep.equal({ kind: 'queued', generation: 0 });
    expect(await turns.schedule(due('b'))).to.deep.equal({ kind: 'queued', generation: 0 });
    expect((await turns.pending('c_one')).map((m) => m.msgId)).to.deep.equal(['a', 'b']);
  });

  it('never queues the same msg_id twice (a retried request), yet names the generation to make sure its job exists', async () => {
    expect(await turns.schedule(due('a'))).to.deep.equal({ kind: 'queued', generation: 0 });
    expect(await turns.schedule(due('a'))).to.deep.equal({ kind: 'queued', generation: 0 });
    expect((await turns.pending('c_one')).map((m) => m.msgId)).to.deep.equal(['a']);
  });

  it('with debounce 0 takes one message per turn, in order', async () => {
    await turns.schedule(due('a'));
    await turns.schedule(due('b'));
    const first = await turns.take('c_one', 0, 0);
    expect(first.kind === 'batch' && first.messages.map((m) => m.msgId)).to.deep.equal(['a']);
    expect(await turns.finish('c_one', 0)).to.deep.equal({ next: true, generation: 1 });
    const second = await turns.take('c_one', 1, 0);
    expect(second.kind === 'batch' && second.messages.map((m) => m.msgId)).to.deep.equal(['b']);
    expect(await turns.finish('c_one', 1)).to.deep.equal({ next: false, generation: 2 });
  });

  it('waits out the debounce window, then takes all pending messages as one batch', async () => {
    await turns.schedule(due('a'));
    await turns.schedule(due('b'));
    const early = await turns.take('c_one', 0, 60_000);
    expect(early.kind).to.equal('wait');
    expect(early.kind === 'wait' && early.ms).to.be.within(59_000, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5)); // let a 1 ms window pass on the server clock
    const late = await turns.take('c_one', 0, 1);
    expect(late.kind === 'batch' && late.messages.map((m) => m.msgId)).to.deep.equal(['a', 'b']);
  });

  it('gives a re-run of the same turn the same batch (a crashed worker loses nothing)', async () => {
    await turns.schedule(due('a'));
    await turns.take('c_one', 0, 0);
    await turns.schedule(due('b'));
    const again = await turns.take('c_one', 0, 0);
    expect(again.kind === 'batch' && again.messages.map((m) => m.msgId)).to.deep.equal(['a']);
  });

  it('calls a job of an old generation stale', async () => {
    await turns.schedule(due('a'));
    await turns.take('c_one', 0, 0);
    await turns.finish('c_one', 0);
    expect(await turns.take('c_one', 0, 0)).to.deep.equal({ kind: 'stale', current: 1 });
  });

  it('stop drops pending messages and the live batch, advances the generation, and refuses new messages', async () => {
    await turns.schedule(due('a'));
    await turns.schedule(due('b'));
    await turns.take('c_one', 0, 0);
    expect(await turns.stop('c_one')).to.deep.equal({ cancelled: 2, generation: 0 });
    expect(await turns.isStopped('c_one')).to.equal(true);
    expect(await redis.pttl(keys.autoReplyStopped('c_one'))).to.equal(-1); // a stop lasts until resume
    expect(await turns.pending('c_one')).to.deep.equal([]);
    expect(await turns.schedule(due('c'))).to.deep.equal({ kind: 'stopped' });
    expect(await turns.take('c_one', 0, 0)).to.deep.equal({ kind: 'stale', current: 1 });
    await turns.resume('c_one');
    expect(await turns.schedule(due('d'))).to.deep.equal({ kind: 'queued', generation: 1 });
  });

  it('refuses a delivery attempt once stopped, or once the generation moved on, even after resume', async () => {
    await turns.schedule(due('a'));
    await turns.take('c_one', 0, 0);
    expect(await turns.beginAttempt('c_one', 0, 'dlv_1', 5000)).to.equal(true);
    expect(await turns.attemptInFlight('c_one')).to.equal(true);
    await turns.endAttempt('c_one', 'dlv_1');
    expect(await turns.attemptInFlight('c_one')).to.equal(false);
    await turns.stop('c_one');
    expect(await turns.beginAttempt('c_one', 0, 'dlv_1', 5000)).to.equal(false);
    await turns.resume('c_one');
    expect(await turns.beginAttempt('c_one', 0, 'dlv_1', 5000)).to.equal(false);
    expect(await turns.beginAttempt('c_one', null, 'dlv_replay', 5000)).to.equal(true);
  });

  it('keeps conversations apart', async () => {
    await turns.schedule(due('a', 'c_one'));
    await turns.schedule(due('x', 'c_two'));
    await turns.stop('c_one');
    expect((await turns.pending('c_two')).map((m) => m.msgId)).to.deep.equal(['x']);
  });
});
