// Liveness check of a worker container (docker-compose.yml): `node scripts/worker-health.mjs [max age s]`.
// Healthy (exit 0) when the heartbeat file the worker touches from a timer (WORKER_HEARTBEAT_FILE,
// every WORKER_HEARTBEAT_INTERVAL_MS) is younger than the max age (default 30 s), so a worker whose
// event loop is stuck or whose queue workers stopped turns unhealthy, and Redis, where its jobs
// come from, answers. Exit 1 otherwise, with one line saying why.
import { statSync } from 'node:fs';
import { createConnection } from 'node:net';

const fail = (why) => {
  process.stdout.write(`${why}\n`);
  process.exit(1);
};

const maxAgeS = Number(process.argv[2] ?? 30);
if (!Number.isFinite(maxAgeS) || maxAgeS <= 0) fail(`max age must be a positive number of seconds, got ${process.argv[2]}`);
const file = process.env.WORKER_HEARTBEAT_FILE;
if (!file) fail('WORKER_HEARTBEAT_FILE is not set: the worker writes no heartbeat to check');
let ageS;
try {
  ageS = (Date.now() - statSync(file).mtimeMs) / 1000;
} catch (error) {
  fail(`no worker heartbeat at ${file}: ${error.message}`);
}
if (ageS > maxAgeS) fail(`worker heartbeat ${file} is ${Math.round(ageS)} s old (more than ${maxAgeS} s): the worker is stuck or stopped`);

// The first cluster node or sentinel when the worker runs on a cluster or behind Sentinel, else REDIS_URL.
const firstNode = (process.env.REDIS_CLUSTER_NODES || process.env.REDIS_SENTINELS || '').split(',')[0]?.trim();
let url;
try {
  url = new URL(firstNode ? `redis://${firstNode}` : process.env.REDIS_URL || 'redis://127.0.0.1:6379');
} catch {
  // Not quoted: it may hold a password.
  fail(`${firstNode ? (process.env.REDIS_CLUSTER_NODES ? 'REDIS_CLUSTER_NODES' : 'REDIS_SENTINELS') : 'REDIS_URL'} is not a valid address: redis cannot be checked`);
}
const socket = createConnection({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 6379) });
const done = (ok, why) => {
  socket.destroy();
  if (!ok) fail(`redis does not answer: ${why}`);
  process.exit(0);
};
socket.setTimeout(3000, () => done(false, 'time-out'));
socket.on('error', (error) => done(false, error.message));
socket.on('connect', () => socket.write('PING\r\n'));
// Any reply counts (+PONG, or -NOAUTH when Redis wants a password): Redis is there.
socket.on('data', () => done(true));
