import { expect } from 'chai';
import { createRedisKeys, createRequestRedis, waitForRedis, type Redis } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { createMessageIndex } from '../src/index.js';

describe('message index', () => {
  let redis: Redis;
  before(async () => {
    redis = createRequestRedis(testRedisUrl(), { name: 'conversations-test' });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.quit());

  it('remembers and looks up the conversation of a msg_id, per client', async () => {
    const keys = createRedisKeys(uniquePrefix('msgconv'));
    const index = createMessageIndex({ redis, keys, ttlSeconds: 60 });
    expect(await index.lookup('shop', 'm1')).to.equal(null);
    await index.remember('shop', 'm1', 'c_one');
    expect(await index.lookup('shop', 'm1')).to.equal('c_one');
    expect(await index.lookup('other', 'm1')).to.equal(null);
    expect(await index.lookup('shop', 'm2')).to.equal(null);
    await index.remember('shop', 'm1', 'c_two');
    expect(await index.lookup('shop', 'm1')).to.equal('c_two');
  });

  it('keeps ids with odd characters apart', async () => {
    const keys = createRedisKeys(uniquePrefix('msgconv'));
    const index = createMessageIndex({ redis, keys, ttlSeconds: 60 });
    await index.remember('a:b', 'c', 'c_1');
    expect(await index.lookup('a', 'b:c')).to.equal(null);
    await index.remember('客户', '消息 1', 'c_2');
    expect(await index.lookup('客户', '消息 1')).to.equal('c_2');
  });

  it('expires after ttlSeconds, refreshed when remembered again', async () => {
    const keys = createRedisKeys(uniquePrefix('msgconv'));
    const index = createMessageIndex({ redis, keys, ttlSeconds: 30 });
    await index.remember('shop', 'm1', 'c_one');
    const key = keys.messageConversation('shop', 'm1');
    const ttl = await redis.ttl(key);
    expect(ttl).to.be.within(29, 30);
    await redis.expire(key, 5);
    await index.remember('shop', 'm1', 'c_one');
    expect(await redis.ttl(key)).to.be.within(29, 30);
  });

  it('rejects a non-positive ttl', () => {
    const keys = createRedisKeys(uniquePrefix('msgconv'));
    expect(() => createMessageIndex({ redis, keys, ttlSeconds: 0 })).to.throw(RangeError);
  });
});
