import { expect } from 'chai';
import { startRedisCluster, testRedisUrl, uniquePrefix, waitUntil } from '@dialog-relay/testkit';
import { createRedis, watchSubscription, type Redis } from '../src/index.js';

/** A subscription that knows when what was published may have been lost (a dropped connection). */
describe('watched subscriptions', () => {
  const opened: Redis[] = [];
  const open = (
    target: { mode: 'single'; url: string } | { mode: 'cluster'; nodes: { host: string; port: number }[] },
    role: 'request' | 'subscriber',
  ): Redis => {
    const redis = createRedis({ target, password: undefined, tls: false }, role, { name: 'watched-subscription-test' });
    redis.on('error', () => undefined);
    opened.push(redis);
    return redis;
  };
  afterEach(() => opened.splice(0).forEach((redis) => redis.disconnect()));

  it('vouches for no stretch before the channel is subscribed, and for the same one while the connection holds', async () => {
    const subscriber = open({ mode: 'single', url: testRedisUrl() }, 'subscriber');
    const watched = watchSubscription(subscriber, uniquePrefix('watched') + 'channel');
    expect(watched.stretch()).to.equal(undefined);

    await watched.ready;

    const stretch = watched.stretch();
    expect(stretch).to.be.a('number');
    expect(watched.stretch()).to.equal(stretch);
  });

  it('starts a new stretch after the connection dropped, once the channel is subscribed again and messages arrive', async () => {
    const channel = uniquePrefix('watched') + 'channel';
    const subscriber = open({ mode: 'single', url: testRedisUrl() }, 'subscriber');
    const publisher = open({ mode: 'single', url: testRedisUrl() }, 'request');
    const received: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => received.push(message));
    const watched = watchSubscription(subscriber, channel);
    await watched.ready;
    const before = watched.stretch();

    subscriber.disconnect(true);
    await waitUntil(() => watched.stretch() !== before, 5000);
    await waitUntil(() => watched.stretch() !== undefined, 5000);

    expect(watched.stretch()).to.not.equal(before);
    // Subscribed indeed: a message published now arrives.
    expect(await publisher.publish(channel, 'after the reconnect')).to.equal(1);
    await waitUntil(() => received.includes('after the reconnect'), 5000);
  });

  it('never vouches for a cluster connection, even subscribed (its pub/sub connection is internal to ioredis)', async function () {
    this.timeout(60_000);
    const cluster = await startRedisCluster(3);
    try {
      const nodes = cluster.nodes.split(',').map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) }));
      const subscriber = open({ mode: 'cluster', nodes }, 'subscriber');
      const watched = watchSubscription(subscriber, uniquePrefix('watched') + 'channel');

      await watched.ready;

      expect(watched.stretch()).to.equal(undefined);
      subscriber.disconnect();
    } finally {
      await cluster.dispose();
    }
  });
});
