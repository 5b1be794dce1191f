import { expect } from 'chai';
import { describeRedisTarget, loadConfig, type Env } from '../src/index.js';
import { refusal } from './support/refusal.js';

const PASSWORD = 'hunter2-Xq9/pw';

/**
 * URL and address variables can carry a password or a key (redis://:password@host, an API root
 * with credentials): a refusal names the variable and the problem, never the value's secret part
 * (docs/service-rules.md §10, §16).
 */
describe('config refusals never quote a secret', () => {
  const cases: [string, string, Env][] = [
    ['REDIS_URL', 'an invalid port', { REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:notaport` }],
    ['REDIS_URL', 'an unclosed IPv6 bracket', { REDIS_URL: `redis://user:${PASSWORD}@[::1` }],
    ['REDIS_URL', 'the wrong scheme', { REDIS_URL: `http://:${PASSWORD}@127.0.0.1:6379` }],
    [
      'OPENAI_BASE_URL',
      'an invalid port',
      { REPLY_ENGINE: 'openai', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `https://user:${PASSWORD}@api.example:bad/v1` },
    ],
    ['EMBEDDINGS_BASE_URL', 'a port over 65535', { EMBEDDINGS_BASE_URL: `http://user:${PASSWORD}@127.0.0.1:99999/v1` }],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'a port over 65535', { OTEL_EXPORTER_OTLP_ENDPOINT: `http://user:${PASSWORD}@127.0.0.1:99999` }],
    ['REDIS_CLUSTER_NODES', 'a redis:// URL as a seed', { REDIS_CLUSTER_NODES: `127.0.0.1:7001,redis://:${PASSWORD}@127.0.0.1:7002` }],
    ['REDIS_SENTINELS', 'a password before the address', { REDIS_SENTINELS: `:${PASSWORD}@127.0.0.1:26379`, REDIS_SENTINEL_NAME: 'relay' }],
  ];
  for (const [variable, problem, env] of cases) {
    it(`refuses a ${variable} with ${problem} naming the variable, without the password it holds`, () => {
      const message = refusal(env);
      expect(message).to.match(new RegExp(`^${variable}: `));
      expect(message).not.to.include('hunter2');
      expect(message).not.to.include('Xq9');
    });
  }

  it('still names what is wrong: the scheme, or the entry that is not host:port', () => {
    expect(refusal({ REDIS_URL: 'http://127.0.0.1:6379' })).to.equal('REDIS_URL: must use redis: or rediss:, got "http:"');
    expect(refusal({ REDIS_URL: 'not a url' })).to.match(/^REDIS_URL: not a valid URL/);
    expect(refusal({ REDIS_CLUSTER_NODES: '127.0.0.1:7001,a b:1' })).to.equal(
      'REDIS_CLUSTER_NODES: expected host:port[,host:port…], got "a b:1"',
    );
    expect(refusal({ REDIS_CLUSTER_NODES: `:${PASSWORD}@127.0.0.1:7001` })).to.match(
      /^REDIS_CLUSTER_NODES: expected host:port\[,host:port…\], got "\*\*\*@127\.0\.0\.1:7001".*REDIS_PASSWORD/,
    );
  });

  it('describes where Redis is without any password of REDIS_URL, one with "@" or one given as a query option', () => {
    const shown = (url: string): string => describeRedisTarget(loadConfig({ REDIS_URL: url }).redis.target);
    expect(shown('redis://:p@ss-hunter2@127.0.0.1:6379/0')).to.equal('redis://***@127.0.0.1:6379/0');
    expect(shown('rediss://user:hunter2@redis.example:6380')).to.equal('rediss://***@redis.example:6380');
    expect(shown('redis://127.0.0.1:6379/2?password=hunter2')).to.equal('redis://127.0.0.1:6379/2?…');
    expect(shown('redis://127.0.0.1:6379')).to.equal('redis://127.0.0.1:6379');
  });
});
