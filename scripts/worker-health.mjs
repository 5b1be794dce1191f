// Health checks of a worker container: `node scripts/worker-health.mjs [--ready] [max age s]`.
// Liveness (no flag; docker-compose.yml, the Kubernetes livenessProbe): healthy (exit 0) when the
// heartbeat file the worker touches from a timer while its queue workers run (WORKER_HEARTBEAT_FILE,
// every WORKER_HEARTBEAT_INTERVAL_MS) is younger than the max age (default 30 s). That is the worker's
// own progress and nothing else: a Redis outage must not restart every worker (they wait and resume).
// Readiness (--ready; the Kubernetes readinessProbe): also Redis answers PING over a connection made
// with the worker's own options (loadConfig of this environment: REDIS_URL or rediss://, REDIS_TLS,
// REDIS_PASSWORD, Sentinel or Cluster). Exit 1 otherwise, with one line saying why (never a secret).
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const fail = (why) => {
  process.stdout.write(`${why}\n`);
  process.exit(1);
};

const args = process.argv.slice(2);
const ready = args.includes('--ready');
const [ageArg] = args.filter((arg) => arg !== '--ready');
const maxAgeS = Number(ageArg ?? 30);
if (!Number.isFinite(maxAgeS) || maxAgeS <= 0) fail(`max age must be a positive number of seconds, got ${ageArg}`);
const file = process.env.WORKER_HEARTBEAT_FILE;
if (!file) fail('WORKER_HEARTBEAT_FILE is not set: the worker writes no heartbeat to check');
let ageS;
try {
  ageS = (Date.now() - statSync(file).mtimeMs) / 1000;
} catch (error) {
  fail(`no worker heartbeat at ${file}: ${error.message}`);
}
if (ageS > maxAgeS) fail(`worker heartbeat ${file} is ${Math.round(ageS)} s old (more than ${maxAgeS} s): the worker is stuck or stopped`);
if (!ready) process.exit(0);

const load = (path) => import(pathToFileURL(join(root, path)).href);
const { ConfigError, loadConfig } = await load('packages/config/dist/src/index.js');
const { createRedis, waitForRedis } = await load('packages/redis/dist/src/index.js');
let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  // ConfigError messages never quote a password.
  fail(error instanceof ConfigError ? `bad configuration: ${error.message}` : 'the configuration cannot be read');
}
const redis = createRedis(config.redis, 'request', { name: 'dialog-relay-worker-health' });
redis.on('error', () => undefined);
const timer = setTimeout(() => fail('redis does not answer within 5 s'), 5000);
try {
  await waitForRedis(redis, 5000);
  await redis.ping();
} catch (error) {
  // ioredis's messages name the address and the failure (NOAUTH, WRONGPASS, a TLS error), not the password.
  fail(`redis does not answer: ${error instanceof Error ? error.message : String(error)}`);
}
clearTimeout(timer);
redis.disconnect();
process.exit(0);
