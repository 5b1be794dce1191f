import { createLogger } from '@dialog-relay/logger';
import { createRedisKeys, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { createTurnStore, sweepWaitingTurns, type TurnStore } from './internals.js';
import { dueMessage as due } from './support/due-message.js';
import { testRedisForSuite } from './support/suite-hooks.js';

/** The safety net of docs/service-rules.md §15: conversations with messages waiting, and the sweep that makes sure each has a turn job. */
describe('waiting conversations and the sweep for lost turn jobs', () => {
  let redis: Redis;
  let keys: RedisKeys;
  let turns: TurnStore;
  testRedisForSuite('waiting-turns-test', (connection) => (redis = connection));
  beforeEach(() => {
    keys = createRedisKeys(uniquePrefix('waiting'));
    turns = createTurnStore({ redis, keys, timings: { debounceMs: 0, maxWaitMs: 0, pendingTtlMs: 60_000, attemptMarkerTtlMs: 5000 } });
  });

  const waitingSet = (conversationId = 'c_one') => keys.waitingConversations(keys.shardOf(conversationId));
  const isWaiting = async (conversationId = 'c_one'): Promise<boolean> =>
    (await redis.zscore(waitingSet(conversationId), conversationId)) !== null;
  /** As if the conversation's messages had waited `ms` unchecked. */
  const age = async (ms: number, conversationId = 'c_one'): Promise<void> => {
    const [seconds, micros] = await redis.time();
    await redis.zadd(waitingSet(conversationId), 'XX', Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - ms, conversationId);
  };

  it('records a conversation from its first waiting message until a take leaves nothing waiting, scored by when it started waiting', async () => {
    await turns.schedule(due('a'));
    const since = await redis.zscore(waitingSet(), 'c_one');
    await turns.schedule(due('b'));
    expect(await redis.zscore(waitingSet(), 'c_one')).to.equal(since);

    await turns.take('c_one', 0, 'dlv_a');
    expect(await isWaiting()).to.equal(true); // b still waits
    await turns.finish('c_one', 0);
    await turns.take('c_one', 1, 'dlv_b');
    expect(await isWaiting()).to.equal(false);
  });

  it('takes the conversation out when a stop or a human cancels its messages, and a refused message does not put it back', async () => {
    await turns.schedule(due('a'));
    await turns.cancel('c_one', { setStop: true, pauseMs: 0 });
    expect(await isWaiting()).to.equal(false);
    expect(await turns.schedule(due('b'))).to.deep.equal({ kind: 'stopped' });
    expect(await isWaiting()).to.equal(false);
    await turns.resume('c_one');
    await turns.schedule(due('c'));
    await turns.cancel('c_one', { setStop: false, pauseMs: 0 });
    expect(await isWaiting()).to.equal(false);
  });

  it('hands a sweep only conversations that waited longer than asked, and each once per such period', async () => {
    await turns.schedule(due('a'));
    await turns.schedule(due('x', 'c_two'));
    await age(20_000);
    const shard = keys.shardOf('c_one');

    const claimed = await turns.claimOverdue(shard, 10_000, 100);

    expect(claimed).to.include('c_one');
    expect(claimed).to.not.include('c_two');
    expect(await turns.claimOverdue(shard, 10_000, 100)).to.not.include('c_one'); // checked just now
  });

  it('names the generation whose job must exist while messages wait, and lets go of a conversation whose pending list expired', async () => {
    await turns.schedule(due('a'));
    expect(await turns.waitingTurn('c_one')).to.equal(0);

    await redis.del(keys.pendingReplies('c_one')); // the pending list expired
    expect(await turns.waitingTurn('c_one')).to.equal(undefined);
    expect(await isWaiting()).to.equal(false);
  });

  it('adds the missing turn job of a conversation that waited too long, and nothing for one whose job exists or that waits no more', async () => {
    for (const c of ['c_lost', 'c_busy', 'c_gone', 'c_new']) await turns.schedule(due('m', c));
    await turns.finish('c_lost', 0); // generation 1 now; its message still waits
    for (const c of ['c_lost', 'c_busy', 'c_gone']) await age(60_000, c);
    await redis.del(keys.pendingReplies('c_gone'));
    const ensured: string[] = [];
    const deps = {
      turns,
      jobs: {
        ensureTurn: (c: string, g: number) => {
          ensured.push(`${c}-${g}`);
          return Promise.resolve(c === 'c_busy' ? ('exists' as const) : ('added' as const));
        },
      },
      shards: keys.shards,
      logger: createLogger({ level: 'error', service: 't', silent: true }),
      settings: { rescueAfterMs: 30_000, intervalMs: 1000 },
    };

    let added = 0;
    for (let shard = 0; shard < keys.shards; shard++) added += await sweepWaitingTurns(deps, shard);

    expect(ensured.sort()).to.deep.equal(['c_busy-0', 'c_lost-1']);
    expect(added).to.equal(1);
    expect(await isWaiting('c_gone')).to.equal(false);
    expect(await isWaiting('c_new')).to.equal(true);
  });
});
