import { expect } from 'chai';
import { parseClientRecord } from '@dialog-relay/config';
import { createRedisKeys } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { Redis } from 'ioredis';
import { createClientRegistry, createClientStore } from '../src/index.js';

describe('client store and registry', () => {
  let redis: Redis;
  before(() => {
    redis = new Redis(testRedisUrl());
  });
  after(() => redis.quit());

  const settings = (id: string, secret: string) => parseClientRecord(id, { secret, webhook_secret: 'whsec_x' }, 50);

  it('stores, lists and removes clients under the prefix', async () => {
    const keys = createRedisKeys(uniquePrefix('clients'));
    const store = createClientStore({ redis, keys, defaultRateLimitPerS: 50 });
    await store.put(settings('b', 's2'));
    await store.put(settings('a', 's1'));
    expect((await store.list()).map((c) => c.id)).to.deep.equal(['a', 'b']);
    expect(await store.get('a')).to.deep.equal(settings('a', 's1'));
    expect(await store.remove('a')).to.equal(true);
    expect(await store.get('a')).to.equal(undefined);
    expect(await redis.hkeys(keys.clients)).to.deep.equal(['b']);
  });

  it('prefers a client from the environment over the store', async () => {
    const keys = createRedisKeys(uniquePrefix('clients'));
    const store = createClientStore({ redis, keys, defaultRateLimitPerS: 50 });
    await store.put(settings('shop', 'from-redis'));
    const registry = createClientRegistry({ fromEnv: new Map([['shop', settings('shop', 'from-env')]]), store, cacheMs: 0 });
    expect((await registry.get('shop'))?.secrets).to.deep.equal(['from-env']);
  });

  it('caches store lookups for cacheMs, including misses, then sees changes', async () => {
    const keys = createRedisKeys(uniquePrefix('clients'));
    const store = createClientStore({ redis, keys, defaultRateLimitPerS: 50 });
    let clock = 1000;
    const registry = createClientRegistry({ fromEnv: new Map(), store, cacheMs: 5000, now: () => clock });
    expect(await registry.get('new')).to.equal(undefined);
    await store.put(settings('new', 'k'));
    expect(await registry.get('new')).to.equal(undefined);
    clock += 5001;
    expect((await registry.get('new'))?.secrets).to.deep.equal(['k']);
  });
});
