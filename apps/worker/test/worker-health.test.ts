import { freePort, startRedisServer, testRedisEnv, testRedisUrl, uniquePrefix, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SCRIPT = join(HERE, '..', '..', '..', '..', 'scripts', 'worker-health.mjs');
const MAIN = join(HERE, '..', 'src', 'main.js');

/** Where a heartbeat file may be written: a fresh directory of its own. */
const heartbeatPath = (): string => join(mkdtempSync(join(tmpdir(), 'worker-heartbeat-')), 'heartbeat');

/** A heartbeat file touched just now. */
const freshHeartbeat = (): string => {
  const file = heartbeatPath();
  writeFileSync(file, new Date().toISOString());
  return file;
};

/** A real worker process on `redisEnv` (and a prefix of its own) that touches a fresh heartbeat file every 200 ms. */
function startBeatingWorker(redisEnv: Record<string, string>, prefix: string) {
  const file = heartbeatPath();
  const env = {
    ...redisEnv,
    REDIS_PREFIX: uniquePrefix(prefix),
    LOG_LEVEL: 'error',
    WORKER_HEARTBEAT_FILE: file,
    WORKER_HEARTBEAT_INTERVAL_MS: '200',
  };
  const worker = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: 'ignore' });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  /** When the worker last touched the file (0 before it first did). */
  const modified = (): number => {
    try {
      return statSync(file).mtimeMs;
    } catch {
      return 0;
    }
  };
  return { file, worker, exited, modified };
}

/**
 * The health checks of a worker container: liveness is the heartbeat file the worker touches from a
 * timer (its event loop turns and its queue workers run), never Redis; readiness (--ready) adds Redis,
 * reached with the worker's own connection options (TLS, password, Sentinel, Cluster).
 */
describe('worker health check', () => {
  const check = (env: Record<string, string>, args: string[] = []): number | null =>
    spawnSync(process.execPath, [SCRIPT, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env }, encoding: 'utf8' }).status;
  const said = (env: Record<string, string>, args: string[]): string => {
    const result = spawnSync(process.execPath, [SCRIPT, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env }, encoding: 'utf8' });
    return `${result.status ?? ''} ${result.stdout}${result.stderr}`;
  };

  it('liveness depends on the heartbeat alone: healthy while Redis is unreachable (an outage must not restart every worker)', async () => {
    const closed = await freePort();
    const heartbeat = { WORKER_HEARTBEAT_FILE: freshHeartbeat() };
    expect(check({ ...heartbeat, REDIS_URL: `redis://127.0.0.1:${closed}` })).to.equal(0);
    expect(check({ ...heartbeat, REDIS_CLUSTER_NODES: `127.0.0.1:${closed}` })).to.equal(0);
  });

  it("readiness (--ready) is healthy when the heartbeat is fresh and Redis answers over the worker's own connection (this pass's topology)", () => {
    expect(check({ WORKER_HEARTBEAT_FILE: freshHeartbeat(), ...testRedisEnv() }, ['--ready'])).to.equal(0);
  });

  it('readiness (--ready) is unhealthy when nothing answers there', async () => {
    const closed = await freePort();
    const heartbeat = { WORKER_HEARTBEAT_FILE: freshHeartbeat() };
    expect(check({ ...heartbeat, REDIS_URL: `redis://127.0.0.1:${closed}` }, ['--ready'])).to.equal(1);
    expect(
      check({ ...heartbeat, REDIS_URL: '', REDIS_SENTINELS: `127.0.0.1:${closed}`, REDIS_SENTINEL_NAME: 'relay' }, ['--ready']),
    ).to.equal(1);
  });

  it('readiness (--ready) is unhealthy in one line, without quoting it, when REDIS_URL is not a valid URL (it may hold a password)', () => {
    const result = spawnSync(process.execPath, [SCRIPT, '--ready'], {
      env: { PATH: process.env['PATH'] ?? '', WORKER_HEARTBEAT_FILE: freshHeartbeat(), REDIS_URL: 'redis://:hunter2@127.0.0.1:notaport' },
      encoding: 'utf8',
    });
    expect(result.status).to.equal(1);
    const output = `${result.stdout}${result.stderr}`;
    expect(output.trim().split('\n'), output).to.have.length(1);
    expect(output).to.include('REDIS_URL').and.not.to.include('hunter2');
  });

  describe('against a Redis that wants TLS and a password', () => {
    const PASSWORD = 'health-password-0123456789';
    let dir: string;
    let server: ChildProcess;
    let port: number;
    before(async function () {
      this.timeout(30_000);
      dir = mkdtempSync(join(tmpdir(), 'worker-health-tls-'));
      // A self-signed certificate for 127.0.0.1; the checks trust it through NODE_EXTRA_CA_CERTS.
      const made = spawnSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { encoding: 'utf8' },
      );
      expect(made.status, made.stderr).to.equal(0);
      port = await freePort();
      server = spawn(
        'redis-server',
        [
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--tls-cert-file',
          join(dir, 'cert.pem'),
          '--tls-key-file',
          join(dir, 'key.pem'),
          '--tls-ca-cert-file',
          join(dir, 'cert.pem'),
          '--tls-auth-clients',
          'no',
          '--requirepass',
          PASSWORD,
        ],
        { stdio: 'ignore' },
      );
      const tlsEnv = {
        WORKER_HEARTBEAT_FILE: freshHeartbeat(),
        NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'),
        REDIS_URL: `rediss://127.0.0.1:${port}`,
        REDIS_PASSWORD: PASSWORD,
      };
      await waitUntil(() => check(tlsEnv, ['--ready']) === 0, 20_000);
    });
    after(async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    });
    const env = (more: Record<string, string>): Record<string, string> => ({
      WORKER_HEARTBEAT_FILE: freshHeartbeat(),
      NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'),
      ...more,
    });

    it("passes with the worker's options: rediss:// or REDIS_TLS=true, and REDIS_PASSWORD", () => {
      expect(check(env({ REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_PASSWORD: PASSWORD }), ['--ready'])).to.equal(0);
      expect(check(env({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_TLS: 'true', REDIS_PASSWORD: PASSWORD }), ['--ready'])).to.equal(0);
    });

    it('fails without the password, or over plain TCP, and never prints the password', () => {
      expect(said(env({ REDIS_URL: `rediss://127.0.0.1:${port}` }), ['--ready'])).to.match(/^1 /);
      const wrong = said(env({ REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_PASSWORD: 'wrong-password-0123456789' }), ['--ready']);
      expect(wrong).to.match(/^1 /).and.not.to.include('wrong-password');
      expect(check(env({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PASSWORD: PASSWORD }), ['--ready'])).to.equal(1);
    });
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

  it('follows a real worker through a Redis outage: its heartbeat goes on (liveness healthy), readiness turns unhealthy', async function () {
    this.timeout(90_000);
    const redis = await startRedisServer();
    const { file, worker, exited, modified } = startBeatingWorker({ REDIS_URL: redis.url }, 'outage');
    try {
      await waitUntil(() => modified() > 0, 30_000);
      expect(check({ WORKER_HEARTBEAT_FILE: file, REDIS_URL: redis.url }, ['--ready', '5'])).to.equal(0);
      await redis.stop();
      const down = Date.now();
      // Beats written well after Redis went away: the worker's loop goes on, it waits for Redis.
      await waitUntil(() => modified() > down + 3000, 30_000);
      expect(check({ WORKER_HEARTBEAT_FILE: file }, ['2'])).to.equal(0);
      expect(check({ WORKER_HEARTBEAT_FILE: file, REDIS_URL: redis.url }, ['--ready', '2'])).to.equal(1);
      await redis.start();
      await waitUntil(() => check({ WORKER_HEARTBEAT_FILE: file, REDIS_URL: redis.url }, ['--ready', '2']) === 0, 30_000);
    } finally {
      worker.kill('SIGTERM');
      await exited;
      await redis.dispose();
    }
  });

  it('follows a real worker: healthy while it runs, unhealthy once its process stops turning', async function () {
    this.timeout(60_000);
    const { file, worker, exited, modified } = startBeatingWorker(testRedisEnv(), 'health');
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
