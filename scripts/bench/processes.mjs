// The processes of a benchmark run: dialog-relay's API and worker, the baselines, their memory.
// Everything listens on 127.0.0.1 only; every wait is bounded.
import { fork, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { withServiceNodeOptions } from '../node-runtime.mjs';
import { traceGc } from './gc-trace.mjs';

const children = new Set();
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function waitHttp(url, child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(50);
  }
  throw new Error(`${url} did not come up within 15 s`);
}

/** Resident set size of a process, in MiB (from ps; Linux and macOS). */
export function rssMiB(pid) {
  return Number(spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim()) / 1024;
}

export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Stops a child and waits (at most 15 s) for it to exit. */
export async function stop(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export function killAll() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * Environment of dialog-relay's processes: one Redis (`url`) or a cluster (`nodes`), and the V8 flags
 * the service ships with (SERVICE_NODE_OPTIONS, as NODE_OPTIONS; BENCH_NODE_ARGS on the command line win).
 */
export function serviceEnv(redis, extra) {
  const env = { ...process.env, LOG_LEVEL: 'error', AUTO_REPLY_DEBOUNCE_MS: '0', ...extra };
  delete env.REDIS_URL;
  delete env.REDIS_CLUSTER_NODES;
  delete env.REDIS_SENTINELS;
  if (redis.nodes) env.REDIS_CLUSTER_NODES = redis.nodes;
  else env.REDIS_URL = redis.url;
  return withServiceNodeOptions(env);
}

/** Worker concurrency of every phase: dialog-relay's WORKER_CONCURRENCY and the raw BullMQ worker's (BENCH_WORKER_CONCURRENCY, 50). */
export const CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 50);

/** Environment of a phase's dialog-relay processes: keys under a fresh `bench-<phase>-…:` prefix, the bench clients, CONCURRENCY. */
export const phaseEnv = (redis, clients, phase) =>
  serviceEnv(redis, {
    REDIS_PREFIX: `bench-${phase}-${randomUUID().slice(0, 6)}:`,
    CLIENTS: clients,
    WORKER_CONCURRENCY: String(CONCURRENCY),
  });

/** A phase's API (up, /healthz answered) and one worker, on phaseEnv. */
export async function startPhaseService({ root, redis, clients }, phase) {
  const env = phaseEnv(redis, clients, phase);
  const api = await startApi(root, env);
  const worker = startWorker(root, env);
  return { api, worker };
}

/**
 * The raw BullMQ baseline's worker (raw-worker.mjs) on queue `raw` under `prefix`, posting to the
 * receiver's /raw with `client`: 'got' (the baseline) or 'http' (node's http.request).
 */
export const startRawWorker = ({ root, redis, receiver }, prefix, client = 'got') =>
  forkReady(join(root, 'scripts/bench/raw-worker.mjs'), {
    RAW_CLIENT: client,
    REDIS_URL: redis.url,
    QUEUE: 'raw',
    PREFIX: prefix,
    RECEIVER: `${receiver.base}/raw`,
    CONCURRENCY: String(CONCURRENCY),
  });

/** BENCH_NODE_ARGS: flags for our API and worker processes (e.g. V8 heap sizes), space-separated. */
const BENCH_NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/**
 * Starts the API (`nodeArgs` e.g. --cpu-prof) and waits for /healthz. With `gc`, it runs with
 * --trace-gc and the returned `gc` reads what it allocated between collections (gc-trace.mjs).
 */
export async function startApi(root, env, nodeArgs = BENCH_NODE_ARGS, { gc = false } = {}) {
  const port = await freePort();
  const child = track(
    spawn(process.execPath, [...(gc ? ['--trace-gc'] : []), ...nodeArgs, join(root, 'apps/api/dist/src/main.js')], {
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', gc ? 'pipe' : 'ignore', 'inherit'],
    }),
  );
  const traced = gc ? traceGc(child) : undefined;
  await waitHttp(`http://127.0.0.1:${port}/healthz`, child);
  return { child, url: `http://127.0.0.1:${port}`, gc: traced };
}

export function startWorker(root, env, nodeArgs = BENCH_NODE_ARGS) {
  return track(
    spawn(process.execPath, [...nodeArgs, join(root, 'apps/worker/dist/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] }),
  );
}

/** Forks a baseline script and waits for its 'ready' message; with `gc`, as startApi's. */
export async function forkReady(file, env, { gc = false } = {}) {
  const child = track(
    fork(file, {
      env: { ...process.env, ...env },
      execArgv: gc ? [...process.execArgv, '--trace-gc'] : process.execArgv,
      stdio: gc ? ['ignore', 'pipe', 'inherit', 'ipc'] : 'inherit',
    }),
  );
  if (gc) child.gc = traceGc(child);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} not ready within 15 s`)), 15_000);
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited ${code}`));
    });
  });
  return child;
}
