import type { ContextMessage } from '@dialog-relay/contracts';
import { createRedisKeys, createRequestRedis, waitForRedis, type Redis } from '@dialog-relay/redis';
import { commandCalls, startRedisServer, uniquePrefix, type RedisServerHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { createContextStore } from '../src/index.js';

const msg = (id: string): ContextMessage => ({
  msg_id: id,
  role: 'customer',
  from_user_id: 'u1',
  content: [{ type: 'text', content: `text of ${id}` }],
  event_type: 'website_dialog',
  create_timestamp: 1_700_000_000,
});

/**
 * What appending to a context runs inside Redis (docs/design/performance-log.md, twenty-second
 * session): each command a script runs costs Redis about 7,600 instructions with its conversions,
 * more than most commands themselves. A synchronous answer appends two messages (the customer's and
 * the reply): their ids go to the list in one RPUSH. Counted on a private server (INFO commandstats
 * counts the commands scripts run).
 */
describe('commands an append to a context runs inside Redis', () => {
  let server: RedisServerHandle;
  let redis: Redis;
  before(async () => {
    server = await startRedisServer();
    redis = createRequestRedis(server.url, { name: 'context-append-commands' });
    await waitForRedis(redis, 5000);
  });
  after(async () => {
    redis.disconnect();
    await server.stop();
  });

  const scripted = async (): Promise<Record<string, number>> => {
    const all = commandCalls(await redis.info('commandstats'));
    return Object.fromEntries(['hsetnx', 'rpush', 'llen', 'pexpire', 'lrange', 'ltrim', 'hdel'].map((name) => [name, all.get(name) ?? 0]));
  };

  it('pushes the new ids of one append in one RPUSH, in order, and reads the length only when none was new', async () => {
    const store = createContextStore({ redis, keys: createRedisKeys(uniquePrefix('append')), maxMessages: 50, ttlSeconds: 600 });
    await store.record('c_warm', [msg('w')]);

    await redis.config('RESETSTAT');
    expect(await store.record('c_1', [msg('a'), msg('b')])).to.equal(2);
    expect(await scripted()).to.deep.equal({ hsetnx: 2, rpush: 1, llen: 0, pexpire: 2, lrange: 0, ltrim: 0, hdel: 0 });

    // one of the two known already: only the other is pushed
    await redis.config('RESETSTAT');
    expect(await store.record('c_1', [msg('b'), msg('c')])).to.equal(1);
    expect(await scripted()).to.deep.include({ hsetnx: 2, rpush: 1, llen: 0 });

    // nothing new: no push, the length read for the cap
    await redis.config('RESETSTAT');
    expect(await store.record('c_1', [msg('a'), msg('c')])).to.equal(0);
    expect(await scripted()).to.deep.include({ hsetnx: 2, rpush: 0, llen: 1 });

    expect((await store.read('c_1')).map((m) => m.msg_id)).to.deep.equal(['a', 'b', 'c']);
  });

  it('keeps the cap when an append of several passes it', async () => {
    const store = createContextStore({ redis, keys: createRedisKeys(uniquePrefix('append-cap')), maxMessages: 3, ttlSeconds: 600 });
    await store.record('c_cap', [msg('a'), msg('b')]);
    expect(await store.record('c_cap', [msg('c'), msg('d'), msg('b'), msg('e')])).to.equal(3);
    expect((await store.read('c_cap')).map((m) => m.msg_id)).to.deep.equal(['c', 'd', 'e']);
  });
});
