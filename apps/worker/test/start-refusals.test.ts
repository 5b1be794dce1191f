import { createRedisKeys } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = new URL('../src/main.js', import.meta.url).pathname;

/** Starts a worker process with `env` added to this one's and waits (20 s at most) for it to exit. */
const startWorker = (env: Record<string, string>) =>
  spawnSync(process.execPath, [MAIN], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });

/** A worker process refuses configurations that would strand or misplace data, with exit code 78. */
describe('worker start-up refusals', function () {
  this.timeout(30_000);

  it('refuses two Redis modes at once, naming both (exit 78)', () => {
    const result = startWorker({ REDIS_URL: testRedisUrl(), REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'relay' });
    expect(result.status).to.equal(78);
    expect(result.stderr).to.include('REDIS_URL and REDIS_SENTINELS are both set');
  });

  it('refuses 16 shards against a Redis that recorded 8 (exit 78, naming QUEUE_SHARDS)', async () => {
    const prefix = uniquePrefix('wshards');
    const redis = new Redis(testRedisUrl());
    await redis.set(createRedisKeys(prefix, 8).shardCount, '8');
    redis.disconnect();
    const result = startWorker({ REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, QUEUE_SHARDS: '16' });
    expect(result.status, result.stderr).to.equal(78);
    expect(result.stderr).to.match(/QUEUE_SHARDS is 16 but the data in Redis was written with 8 shards/);
  });

  describe('a bad KNOWLEDGE_FILE', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'worker-knowledge-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const start = (knowledgeFile: string) =>
      startWorker({ REDIS_URL: testRedisUrl(), REDIS_PREFIX: uniquePrefix('wknow'), KNOWLEDGE_FILE: knowledgeFile });

    it('refuses a knowledge file that does not exist with one line naming KNOWLEDGE_FILE (exit 78, no stack trace)', () => {
      const missing = join(dir, 'absent.yaml');
      const result = start(missing);
      expect(result.status, result.stderr).to.equal(78);
      expect(
        result.stderr.startsWith(`dialog-relay worker: bad configuration: KNOWLEDGE_FILE: ${missing}: cannot read: `),
        result.stderr,
      ).to.equal(true);
      expect(result.stderr).to.include('ENOENT');
      expect(result.stderr.trim().split('\n')).to.have.length(1);
    });

    it('refuses a knowledge file with no entries, naming the file and the problem (exit 78)', () => {
      const empty = join(dir, 'empty.yaml');
      writeFileSync(empty, 'fallback: x\nentries: []\n');
      const result = start(empty);
      expect(result.status, result.stderr).to.equal(78);
      expect(result.stderr).to.equal(`dialog-relay worker: bad configuration: KNOWLEDGE_FILE: ${empty}: entries must not be empty\n`);
    });
  });

  it('refuses CLIENTS with a webhook_secret that has no key, naming CLIENTS and the client (exit 78)', () => {
    const result = startWorker({
      REDIS_URL: testRedisUrl(),
      CLIENTS: JSON.stringify({ shop: { secret: 'shop-secret-0001', webhook_secret: 'whsec_' } }),
    });
    expect(result.status, result.stderr).to.equal(78);
    expect(result.stderr).to.equal(
      'dialog-relay worker: bad configuration: CLIENTS: client "shop": webhook_secret has no key after "whsec_"; use "whsec_" followed by the base64 of 24 to 64 random bytes (e.g. whsec_$(openssl rand -base64 32))\n',
    );
  });
});
