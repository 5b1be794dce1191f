// `npm start`: runs the API and the worker together for local use.
// Redis: REDIS_URL if set, else 127.0.0.1:6379 if it answers, else a private redis-server whose data
// lives in .data/redis (git-ignored), stopped on exit. Without CLIENTS a demo client is configured
// and a ready-to-paste signed curl example is printed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stdout.write(`[dialog-relay] ${line}\n`);
const children = [];

function redisAnswers(host, port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok) => { socket.destroy(); resolve(ok); };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => resolve(port)); });
  });
}

async function chooseRedis() {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, how: 'REDIS_URL' };
  if (await redisAnswers('127.0.0.1', 6379)) return { url: 'redis://127.0.0.1:6379', how: 'the Redis answering on 127.0.0.1:6379' };
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) {
    say('No Redis found: REDIS_URL is not set, nothing answers on 127.0.0.1:6379 and redis-server is not installed.');
    say('Get one with:  sudo apt-get install -y redis-server   (Debian/Ubuntu)');
    say('           or: brew install redis                      (macOS)');
    say('           or: docker run -d -p 6379:6379 redis:7      (then run npm start again)');
    process.exit(1);
  }
  const port = await freePort();
  const dir = join(root, '.data', 'redis');
  mkdirSync(dir, { recursive: true });
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
  children.push(proc);
  for (let i = 0; i < 100 && !(await redisAnswers('127.0.0.1', port)); i++) await new Promise((r) => setTimeout(r, 50));
  return { url: `redis://127.0.0.1:${port}`, how: `a private redis-server on port ${port} (data in .data/redis)` };
}

async function waitReady(url) {
  for (let i = 0; i < 200; i++) {
    try { if ((await fetch(`${url}/readyz`)).ok) return true; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function curlExample(baseUrl, client, secret) {
  const { signRequestBody } = await import(join(root, 'packages/signing/dist/src/index.js'));
  const now = Math.floor(Date.now() / 1000);
  const body = { client, timestamp: now, message_info: { msg_id: `demo-${now}`, from_user_id: 'customer-1', to_user_id: 'bot-1', content: 'When are you open?', message_type: 1, event_type: 'assist_dialog', create_timestamp: now } };
  const signed = { ...body, signature: signRequestBody(body, secret, 'hmac-sha256') };
  return `curl -s ${baseUrl}/custom-im/chat-messages -H 'Content-Type: application/json' -d '${JSON.stringify(signed)}'`;
}

function stopAll(code) {
  for (const child of children.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}

const redis = await chooseRedis();
const env = { ...process.env, REDIS_URL: redis.url };
const demo = !process.env.CLIENTS;
if (demo) {
  env.CLIENTS = JSON.stringify({ demo: { secret: 'demo-secret', webhook_secret: 'whsec_ZGVtby13ZWJob29rLXNlY3JldA==' } });
  env.ALLOW_PRIVATE_SEND_URLS ??= 'true';
}
const port = env.PORT ?? '8080';
say(`Redis: ${redis.how}`);
const api = spawn(process.execPath, [join(root, 'apps/api/dist/src/main.js')], { env, stdio: 'inherit' });
const worker = spawn(process.execPath, [join(root, 'apps/worker/dist/src/main.js')], { env, stdio: 'inherit' });
children.push(api, worker);
for (const child of [api, worker]) child.on('exit', (code) => { say(`a process exited (${code}); stopping`); stopAll(code ?? 1); });
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

const baseUrl = `http://127.0.0.1:${port}`;
if (await waitReady(baseUrl)) {
  say(`API ready at ${baseUrl}   (worker running beside it)`);
  if (demo) {
    say('CLIENTS is not set: using the demo client "demo" with secret "demo-secret" (never use it for real).');
    say('Try a signed assist_dialog (valid for 5 minutes; re-run npm start for a fresh one):');
    process.stdout.write(`\n${await curlExample(baseUrl, 'demo', 'demo-secret')}\n\n`);
  }
}
