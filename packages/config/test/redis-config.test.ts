import { expect } from 'chai';
import { ConfigError, describeRedisTarget, loadConfig } from '../src/index.js';

describe('Redis configuration (docs/design/scaling.md)', () => {
  it('reads a cluster from REDIS_CLUSTER_NODES, IPv6 seeds included, and waits for no replica by default', () => {
    const { redis } = loadConfig({ REDIS_CLUSTER_NODES: ' 127.0.0.1:7001, [::1]:7002,redis-b:7003 ' });
    expect(redis.target).to.deep.equal({
      mode: 'cluster',
      nodes: [
        { host: '127.0.0.1', port: 7001 },
        { host: '::1', port: 7002 },
        { host: 'redis-b', port: 7003 },
      ],
    });
    expect(redis.waitReplicas).to.equal(0);
    expect(describeRedisTarget(redis.target)).to.equal('cluster 127.0.0.1:7001,::1:7002,redis-b:7003');
  });

  for (const bad of ['127.0.0.1', '127.0.0.1:0', '127.0.0.1:70000', 'a b:1', ',']) {
    it(`refuses REDIS_CLUSTER_NODES="${bad}", naming it`, () => {
      expect(() => loadConfig({ REDIS_CLUSTER_NODES: bad })).to.throw(ConfigError, /^REDIS_CLUSTER_NODES:/);
    });
  }

  it('reads Sentinel from REDIS_SENTINELS and REDIS_SENTINEL_NAME, and waits for one replica by default', () => {
    const { redis } = loadConfig({ REDIS_SENTINELS: '127.0.0.1:26379,127.0.0.1:26380', REDIS_SENTINEL_NAME: 'relay' });
    expect(redis.target).to.deep.equal({
      mode: 'sentinel',
      name: 'relay',
      sentinels: [
        { host: '127.0.0.1', port: 26379 },
        { host: '127.0.0.1', port: 26380 },
      ],
    });
    expect(redis.waitReplicas).to.equal(1);
    expect(redis.waitTimeoutMs).to.equal(500);
    expect(
      loadConfig({ REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'relay', REDIS_WAIT_REPLICAS: '0' }).redis.waitReplicas,
    ).to.equal(0);
  });

  it('refuses REDIS_SENTINELS without REDIS_SENTINEL_NAME, naming the missing variable', () => {
    expect(() => loadConfig({ REDIS_SENTINELS: '127.0.0.1:26379' })).to.throw(
      ConfigError,
      /^REDIS_SENTINEL_NAME: required with REDIS_SENTINELS/,
    );
  });

  it('refuses two Redis modes at once, naming both', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7001' })).to.throw(
      ConfigError,
      /REDIS_URL and REDIS_CLUSTER_NODES are both set/,
    );
    expect(() =>
      loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001', REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'relay' }),
    ).to.throw(ConfigError, /REDIS_CLUSTER_NODES and REDIS_SENTINELS are both set/);
    expect(() =>
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7001', REDIS_SENTINELS: '127.0.0.1:26379' }),
    ).to.throw(ConfigError, /REDIS_URL, REDIS_CLUSTER_NODES and REDIS_SENTINELS are all set/);
  });

  it('reads REDIS_PASSWORD and REDIS_TLS for any mode', () => {
    for (const mode of [
      { REDIS_URL: 'redis://127.0.0.1:6379' },
      { REDIS_CLUSTER_NODES: '127.0.0.1:7001' },
      { REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'relay' },
    ]) {
      const { redis } = loadConfig({ ...mode, REDIS_PASSWORD: 's3cret-pw', REDIS_TLS: 'true' });
      expect(redis.password).to.equal('s3cret-pw');
      expect(redis.tls).to.equal(true);
    }
    expect(() => loadConfig({ REDIS_TLS: 'sometimes' })).to.throw(ConfigError, /^REDIS_TLS:/);
  });

  it('never shows the password of a REDIS_URL in messages', () => {
    expect(describeRedisTarget(loadConfig({ REDIS_URL: 'redis://:hunter2@127.0.0.1:6379/0' }).redis.target)).to.equal(
      'redis://***@127.0.0.1:6379/0',
    );
  });

  it('refuses REDIS_WAIT_REPLICAS on a cluster (WAIT there would not cover writes on other masters), naming it', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001', REDIS_WAIT_REPLICAS: '1' })).to.throw(
      ConfigError,
      /^REDIS_WAIT_REPLICAS: .*cluster/,
    );
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001', REDIS_WAIT_REPLICAS: '0' }).redis.waitReplicas).to.equal(0);
  });

  it('reads QUEUE_SHARDS within 1-1024', () => {
    expect(loadConfig({ QUEUE_SHARDS: '8' }).redis.shards).to.equal(8);
    for (const bad of ['0', '1025', 'many']) expect(() => loadConfig({ QUEUE_SHARDS: bad })).to.throw(ConfigError, /^QUEUE_SHARDS:/);
  });
});
