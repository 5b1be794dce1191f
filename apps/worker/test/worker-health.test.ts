import { freePort, testRedisEnv, testRedisUrl, uniquePrefix, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SCRIPT = join(HERE, '..', '..', '..', '..', 'scripts', 'worker-health.mjs');
const MAIN = join(HERE, '..', 'src', 'main.js');

/** A heartbeat file touched just now. */
const freshHeartbeat = (): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'worker-heartbeat-')), 'heartbeat');
  writeFileSync(file, new Date().toISOString());
  return file;
};

/**
 * The compose liveness check of a worker: the heartbeat file the worker touches from a timer is
 * recent (its event loop turns and its queue workers run), and its Redis answers, in every Redis mode.
 */
describe('worker health check', () => {
  const check = (env: Record<string, string>, args: string[] = []): number | null =>
    spawnSync(process.execPath, [SCRIPT, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env }, encoding: 'utf8' }).status;

  it('is healthy when the heartbeat is fresh and Redis answers, reached by REDIS_URL, the first cluster node or the first sentinel', () => {
    const hostPort = new URL(testRedisUrl()).host;
    const heartbeat = { WORKER_HEARTBEAT_FILE: freshHeartbeat() };
    expect(check({ ...heartbeat, REDIS_URL: testRedisUrl() })).to.equal(0);
    expect(check({ ...heartbeat, REDIS_CLUSTER_NODES: `${hostPort},127.0.0.1:1` })).to.equal(0);
    expect(check({ ...heartbeat, REDIS_SENTINELS: `${hostPort}` })).to.equal(0);
  });

  it('is unhealthy when nothing answers there', async () => {
    const closed = await freePort();
    const heartbeat = { WORKER_HEARTBEAT_FILE: freshHeartbeat() };
    expect(check({ ...heartbeat, REDIS_CLUSTER_NODES: `127.0.0.1:${closed}` })).to.equal(1);
    expect(check({ ...heartbeat, REDIS_URL: `redis://127.0.0.1:${closed}` })).to.equal(1);
  });

  it('is unhealthy in one line, without quoting it, when REDIS_URL is not a valid URL (it may hold a password)', () => {
    const result = spawnSync(process.execPath, [SCRIPT], { env: { PATH: process.env['PATH'] ?? '', WORKER_HEARTBEAT_FILE: freshHeartbeat(), REDIS_URL: 'redis://:hunter2@127.0.0.1:notaport' }, encoding: 'utf8' });
    expect(result.status).to.equal(1);
    const said = `${result.stdout}${result.stderr}`;
    expect(said.trim().split('\n'), said).to.have.length(1);
    expect(said).to.include('REDIS_URL').and.not.to.include('hunter2');
  });

  it('is unhealthy when the heartbeat file is older than the allowed age, missing, or not configured', () => {
    const stale = freshHeartbeat();
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(stale, twoMinutesAgo, twoMinutesAgo);
    expect(check({ WORKER_HEARTBEAT_FILE: stale, REDIS_URL: testRedisUrl() })).to.equal(1);
    expect(check({ WORKER_HEARTBEAT_FILE: stale, REDIS_URL: testRedisUrl() }, ['300'])).to.equal(0);
    expect(check({ WORKER_HEARTBEAT_FILE: join(dirname(stale), 'missing'), REDIS_URL: testRedisUrl() })).to.equal(1);
    expect(check({ REDIS_URL: testRedisUrl() })).to.equal(1);
  });

  it('follows a real worker: healthy while it runs, unhealthy once its process stops turning', async function () {
    this.timeout(60_000);
    const file = join(mkdtempSync(join(tmpdir(), 'worker-heartbeat-')), 'heartbeat');
    const env = { ...testRedisEnv(), REDIS_PREFIX: uniquePrefix('health'), LOG_LEVEL: 'error', WORKER_HEARTBEAT_FILE: file, WORKER_HEARTBEAT_INTERVAL_MS: '200' };
    const worker = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: 'ignore' });
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    const modified = (): number => {
      try {
        return statSync(file).mtimeMs;
      } catch {
        return 0;
      }
    };
    try {
      await waitUntil(() => modified() > 0, 20_000);
      const first = modified();
      await waitUntil(() => modified() > first, 20_000);
      expect(check({ WORKER_HEARTBEAT_FILE: file, REDIS_URL: testRedisUrl() }, ['2'])).to.equal(0);
      // A hung worker: the process exists (as PID 1 in a container always does) but runs nothing.
      worker.kill('SIGSTOP');
      await waitUntil(() => check({ WORKER_HEARTBEAT_FILE: file, REDIS_URL: testRedisUrl() }, ['2']) === 1, 20_000);
    } finally {
      worker.kill('SIGCONT');
      worker.kill('SIGTERM');
      await exited;
    }
  });
});
