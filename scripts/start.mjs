// `npm start`: runs the API and the worker together for local use, listening on 127.0.0.1 unless
// HOST says otherwise (the demo client's secret is printed and it may send to loopback addresses).
// Redis: REDIS_URL if set (refused with one plain line when it does not answer), else a private
// redis-server whose data lives in .data/redis (git-ignored), stopped on exit (installed with
// apt-get when missing and running as root, as npm test does). Keys live under a prefix of this checkout's own unless REDIS_PREFIX is set, so two
// checkouts on one machine never share a queue (npm run start:api / start:worker / cli use the same one).
// A busy port is reported before anything starts.
// Without CLIENTS a demo client is configured and a ready-to-paste signed curl example is printed.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { checkoutPrefix, root } from './checkout-prefix.mjs';
import { ensureNode, withServiceNodeOptions } from './node-runtime.mjs';
import { removeState, writeState } from './service-state.mjs';
import { probe } from './socket-probe.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

const say = (line) => process.stdout.write(`[dialog-relay] ${line}\n`);
// On a Node older than 22, everything below runs under Node 24 instead (scripts/node-runtime.mjs).
await ensureNode('supported', say);
const children = [];
/** The private redis-server, when npm start runs one. */
let redisProcess;

/** Time a draining process gets beyond its own bound before it is killed. */
const DRAIN_MARGIN_MS = 5_000;
let stopping = false;
const running = (child) => child.exitCode === null && child.signalCode === null;
const exitOf = (child) => new Promise((resolve) => (running(child) ? child.once('exit', resolve) : resolve()));
/** SIGTERMs `procs` and waits for them; after `boundMs` the ones still running get SIGKILL (never left behind). */
async function terminate(procs, boundMs) {
  const left = procs.filter(running);
  for (const child of left) child.kill('SIGTERM');
  const late = setTimeout(() => {
    for (const child of left.filter(running)) child.kill('SIGKILL');
  }, boundMs);
  await Promise.all(left.map(exitOf));
  clearTimeout(late);
}
/**
 * Stops the API and the worker (each drains: an API at most SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS,
 * a worker SHUTDOWN_TIMEOUT_MS + DELIVERY_TIMEOUT_MS), then the private Redis they drained into, then exits.
 * SIGTERM and SIGINT sent to this process (npm passes its own on) end here, whenever they come.
 */
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  const n = (name, fallback) => Number(process.env[name] || fallback);
  const shutdownMs = n('SHUTDOWN_TIMEOUT_MS', 10_000);
  const drainBoundMs = Math.max(n('SHUTDOWN_DELAY_MS', 0) + shutdownMs, shutdownMs + n('DELIVERY_TIMEOUT_MS', 10_000)) + DRAIN_MARGIN_MS;
  const services = children.filter((child) => child !== redisProcess);
  void terminate(services, drainBoundMs)
    .then(() => (redisProcess ? terminate([redisProcess], 10_000) : undefined))
    .then(() => process.exit(code));
}
// The state file (scripts/service-state.mjs) goes with this process, however it ends.
process.on('exit', removeState);
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

/** True when a Redis at host:port answers PING with PONG. */
const redisAnswers = (host, port) => probe(host, port, { timeoutMs: 500, send: 'PING\r\n', accept: (text) => text.startsWith('+PONG') });

/** True when something accepts a connection at host:port. */
const reachable = (host, port) => probe(host, port, { timeoutMs: 2000 });

function portInUse(host, port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? error.code : false));
    server.listen(Number(port), host, () => server.close(() => resolve(false)));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A Redis URL as shown: without a password, wherever the URL holds one (user info, even with an "@" in it, or a query option). */
const shownUrl = (target) =>
  `${target.protocol}//${target.username || target.password ? '***@' : ''}${target.host}${target.pathname === '/' ? '' : target.pathname}${target.search ? '?…' : ''}`;

async function chooseRedis() {
  // A cluster or Sentinel is the operator's: used as configured (the services check it themselves).
  if (process.env.REDIS_CLUSTER_NODES) return { env: {}, how: `the Redis Cluster REDIS_CLUSTER_NODES=${process.env.REDIS_CLUSTER_NODES}` };
  if (process.env.REDIS_SENTINELS) return { env: {}, how: `Redis behind Sentinel REDIS_SENTINELS=${process.env.REDIS_SENTINELS}` };
  if (process.env.REDIS_URL) {
    const url = process.env.REDIS_URL;
    let target;
    try {
      target = new URL(url);
    } catch {
      target = undefined;
    }
    if (!target) {
      // Not quoted: it may hold a password.
      say(
        'REDIS_URL is not a valid URL (redis://[:password@]host:port[/db]): correct it, or unset REDIS_URL so npm start runs a private redis-server.',
      );
      process.exit(1);
    }
    const shown = shownUrl(target);
    if (!(await reachable(target.hostname.replace(/^\[|\]$/g, ''), Number(target.port || 6379)))) {
      say(
        `Redis at ${shown} is not reachable: start Redis there, correct REDIS_URL, or unset REDIS_URL so npm start runs a private redis-server.`,
      );
      process.exit(1);
    }
    return { url, how: 'REDIS_URL' };
  }
  // Not configured: a private redis-server of this checkout's own, never a Redis that merely answers
  // on the default port (it may be another program's). Installed with apt-get when missing, as npm test does.
  if (!ensureSystemPackages(say, { only: ['redis-server'] })) {
    say('No Redis: REDIS_URL is not set and redis-server is not installed.');
    say('Get one with:  sudo apt-get install -y redis-server   (Debian/Ubuntu)');
    say('           or: brew install redis                      (macOS)');
    say('           or: docker run -d -p 6379:6379 redis:7      (then REDIS_URL=redis://127.0.0.1:6379 npm start)');
    if (await redisAnswers('127.0.0.1', 6379))
      say('A Redis answers on 127.0.0.1:6379: to use it, run REDIS_URL=redis://127.0.0.1:6379 npm start');
    process.exit(1);
  }
  const port = await freePort();
  const dir = join(root, '.data', 'redis');
  mkdirSync(dir, { recursive: true });
  // A process group of its own: a terminal's Ctrl-C (sent to the whole foreground group) does not stop
  // it under the draining API and worker; stopAll stops it after them.
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--maxmemory-policy', 'noeviction'],
    { stdio: 'ignore', detached: true },
  );
  redisProcess = proc;
  children.push(proc);
  for (let i = 0; i < 100 && !(await redisAnswers('127.0.0.1', port)); i++) await new Promise((r) => setTimeout(r, 50));
  return { url: `redis://127.0.0.1:${port}`, how: `a private redis-server on port ${port} (data in .data/redis)` };
}

async function waitReady(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function curlExample(baseUrl, client, secret) {
  const { signRequestBody } = await import(join(root, 'packages/signing/dist/src/index.js'));
  const now = Math.floor(Date.now() / 1000);
  const body = {
    client,
    timestamp: now,
    message_info: {
      msg_id: `demo-${now}`,
      from_user_id: 'customer-1',
      to_user_id: 'bot-1',
      content: 'When are you open?',
      message_type: 1,
      event_type: 'assist_dialog',
      create_timestamp: now,
    },
  };
  const signed = { ...body, signature: signRequestBody(body, secret, 'hmac-sha256') };
  return `curl -s ${baseUrl}/custom-im/chat-messages -H 'Content-Type: application/json' -d '${JSON.stringify(signed)}'`;
}

const DEMO = { id: 'demo', secret: 'demo-secret-not-for-production', webhookSecret: 'whsec_ZGVtby13ZWJob29rLXNlY3JldA==' };
const port = process.env.PORT || '8080';
// Local use: loopback only unless HOST says otherwise (the services' own default, for containers, is 0.0.0.0).
const host = process.env.HOST || '127.0.0.1';
const busy = await portInUse(host, port);
if (busy) {
  say(
    `Cannot start: port ${port} on ${host} is ${busy === 'EACCES' ? 'not allowed for this user' : 'already in use (another program listens there)'}. Stop that program, or choose another port: PORT=8081 npm start`,
  );
  process.exit(1);
}
const redis = await chooseRedis();
const env = { ...process.env, HOST: host, ...(redis.url ? { REDIS_URL: redis.url } : {}) };
// Each checkout gets its own keys (and queue): a hash of its path, unless REDIS_PREFIX says otherwise.
env.REDIS_PREFIX ||= checkoutPrefix();
const demo = !process.env.CLIENTS;
if (demo) {
  // Private (loopback) send_urls are opened for the demo client only, not for every client.
  env.CLIENTS = JSON.stringify({ [DEMO.id]: { secret: DEMO.secret, webhook_secret: DEMO.webhookSecret, allow_private_send_urls: true } });
}
say(`Redis: ${redis.how}`);
say(
  process.env.REDIS_PREFIX
    ? `Redis keys under prefix "${env.REDIS_PREFIX}" (REDIS_PREFIX)`
    : `Redis keys under prefix "${env.REDIS_PREFIX}" (this checkout's own; set REDIS_PREFIX to share)`,
);
// A signal during the start-up above: stopAll is stopping what started; start nothing more.
if (stopping) await new Promise(() => undefined);
const serviceEnv = withServiceNodeOptions(env);
const api = spawn(process.execPath, [join(root, 'apps/api/dist/src/main.js')], { env: serviceEnv, stdio: 'inherit' });
const worker = spawn(process.execPath, [join(root, 'apps/worker/dist/src/main.js')], { env: serviceEnv, stdio: 'inherit' });
children.push(api, worker);
for (const child of [api, worker]) {
  child.on('exit', (code) => {
    if (stopping) return;
    say(`a process exited (${code}); stopping`);
    stopAll(code ?? 1);
  });
}

// The wildcard addresses are reached on loopback; an IPv6 address goes in brackets in a URL.
const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
const baseUrl = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
if ((await waitReady(baseUrl)) && api.exitCode === null) {
  writeState({ ...env, DIALOG_RELAY_URL: baseUrl });
  say(`API ready at ${baseUrl}   (worker running beside it)`);
  say(
    `reference: ${baseUrl}/docs · dashboard: ${baseUrl}/admin/queues (${env.ADMIN_TOKEN || env.ADMIN_WRITE_TOKEN ? 'log in with ADMIN_TOKEN' : 'set ADMIN_TOKEN to open it'})`,
  );
  const redisNamed = env.REDIS_URL
    ? `REDIS_URL=${shownUrl(new URL(env.REDIS_URL))}`
    : env.REDIS_CLUSTER_NODES
      ? `REDIS_CLUSTER_NODES=${env.REDIS_CLUSTER_NODES}`
      : `REDIS_SENTINELS=${env.REDIS_SENTINELS}`;
  say(`Redis: ${redisNamed} REDIS_PREFIX=${env.REDIS_PREFIX} (npm run cli of this checkout finds it by itself)`);
  if (demo) {
    say(
      `CLIENTS is not set: using the demo client "${DEMO.id}" with secret "${DEMO.secret}" and webhook secret ${DEMO.webhookSecret} (never use them for real; loopback send_urls are allowed for it).`,
    );
    say('Try a signed assist_dialog (valid for 5 minutes; re-run npm start for a fresh one):');
    process.stdout.write(`\n${await curlExample(baseUrl, DEMO.id, DEMO.secret)}\n\n`);
  }
}
