import { expect } from 'chai';
import { ConfigError, loadConfig, parseClientRecord, toClientRecord } from '../src/index.js';

describe('config', () => {
  it('uses the contract defaults when the environment is empty', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(8080);
    expect(config.redisUrl).to.equal('redis://127.0.0.1:6379');
    expect(config.timestampToleranceS).to.equal(300);
    expect(config.autoReplyDebounceMs).to.equal(1000);
    expect(config.replyMaxAgeMs).to.equal(900_000);
    expect(config.delivery).to.deep.equal({ maxAttempts: 8, backoffMs: 1000, maxBackoffMs: 300_000, timeoutMs: 10_000 });
    expect(config.workerLockMs).to.equal(30_000);
    expect(config.limits).to.deep.equal({ bodyBytes: 5 * 1024 * 1024, contentMaxChars: 10_000, filesMax: 10, atListMax: 100 });
    expect(config.allowPrivateSendUrls).to.equal(false);
    expect(config.replyEngine).to.deep.equal({ kind: 'knowledge', knowledgeFile: undefined });
  });

  it('is frozen', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).to.equal(true);
    expect(Object.isFrozen(config.limits)).to.equal(true);
  });

  for (const [variable, value] of [
    ['PORT', 'eighty'], ['PORT', '70000'], ['REDIS_URL', 'http://x'], ['ALLOW_PRIVATE_SEND_URLS', 'maybe'],
    ['LOG_LEVEL', 'loud'], ['REPLY_ENGINE', 'magic'], ['CLIENTS', '{not json'], ['CLIENTS', '[]'],
    ['CLIENTS', '{"a":{"signature_scheme":"md5"}}'], ['CLIENTS', '{"a":{"secret":"s","signature_scheme":"sha1"}}'],
    ['REDIS_PREFIX', 'has space'], ['DELIVERY_TIMEOUT_MS', '5'],
  ] as const) {
    it(`stops start-up naming ${variable} when it is ${value}`, () => {
      expect(() => loadConfig({ [variable]: value })).to.throw(ConfigError, new RegExp(`^${variable}:`));
    });
  }

  it('refuses a worker lock that is not longer than a delivery attempt', () => {
    expect(() => loadConfig({ DELIVERY_TIMEOUT_MS: '5000', WORKER_LOCK_MS: '5500' })).to.throw(ConfigError, /^WORKER_LOCK_MS:/);
    expect(loadConfig({ DELIVERY_TIMEOUT_MS: '20000' }).workerLockMs).to.equal(45_000);
  });

  it('requires OPENAI_API_KEY with the openai engine', () => {
    expect(() => loadConfig({ REPLY_ENGINE: 'openai' })).to.throw(ConfigError, /^OPENAI_API_KEY:/);
    const config = loadConfig({ REPLY_ENGINE: 'openai', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(config.replyEngine).to.include({ kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' });
  });

  it('parses CLIENTS with one secret or several, and applies defaults', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_S: '7',
      CLIENTS: JSON.stringify({ shop: { secret: 's1' }, widget: { secrets: ['a', 'b'], signature_scheme: 'md5', group_policy: 'always', rate_limit_per_s: 3 } }),
    });
    expect(config.clients.get('shop')).to.deep.include({ secrets: ['s1'], signatureScheme: 'hmac-sha256', groupPolicy: 'mention', rateLimitPerS: 7 });
    expect(config.clients.get('widget')).to.deep.include({ secrets: ['a', 'b'], signatureScheme: 'md5', groupPolicy: 'always', rateLimitPerS: 3 });
  });

  it('round-trips a client through its stored record form', () => {
    const settings = parseClientRecord('c1', { secrets: ['x'], webhook_secret: 'whsec_abc', default_send_url: 'https://h/x' }, 50);
    expect(parseClientRecord('c1', toClientRecord(settings), 1)).to.deep.equal(settings);
  });

  it('refuses client ids with characters outside the safe set', () => {
    expect(() => parseClientRecord('bad id', { secret: 's' }, 50)).to.throw(/client id/);
  });
});
