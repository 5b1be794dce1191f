import { defineLuaPart, runSteps, type Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { createAutoReplies, newDeliveryId, processTurn, STATUS_KEPT_MAX_BYTES } from './internals.js';
import { CONVERSATION, outcome, TIMINGS, type Harness } from './harness.js';
import { harnessPerTest } from './support/suite-hooks.js';

/** What a status part left in `shared.outcome` for the script's COMPLETE part: read back here instead. */
const KEPT_PROBE = defineLuaPart({
  name: 'kept',
  does: 'answer what the parts before left in shared.outcome',
  keys: [],
  args: [],
  output: 'shared.outcome | false',
  slot: 'conversation',
  lua: () => 'return shared.outcome',
});

/**
 * auto_reply_status with a msg_id stores what its part read, as JSON, as its idempotent answer in the
 * same script (docs/design/lua-scripts.md "Composed scripts"); a replay renders it. It must show what
 * the live reply showed: cjson writes Lua's false (a missing value) as false and an empty list as {}.
 */
describe('a status kept as its idempotent answer', () => {
  let h: Harness;
  let redis: Redis;
  harnessPerTest(
    'kept-status-test',
    (harness, connection) => {
      h = harness;
      redis = connection;
    },
    { settings: { handoffPauseMs: 60_000 } },
  );
  const repliesOf = () =>
    createAutoReplies({
      turns: h.turns,
      deliveries: h.deliveries,
      jobs: { addTurn: () => Promise.resolve(), removeTurn: () => Promise.resolve() },
      aborts: { abort: () => Promise.resolve(true), close: () => undefined },
      steps: { keys: h.keys, timings: TIMINGS },
      settings: { debounceMs: 0, humanPauseMs: 0, abortWaitMs: 100 },
    });

  /**
   * The harness names its deliveries without a shard (testDeliveryId), so a status reads them after its
   * script; copied under ids of the conversation's shard, their records and attempts are read by the
   * status part itself, as the service's are.
   */
  const inConversationShard = async (conversationId: string): Promise<void> => {
    const list = h.keys.conversationDeliveries(conversationId);
    const ids = await redis.lrange(list, 0, -1);
    const copied: string[] = [];
    for (const id of ids) {
      const copy = newDeliveryId(h.keys.shardOf(conversationId));
      await redis.hset(h.keys.delivery(copy), { ...(await redis.hgetall(h.keys.delivery(id))), delivery_id: copy });
      const attempts = await redis.lrange(h.keys.deliveryAttempts(id), 0, -1);
      if (attempts.length > 0) await redis.rpush(h.keys.deliveryAttempts(copy), ...attempts);
      copied.push(copy);
    }
    await redis.del(list);
    if (copied.length > 0) await redis.rpush(list, ...copied);
  };

  /** The status read live and the one its kept reads render, and what a status that keeps nothing left. */
  const readBoth = async (conversationId: string) => {
    const replies = repliesOf();
    const kept = replies.statusStep(conversationId, true);
    const [reads, json] = await runSteps(redis, [kept.call, { part: KEPT_PROBE, keys: {}, args: {} }]);
    const plain = replies.statusStep(conversationId);
    const [, nothing] = await runSteps(redis, [plain.call, { part: KEPT_PROBE, keys: {}, args: {} }]);
    expect(nothing, 'a status that keeps nothing leaves nothing').to.equal(null);
    expect(json).to.be.a('string');
    return { live: await kept.settle(reads), replayed: await replies.statusOfKeptReads(JSON.parse(json as string)) };
  };

  it('shows what the live reply shows: deliveries with their attempts, a turn producing and messages waiting, a delivery of another shard', async () => {
    await h.receive('a', { text: 'où est mon colis ? 包裹在哪里 "quoted" \\ / \u2028' });
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
    await h.receive('b');
    h.deliverer.answer(outcome.retry(503, 30_000));
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 1 });
    await h.receive('c');
    await inConversationShard(CONVERSATION);
    // an id the list holds whose record is in another shard's keys: shown by its id alone, read after the script
    await redis.rpush(h.keys.conversationDeliveries(CONVERSATION), 'dlv_without_shard');
    const { live, replayed } = await readBoth(CONVERSATION);
    expect(live.auto_reply).to.equal('active');
    expect(live.pending.map((p) => p.state)).to.deep.equal(['producing', 'waiting']);
    expect(live.deliveries.map((d) => [d.state, d.attempts.map((a) => a.status)])).to.deep.equal([
      ['retrying', [503]],
      ['delivered', [200]],
    ]);
    expect(replayed).to.deep.equal(live);
  });

  it('keeps nothing when the reads are longer than STATUS_KEPT_MAX_BYTES (waiting messages with long texts), and reads only the shown fields of a record', async () => {
    await h.receive('a');
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
    await inConversationShard(CONVERSATION);
    const replies = repliesOf();
    const [reads] = await runSteps(redis, [replies.statusStep(CONVERSATION).call]);
    const views = (reads as unknown[])[4] as [string, (string | null)[]][];
    const fields = views[0]![1];
    // delivery_id, state, in_reply_to, dead_reason (missing: null); not the payload the record holds
    expect(fields).to.have.length(4);
    expect(fields[1]).to.equal('delivered');

    for (const id of ['b', 'c']) await h.receive(id, { text: 'x'.repeat(STATUS_KEPT_MAX_BYTES / 2) });
    const kept = replies.statusStep(CONVERSATION, true);
    const [longReads, json] = await runSteps(redis, [kept.call, { part: KEPT_PROBE, keys: {}, args: {} }]);
    expect(json).to.equal(null);
    expect((await kept.settle(longReads)).pending).to.deep.equal([{ msg_ids: ['b', 'c'], state: 'waiting' }]);
  });

  it('shows a stop, a pause and an empty conversation as the live reply does', async () => {
    h.engine.handoff = true;
    await h.receive('a');
    await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
    await inConversationShard(CONVERSATION);
    const paused = await readBoth(CONVERSATION);
    expect(paused.live.paused_until).to.be.a('string');
    expect(paused.replayed).to.deep.equal(paused.live);

    await h.replies.stop(CONVERSATION);
    const stopped = await readBoth(CONVERSATION);
    expect(stopped.live).to.include({ auto_reply: 'stopped' });
    expect(stopped.replayed).to.deep.equal(stopped.live);

    const empty = await readBoth('c_neverSeen');
    expect(empty.live).to.deep.equal({ auto_reply: 'active', paused_until: null, pending: [], deliveries: [] });
    expect(empty.replayed).to.deep.equal(empty.live);
  });
});
