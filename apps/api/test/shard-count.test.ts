import { loadConfig } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import { createRedisKeys } from '@dialog-relay/redis';
import { freePort, startRedisServer, testRedisUrl, uniquePrefix, waitUntil, type RedisServerHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { spawn, spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { buildApi } from '../src/build-api.js';
import { createApiServer } from '../src/http/api-server.js';
import { bodyFor, CLIENTS, post, sign } from './support/test-api.js';

const MAIN = new URL('../src/main.js', import.meta.url).pathname;

/** docs/design/scaling.md "Changing QUEUE_SHARDS": the count recorded in Redis is checked before any conversation key is touched. */
describe('QUEUE_SHARDS recorded in Redis (API)', function () {
  this.timeout(45_000);

  it('refuses to start with 16 shards against a Redis that recorded 8 (exit 78, naming QUEUE_SHARDS)', async () => {
    const prefix = uniquePrefix('shards');
    const redis = new Redis(testRedisUrl());
    await redis.set(createRedisKeys(prefix, 8).shardCount, '8');
    redis.disconnect();
    const result = spawnSync(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: prefix,
        QUEUE_SHARDS: '16',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status, result.stderr).to.equal(78);
    expect(result.stderr).to.match(/QUEUE_SHARDS is 16 but the data in Redis was written with 8 shards/);
  });

  it('started while Redis was away, checks the count once Redis is reachable and exits 78 on a mismatch', async () => {
    // A server that keeps its data across a restart (AOF), so the recorded count is there before the API can reach it.
    const server: RedisServerHandle = await startRedisServer({ args: ['--appendonly', 'yes'] });
    try {
      const prefix = uniquePrefix('shards');
      const seed = new Redis(server.url);
      await seed.set(createRedisKeys(prefix, 8).shardCount, '8');
      seed.disconnect();
      await server.stop();
      // PORT 0: the process picks its own port and logs it, so no other process can take it in between.
      const child = spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          REDIS_URL: server.url,
          REDIS_PREFIX: prefix,
          QUEUE_SHARDS: '16',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const listeningPort = (): number | undefined => {
        // complete lines only: a chunk may end inside one
        const line = stdout
          .split('\n')
          .slice(0, -1)
          .find((l) => l.includes('"api listening"'));
        return line ? (JSON.parse(line) as { port: number }).port : undefined;
      };
      try {
        // Listening (health answers) while Redis is away: the check could not run yet.
        await waitUntil(async () => {
          if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode} before listening: ${stderr}${stdout}`);
          const port = listeningPort();
          if (port === undefined) return false;
          return (
            (await fetch(`http://127.0.0.1:${port}/healthz`).then(
              (r) => r.status,
              () => 0,
            )) === 200
          );
        }, 30_000).catch((error: Error) => {
          throw new Error(`${error.message}; the API printed: ${stderr}${stdout.slice(-3000)}`);
        });
        await server.start();
        expect(await exited).to.equal(78);
        expect(stderr).to.match(/QUEUE_SHARDS is 16 but the data in Redis was written with 8 shards/);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    } finally {
      await server.dispose();
    }
  });

  it('answers 503 to every chat request, queueing nothing, until the count is checked and found right', async () => {
    const prefix = uniquePrefix('shards');
    const seed = new Redis(testRedisUrl());
    await seed.set(createRedisKeys(prefix, 8).shardCount, '8');
    const config = loadConfig({
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      QUEUE_SHARDS: '16',
      CLIENTS: JSON.stringify(CLIENTS),
      ALLOW_PRIVATE_SEND_URLS: 'true',
      LOG_LEVEL: 'error',
    });
    // Built without ready(): as when Redis was away at start; no exit handler (the process would exit 78).
    const api = await buildApi(config, createLogger({ level: 'error', service: 'api-test', silent: true }));
    const server = createApiServer(api.app, config.ingress.http);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const keys = createRedisKeys(prefix, 16);
      for (const eventType of ['auto_dialog', 'assist_dialog', 'website_dialog']) {
        const body =
          eventType === 'auto_dialog'
            ? bodyFor(eventType, { from_user_id: 'shard-customer' }, { send_url: 'http://127.0.0.1:9/x' })
            : bodyFor(eventType);
        const answer = await post(url, sign(body));
        expect(answer.status, `${eventType}: ${JSON.stringify(answer.json)}`).to.equal(503);
        expect(answer.headers.get('retry-after')).to.match(/^\d+$/);
      }
      expect(await seed.keys(`${prefix}*pending*`)).to.deep.equal([]);
      expect(await seed.get(keys.shardCount)).to.equal('8');
      // The operator fixes the count (here: the recorded one is removed): the next request is checked afresh and served.
      await seed.del(keys.shardCount);
      const answer = await post(
        url,
        sign(bodyFor('auto_dialog', { from_user_id: 'shard-customer' }, { send_url: 'http://127.0.0.1:9/x' })),
      );
      expect(answer.status, JSON.stringify(answer.json)).to.equal(202);
      expect(await seed.get(keys.shardCount)).to.equal('16');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
      seed.disconnect();
    }
  });
});
