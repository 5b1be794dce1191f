import { expect } from 'chai';
import { readRedisConfig } from '@dialog-relay/config';
import { Cluster, type Redis as SingleRedis } from 'ioredis';
import { freePort } from '@dialog-relay/testkit';
import { createRedis, type ConnectionRole, type Redis } from '../src/index.js';

/**
 * The options the one factory hands to ioredis, per mode: REDIS_PASSWORD and REDIS_TLS must reach
 * every connection a mode opens (no server needed: each client points at a closed loopback port and
 * is disconnected at once).
 */
describe('redis client options', () => {
  const opened: Redis[] = [];
  const open = (env: Record<string, string>, role: ConnectionRole = 'request'): Redis => {
    const redis = createRedis(readRedisConfig(env), role, { name: 'options-test' });
    redis.on('error', () => undefined);
    opened.push(redis);
    return redis;
  };
  afterEach(() => opened.splice(0).forEach((redis) => redis.disconnect()));
  let closed: string;
  before(async () => {
    closed = `127.0.0.1:${await freePort()}`;
  });
  const secure = { REDIS_PASSWORD: 'pw-0001', REDIS_TLS: 'true' };

  it('gives a single server the password and TLS', () => {
    const redis = open({ REDIS_URL: `redis://${closed}`, ...secure }) as SingleRedis;
    expect(redis.options.password).to.equal('pw-0001');
    expect(redis.options.tls).to.deep.equal({});
  });

  it('leaves TLS off and sends no password when neither is set', () => {
    const redis = open({ REDIS_URL: `redis://${closed}` }) as SingleRedis;
    expect(redis.options.password ?? undefined).to.equal(undefined);
    expect(redis.options.tls).to.equal(undefined);
  });

  it('behind Sentinel, speaks TLS and the password to the sentinels and to the master they name', () => {
    const redis = open({ REDIS_SENTINELS: closed, REDIS_SENTINEL_NAME: 'group-a', ...secure }) as SingleRedis;
    const options = redis.options;
    expect(options.name).to.equal('group-a');
    expect(options.password).to.equal('pw-0001');
    expect(options.sentinelPassword).to.equal('pw-0001');
    expect(options.tls).to.deep.equal({});
    // ioredis connects to the master in plain text unless told, and to the sentinels with sentinelTLS.
    expect(options.enableTLSForSentinelMode).to.equal(true);
    expect(options.sentinelTLS).to.deep.equal({});
  });

  it('behind Sentinel without REDIS_TLS, speaks plain text to both', () => {
    const options = (open({ REDIS_SENTINELS: closed, REDIS_SENTINEL_NAME: 'group-a' }) as SingleRedis).options;
    expect(options.tls).to.equal(undefined);
    expect(options.enableTLSForSentinelMode).to.not.equal(true);
    expect(options.sentinelTLS).to.equal(undefined);
  });

  it('opens the cluster connection BullMQ takes without the ready check, whose failure leaves connect() unsettled', () => {
    const readyCheckOf = (role: ConnectionRole, commands?: boolean): boolean | undefined => {
      const cluster = createRedis(readRedisConfig({ REDIS_CLUSTER_NODES: closed }), role, {
        name: 'options-test',
        ...(commands ? { commands } : {}),
      }) as Cluster;
      cluster.on('error', () => undefined);
      opened.push(cluster);
      return cluster.options.enableReadyCheck;
    };
    expect(readyCheckOf('worker'), "BullMQ's connection").to.equal(false);
    expect(readyCheckOf('request'), "the API's").to.equal(false);
    expect(readyCheckOf('worker', true), "the worker's commands").to.equal(true);
    expect(readyCheckOf('subscriber'), 'pub/sub').to.equal(true);
  });

  it('gives every node of a cluster the password and TLS, for each role', () => {
    for (const role of ['request', 'worker', 'subscriber'] as const) {
      const cluster = open({ REDIS_CLUSTER_NODES: closed, ...secure }, role);
      expect(cluster).to.be.instanceOf(Cluster);
      const nodeOptions = (cluster as Cluster).options.redisOptions;
      expect(nodeOptions?.password, role).to.equal('pw-0001');
      expect(nodeOptions?.tls, role).to.deep.equal({});
    }
  });
});
