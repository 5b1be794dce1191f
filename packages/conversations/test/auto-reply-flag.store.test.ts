import { expect } from 'chai';
import { createRedisKeys, createRequestRedis, waitForRedis, type Redis } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { createAutoReplyFlag } from '../src/index.js';

describe('auto-reply flag', () => {
  let redis: Redis;
  before(async () => {
    redis = createRequestRedis(testRedisUrl(), { name: 'conversations-test' });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.quit());

  it('is off until stopped, on until resumed, per conversation', async () => {
    const keys = createRedisKeys(uniquePrefix('stop'));
    const flag = createAutoReplyFlag({ redis, keys });
    expect(await flag.isStopped('c_a')).to.equal(false);
    await flag.stop('c_a');
    expect(await flag.isStopped('c_a')).to.equal(true);
    expect(await flag.isStopped('c_b')).to.equal(false);
    await flag.stop('c_a');
    expect(await flag.isStopped('c_a')).to.equal(true);
    await flag.resume('c_a');
    expect(await flag.isStopped('c_a')).to.equal(false);
    await flag.resume('c_a');
    expect(await flag.isStopped('c_a')).to.equal(false);
  });

  it('has no expiry while stopped', async () => {
    const keys = createRedisKeys(uniquePrefix('stop'));
    const flag = createAutoReplyFlag({ redis, keys });
    await flag.stop('c_a');
    expect(await redis.ttl(keys.autoReplyStopped('c_a'))).to.equal(-1);
    await flag.resume('c_a');
    expect(await redis.exists(keys.autoReplyStopped('c_a'))).to.equal(0);
  });
});
