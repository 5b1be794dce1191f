import { loadConfig } from '@dialog-relay/config';
import { createRedisKeys, createRequestRedis, waitForRedis, type Redis } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { createReplyServices, newDeliveryId } from '../src/index.js';

/** The composition root the API, the worker and the CLI share: each service built once, when first read. */
describe('createReplyServices', () => {
  let redis: Redis;
  const subscribers: Redis[] = [];
  const openSubscriber = (): Redis => {
    const subscriber = createRequestRedis(testRedisUrl(), { name: 'reply-services-signals' });
    subscriber.on('error', () => undefined); // as subscriberOpener's: closed by the services, maybe before it was ready
    subscribers.push(subscriber);
    return subscriber;
  };
  // as the API's queue connection: BullMQ defines its scripts on it, so no auto-pipelining (packages/redis)
  before(async () => {
    redis = createRequestRedis(testRedisUrl(), { name: 'reply-services-test' });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.disconnect());
  beforeEach(() => {
    subscribers.length = 0;
  });

  const servicesOf = () => {
    const config = loadConfig({ QUEUE_SHARDS: '2' });
    return createReplyServices(config, { keys: createRedisKeys(uniquePrefix('services'), config.redis.shards), redis, openSubscriber });
  };

  it('builds a store once, and opens neither queues nor a subscriber for a delivery look-up', async () => {
    const services = servicesOf();
    expect(services.deliveries).to.equal(services.deliveries);
    expect(await services.deliveries.get(newDeliveryId(0))).to.equal(undefined);
    expect(subscribers).to.have.length(0);
    await services.close();
    expect(redis.status).to.equal('ready');
  });

  it('opens one subscriber for the aborts and the attempt registry, one queue per shard, and closes them (not the connection it was given)', async () => {
    const services = servicesOf();
    expect(services.autoReplies).to.equal(services.autoReplies);
    expect(services.attempts).to.equal(services.attempts);
    expect(subscribers).to.have.length(1);
    expect(services.queues).to.have.length(2);
    expect(services.jobs).to.equal(services.jobs);
    await services.close();
    await waitUntil(() => subscribers[0]?.status === 'end', 5000);
    expect(redis.status).to.equal('ready');
  });
});
