import { expect } from 'chai';
import { ConfigError, loadConfig, parseClientRecord, toClientRecord } from '../src/index.js';

const S1 = 'shop-secret-0001';
const SA = 'widget-secret-0a';
const SB = 'widget-secret-0b';

describe('config', () => {
  it('uses the documented defaults when the environment is empty', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(8080);
    expect(config.redis).to.deep.equal({
      target: { mode: 'single', url: 'redis://127.0.0.1:6379' },
      password: undefined,
      tls: false,
      shards: 16,
      waitReplicas: 0,
      waitTimeoutMs: 500,
    });
    expect(config.timestampToleranceS).to.equal(300);
    expect(config.autoReplyDebounceMs).to.equal(1000);
    expect(config.replyMaxAgeMs).to.equal(900_000);
    expect(config.delivery).to.deep.equal({ maxAttempts: 8, backoffMs: 1000, maxBackoffMs: 300_000, timeoutMs: 10_000 });
    expect(config.workerLockMs).to.equal(30_000);
    expect(config.workerMaxStalledCount).to.equal(10);
    expect(config.limits).to.deep.equal({ bodyBytes: 5 * 1024 * 1024, contentMaxChars: 10_000, filesMax: 10, atListMax: 100 });
    expect(config.allowPrivateSendUrls).to.equal(false);
    expect(config.replyEngine).to.deep.equal({ kind: 'knowledge', knowledgeFile: undefined });
  });

  it('serves worker metrics only when METRICS_PORT is set', () => {
    expect(loadConfig({}).metricsPort).to.equal(undefined);
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).to.equal(9464);
    expect(loadConfig({ METRICS_PORT: '0' }).metricsPort).to.equal(0);
  });

  it("grows the V8 heap by HEAP_GROWING_PERCENT for both processes when set; by default the API by V8's own factor (0), the worker by 50", () => {
    expect(loadConfig({}).heapGrowingPercent).to.deep.equal({ api: 0, worker: 50 });
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).to.deep.equal({ api: 0, worker: 0 });
    expect(loadConfig({ HEAP_GROWING_PERCENT: '300' }).heapGrowingPercent).to.deep.equal({ api: 300, worker: 300 });
  });

  it('is frozen', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).to.equal(true);
    expect(Object.isFrozen(config.limits)).to.equal(true);
  });

  for (const [variable, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['REDIS_URL', 'http://x'],
    ['ALLOW_PRIVATE_SEND_URLS', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['REPLY_ENGINE', 'magic'],
    ['CLIENTS', '{not json'],
    ['CLIENTS', '[]'],
    ['CLIENTS', '{"a":{"signature_scheme":"md5"}}'],
    ['CLIENTS', '{"a":{"secret":"s","signature_scheme":"sha1"}}'],
    ['REDIS_PREFIX', 'has space'],
    ['DELIVERY_TIMEOUT_MS', '5'],
    ['METRICS_PORT', 'ninety'],
    ['METRICS_PORT', '65536'],
    ['HEAP_GROWING_PERCENT', '-1'],
    ['HEAP_GROWING_PERCENT', '1001'],
  ] as const) {
    it(`stops start-up naming ${variable} when it is ${value}`, () => {
      expect(() => loadConfig({ [variable]: value })).to.throw(ConfigError, new RegExp(`^${variable}:`));
    });
  }

  it('reads the reply protocol settings and derives its timings once', () => {
    const defaults = loadConfig({});
    expect(defaults).to.deep.include({ autoReplyMaxWaitMs: 5000, humanPauseMs: 0, jobFailureAttempts: 5 });
    expect(defaults.replies).to.deep.equal({
      pendingTtlMs: 900_000 + 5000 + 3_600_000,
      attemptMarkerTtlMs: 15_000,
      abortWaitMs: 800,
      rescueAfterMs: 15_000,
      sweepIntervalMs: 5000,
    });
    const set = loadConfig({
      AUTO_REPLY_DEBOUNCE_MS: '2000',
      AUTO_REPLY_MAX_WAIT_MS: '8000',
      HUMAN_PAUSE_S: '30',
      JOB_FAILURE_ATTEMPTS: '2',
      DELIVERY_TIMEOUT_MS: '3000',
    });
    expect(set).to.deep.include({ autoReplyMaxWaitMs: 8000, humanPauseMs: 30_000, jobFailureAttempts: 2 });
    expect(set.replies).to.deep.include({ attemptMarkerTtlMs: 8000, rescueAfterMs: 24_000, sweepIntervalMs: 5000 });
    // A short debounce ceiling: lost turns are looked for after 3 s, every second.
    expect(loadConfig({ AUTO_REPLY_DEBOUNCE_MS: '0', AUTO_REPLY_MAX_WAIT_MS: '300' }).replies).to.deep.include({
      rescueAfterMs: 3000,
      sweepIntervalMs: 1000,
    });
    expect(loadConfig({ AUTO_REPLY_DEBOUNCE_MS: '9000' }).autoReplyMaxWaitMs).to.equal(9000);
  });

  it("keeps a replay key for the whole timestamp window, and a msg_id's answer at least as long", () => {
    expect(loadConfig({}).admission).to.deep.equal({ replayTtlMs: 601_000, idempotencyTtlMs: 86_400_000 });
    expect(loadConfig({ TIMESTAMP_TOLERANCE_S: '3600', IDEMPOTENCY_TTL_S: '60' }).admission).to.deep.equal({
      replayTtlMs: 7_201_000,
      idempotencyTtlMs: 7_201_000,
    });
  });

  it('refuses a debounce ceiling below the debounce window, naming AUTO_REPLY_MAX_WAIT_MS', () => {
    expect(() => loadConfig({ AUTO_REPLY_DEBOUNCE_MS: '3000', AUTO_REPLY_MAX_WAIT_MS: '2000' })).to.throw(
      ConfigError,
      /^AUTO_REPLY_MAX_WAIT_MS: must be at least AUTO_REPLY_DEBOUNCE_MS/,
    );
  });

  it('keeps dead letters 30 days by default, never shorter than CONTEXT_TTL_S, and refuses a retention a reply could outlive', () => {
    expect(loadConfig({}).deadLetterTtlS).to.equal(2_592_000);
    expect(loadConfig({ DEAD_LETTER_TTL_S: '1209600' }).deadLetterTtlS).to.equal(1_209_600);
    expect(loadConfig({ CONTEXT_TTL_S: '5184000' }).deadLetterTtlS).to.equal(5_184_000);
    expect(() => loadConfig({ CONTEXT_TTL_S: '86400', DEAD_LETTER_TTL_S: '3600' })).to.throw(
      ConfigError,
      /^DEAD_LETTER_TTL_S: must be at least CONTEXT_TTL_S \(86400\)/,
    );
    // REPLY_MAX_AGE_MS 2 h + AUTO_REPLY_MAX_WAIT_MS 5 s + 1 h: a replayed letter must outlive its redelivery.
    expect(() => loadConfig({ CONTEXT_TTL_S: '60', REPLY_MAX_AGE_MS: '7200000', DEAD_LETTER_TTL_S: '7200' })).to.throw(
      ConfigError,
      /^DEAD_LETTER_TTL_S: .*\(10805\)/,
    );
    expect(loadConfig({ CONTEXT_TTL_S: '60', REPLY_MAX_AGE_MS: '7200000', DEAD_LETTER_TTL_S: '10805' }).deadLetterTtlS).to.equal(10_805);
  });

  it('refuses a worker lock that is not longer than a delivery attempt', () => {
    expect(() => loadConfig({ DELIVERY_TIMEOUT_MS: '5000', WORKER_LOCK_MS: '5500' })).to.throw(ConfigError, /^WORKER_LOCK_MS:/);
    expect(loadConfig({ DELIVERY_TIMEOUT_MS: '20000' }).workerLockMs).to.equal(45_000);
  });

  it('reads the optional embeddings endpoint of the knowledge engine', () => {
    const config = loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1', EMBEDDINGS_API_KEY: 'e' });
    expect(config.replyEngine).to.deep.equal({
      kind: 'knowledge',
      knowledgeFile: undefined,
      embeddings: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'e', model: 'text-embedding-3-small', timeoutMs: 2000 },
    });
    expect(() => loadConfig({ EMBEDDINGS_BASE_URL: 'ftp://x' })).to.throw(ConfigError, /^EMBEDDINGS_BASE_URL:/);
  });

  it('requires OPENAI_API_KEY with the openai engine', () => {
    expect(() => loadConfig({ REPLY_ENGINE: 'openai' })).to.throw(ConfigError, /^OPENAI_API_KEY:/);
    const config = loadConfig({ REPLY_ENGINE: 'openai', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(config.replyEngine).to.include({ kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' });
  });

  it('parses CLIENTS with one secret or several, and applies defaults', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_S: '7',
      CLIENTS: JSON.stringify({
        shop: { secret: S1 },
        widget: { secrets: [SA, SB], signature_scheme: 'md5', group_policy: 'always', rate_limit_per_s: 3 },
      }),
    });
    expect(config.clients.get('shop')).to.deep.include({
      secrets: [S1],
      signatureScheme: 'hmac-sha256',
      groupPolicy: 'mention',
      rateLimitPerS: 7,
    });
    expect(config.clients.get('widget')).to.deep.include({
      secrets: [SA, SB],
      signatureScheme: 'md5',
      groupPolicy: 'always',
      rateLimitPerS: 3,
      allowCommands: false,
      allowPrivateSendUrls: false,
    });
  });

  it('refuses CLIENTS with a secret shorter than 16 characters, naming the client', () => {
    expect(() => loadConfig({ CLIENTS: JSON.stringify({ shop: { secret: 'fifteen-chars-x' } }) })).to.throw(
      ConfigError,
      /^CLIENTS: client "shop".*16 characters/,
    );
    expect(() => loadConfig({ CLIENTS: JSON.stringify({ shop: { secrets: [S1, 'short'] } }) })).to.throw(
      ConfigError,
      /^CLIENTS: client "shop".*16 characters/,
    );
    expect(loadConfig({ CLIENTS: JSON.stringify({ shop: { secret: 'sixteen-chars-xx' } }) }).clients.get('shop')?.secrets).to.deep.equal([
      'sixteen-chars-xx',
    ]);
  });

  it('refuses CLIENTS that is not JSON without quoting any of it (a secret typed without quotes stays out of the message)', () => {
    const secret = 'qzxw-9876-vbnm-5432-jk';
    for (const text of [`{"shop":{"secret":${secret}}}`, `{"shop":{"secret":'${secret}'}}`, `{"shop":{"secret":"${secret}"`]) {
      let message = '';
      try {
        loadConfig({ CLIENTS: text });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, text).to.match(/^CLIENTS: not valid JSON/);
      for (let i = 0; i + 4 <= secret.length; i++) expect(message, text).not.to.include(secret.slice(i, i + 4));
    }
  });

  it('refuses an ADMIN_TOKEN or ADMIN_WRITE_TOKEN shorter than 16 characters, naming the variable', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'admin' })).to.throw(ConfigError, /^ADMIN_TOKEN:.*16 characters/);
    expect(() => loadConfig({ ADMIN_WRITE_TOKEN: 'fifteen-chars-x' })).to.throw(ConfigError, /^ADMIN_WRITE_TOKEN:.*16 characters/);
    expect(loadConfig({ ADMIN_TOKEN: 'sixteen-chars-xx', ADMIN_WRITE_TOKEN: 'sixteen-chars-yy' })).to.deep.include({
      adminToken: 'sixteen-chars-xx',
    });
  });

  it('reads the per-client switches allow_commands and allow_private_send_urls', () => {
    const config = loadConfig({
      CLIENTS: JSON.stringify({ w: { secret: S1, signature_scheme: 'md5', allow_commands: true, allow_private_send_urls: true } }),
    });
    expect(config.clients.get('w')).to.deep.include({ allowCommands: true, allowPrivateSendUrls: true });
  });

  it('reads the HTTP time-outs, the failed-auth throttle and ADMIN_WRITE_TOKEN', () => {
    expect(loadConfig({}).ingress).to.deep.equal({
      http: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, idleTimeoutMs: 15_000 },
      authFailures: { perClient: 30, perAddress: 60, windowS: 60 },
      adminWriteToken: undefined,
      trustProxy: undefined,
    });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' })).to.throw(
      ConfigError,
      /^HTTP_REQUEST_TIMEOUT_MS:/,
    );
    expect(() => loadConfig({ ADMIN_TOKEN: 'the-same-token-01', ADMIN_WRITE_TOKEN: 'the-same-token-01' })).to.throw(
      ConfigError,
      /^ADMIN_WRITE_TOKEN:/,
    );
  });

  it("reads a client's own knowledge_file, undefined when it names none", () => {
    const config = loadConfig({
      CLIENTS: JSON.stringify({ shop: { secret: S1, knowledge_file: 'faq/shop.yaml' }, other: { secret: SA } }),
    });
    expect(config.clients.get('shop')?.knowledgeFile).to.equal('faq/shop.yaml');
    expect(config.clients.get('other')?.knowledgeFile).to.equal(undefined);
    expect(() => loadConfig({ CLIENTS: JSON.stringify({ shop: { secret: S1, knowledge_file: '' } }) })).to.throw(/CLIENTS.*knowledge_file/);
  });

  it('round-trips a client through its stored record form', () => {
    const settings = parseClientRecord(
      'c1',
      { secrets: ['x'], webhook_secret: 'whsec_abc', default_send_url: 'https://h/x', knowledge_file: 'faq.yaml' },
      50,
    );
    expect(parseClientRecord('c1', toClientRecord(settings), 1)).to.deep.equal(settings);
  });

  it('refuses client ids with characters outside the safe set', () => {
    expect(() => parseClientRecord('bad id', { secret: 's' }, 50)).to.throw(/client id/);
  });
});
