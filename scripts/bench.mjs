// `npm run bench`: measures dialog-relay against baselines measured in the same run, on this machine.
//  1. synchronous path: dialog-relay API vs a bare Express JSON endpoint (autocannon, pre-signed bodies);
//  2. delivery: dialog-relay worker vs a raw BullMQ worker POSTing to the same loopback receiver;
//  3. memory: worker RSS over sustained rounds.
// Prints ratios; asserts nothing (speed is measured here, never in tests).
import autocannon from 'autocannon';
import { fork, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => join(root, p);
const { signRequestBody } = await import(dist('packages/signing/dist/src/index.js'));
const { createRedisKeys, createRequestRedis } = await import(dist('packages/redis/dist/src/index.js'));
const { createConversationTurns, createReplyQueue, addTurnJob } = await import(dist('packages/queue/dist/src/index.js'));
const { Queue } = await import('bullmq');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const children = [];
const log = (line) => process.stdout.write(`${line}\n`);
const freePort = () => new Promise((resolve) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
const waitMessage = (child) => new Promise((resolve, reject) => { child.once('message', resolve); child.once('exit', (code) => reject(new Error(`child exited ${code}`))); });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startRedis() {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', mkdtempSync(join(tmpdir(), 'bench-redis-'))], { stdio: 'ignore' });
  children.push(child);
  const probe = createRequestRedis(`redis://127.0.0.1:${port}`, { name: 'bench-probe' });
  probe.on('error', () => undefined);
  for (let i = 0; i < 100; i++) { try { await probe.ping(); break; } catch { await sleep(50); } }
  probe.disconnect();
  return `redis://127.0.0.1:${port}`;
}

async function waitHttp(url) {
  for (let i = 0; i < 200; i++) { try { await fetch(url); return; } catch { await sleep(50); } }
  throw new Error(`${url} did not come up`);
}

function load(url, makeBody) {
  return new Promise((resolve, reject) => {
    autocannon({
      url: `${url}/custom-im/chat-messages`, method: 'POST', connections: CONNECTIONS, duration: SECONDS,
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (req) => ({ ...req, body: makeBody() }) }],
    }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const now = () => Math.floor(Date.now() / 1000);
let trace = 0;
function signedBody(eventType, extra = {}) {
  const info = { from_user_id: `bench-customer-${trace % 500}`, to_user_id: 'bench-bot', content: 'When are you open on Saturday?', message_type: 1, event_type: eventType, create_timestamp: now(), trace: ++trace, ...extra };
  if (eventType === 'assist_dialog') info.msg_id = `bench-${randomUUID()}`;
  if (eventType === 'auto_dialog') info.from_user_type = 2;
  const body = { client: 'bench', timestamp: now(), message_info: info };
  if (eventType === 'auto_dialog') body.send_url = 'http://127.0.0.1:9/unused';
  return JSON.stringify({ ...body, signature: signRequestBody(body, 'bench-secret', 'hmac-sha256') });
}

function row(name, result, baseline) {
  const rps = result.requests.average;
  const ok = result['2xx'];
  const ratio = baseline ? (rps / baseline.requests.average).toFixed(2) : '1.00';
  log(`  ${name.padEnd(34)} ${rps.toFixed(0).padStart(7)} req/s  p50 ${String(result.latency.p50).padStart(3)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  2xx ${ok}/${result.requests.total}  ratio ${ratio}`);
}

async function syncBench(redisUrl) {
  log(`\n1. Synchronous requests: ${CONNECTIONS} connections, ${SECONDS} s each (ratio = req/s against the bare Express baseline)`);
  const bareBody = () => JSON.stringify({ client: 'bench', timestamp: now(), signature: 'x', message_info: { content: 'hi', trace: ++trace } });
  const runBare = async (name, extraEnv) => {
    const port = await freePort();
    const bare = fork(join(root, 'scripts/bench/bare-server.mjs'), { env: { ...process.env, REDIS_URL: '', ...extraEnv, PORT: String(port) }, stdio: 'inherit' });
    children.push(bare);
    await waitMessage(bare);
    const result = await load(`http://127.0.0.1:${port}`, bareBody);
    bare.kill('SIGTERM');
    return result;
  };
  const baseline = await runBare('bare', {});
  row('bare Express + express.json (baseline)', baseline);
  const redisFloor = await runBare('redis', { REDIS_URL: redisUrl });
  row('bare Express + 2 Redis round trips', redisFloor, baseline);

  const apiPort = await freePort();
  const env = { ...process.env, PORT: String(apiPort), HOST: '127.0.0.1', REDIS_URL: redisUrl, REDIS_PREFIX: `bench-${randomUUID().slice(0, 6)}:`, LOG_LEVEL: 'error',
    CLIENTS: JSON.stringify({ bench: { secret: 'bench-secret', rate_limit_per_s: 1_000_000 } }), ALLOW_PRIVATE_SEND_URLS: 'true' };
  const api = spawn(process.execPath, [dist('apps/api/dist/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(api);
  await waitHttp(`http://127.0.0.1:${apiPort}/healthz`);
  for (const eventType of ['cmd_dialog', 'website_dialog', 'assist_dialog', 'auto_dialog']) {
    const extra = eventType === 'cmd_dialog' ? { content: 'auto_reply_status' } : {};
    // Every request must be a new signed body (an exact replay is refused), so sign them before the clock runs.
    const pool = Array.from({ length: 30_000 }, () => signedBody(eventType, extra));
    let i = 0;
    const result = await load(`http://127.0.0.1:${apiPort}`, () => (i < pool.length ? pool[i++] : signedBody(eventType, extra)));
    row(`dialog-relay ${eventType}`, result, baseline);
    log(`  ${''.padEnd(34)} ${''.padStart(7)}        against the Redis floor: ratio ${(result.requests.average / redisFloor.requests.average).toFixed(2)}`);
  }
  api.kill('SIGTERM');
}

async function deliveryBench(redisUrl) {
  log(`\n2. Delivery: ${MESSAGES} replies over ${MESSAGES / 10} conversations to a loopback receiver, concurrency 16 (ratio = throughput against raw BullMQ + got)`);
  let received = 0;
  let onReceived = () => undefined;
  const receiver = createServer((req, res) => { req.resume(); req.on('end', () => { received += 1; res.end('ok'); onReceived(); }); });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
  const until = (count) => new Promise((resolve) => { onReceived = () => { if (received >= count) resolve(); }; onReceived(); });
  const redis = createRequestRedis(redisUrl, { name: 'bench' });

  // Baseline: raw BullMQ.
  const rawPrefix = `bench-raw-${randomUUID().slice(0, 6)}`;
  const rawQueue = new Queue('raw', { connection: redis, prefix: rawPrefix });
  await rawQueue.addBulk(Array.from({ length: MESSAGES }, (_, i) => ({ name: 'deliver', data: { i, text: 'We are open Monday to Friday.' }, opts: { removeOnComplete: true } })));
  const raw = fork(join(root, 'scripts/bench/raw-worker.mjs'), { env: { ...process.env, REDIS_URL: redisUrl, QUEUE: 'raw', PREFIX: rawPrefix, RECEIVER: receiverUrl, CONCURRENCY: '16' } });
  children.push(raw);
  received = 0;
  await until(1); // the clock starts at the first delivery, for both workers alike
  let started = performance.now();
  await until(MESSAGES);
  const rawRate = (MESSAGES - 1) / ((performance.now() - started) / 1000);
  log(`  raw BullMQ worker + got (baseline)   ${rawRate.toFixed(0).padStart(6)} deliveries/s  ratio 1.00`);
  raw.kill('SIGTERM');
  await rawQueue.close();

  // dialog-relay worker: the same number of due messages, scheduled through the reply protocol.
  const prefix = `bench-${randomUUID().slice(0, 6)}:`;
  const keys = createRedisKeys(prefix);
  const turns = createConversationTurns({ redis, keys, pendingTtlMs: 3_600_000 });
  const queue = createReplyQueue(redis, keys.bullPrefix);
  const env = { ...process.env, REDIS_URL: redisUrl, REDIS_PREFIX: prefix, LOG_LEVEL: 'error', AUTO_REPLY_DEBOUNCE_MS: '0', WORKER_CONCURRENCY: '16', ALLOW_PRIVATE_SEND_URLS: 'true',
    CLIENTS: JSON.stringify({ bench: { secret: 'bench-secret' } }) };
  const schedule = async (round) => {
    for (let c = 0; c < MESSAGES / 10; c++) {
      const conversationId = `c_bench${round}x${c}`;
      for (let m = 0; m < 10; m++) {
        const message = { client: 'bench', conversationId, msgId: `r${round}-c${c}-m${m}`, sendUrl: receiverUrl, customerId: `cust-${c}`, boundAccountId: 'bound', receivedAtMs: Date.now() };
        const result = await turns.schedule(message);
        if (result.kind === 'queued') await addTurnJob(queue, conversationId, result.generation, 0);
      }
    }
  };
  await schedule(0);
  received = 0;
  const worker = spawn(process.execPath, [dist('apps/worker/dist/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(worker);
  await until(1);
  started = performance.now();
  await until(MESSAGES);
  const ourRate = (MESSAGES - 1) / ((performance.now() - started) / 1000);
  log(`  dialog-relay worker                  ${ourRate.toFixed(0).padStart(6)} deliveries/s  ratio ${(ourRate / rawRate).toFixed(2)}`);

  log(`\n3. Worker memory under sustained load (${MESSAGES} replies a round)`);
  const rss = () => Number(spawnSync('ps', ['-o', 'rss=', '-p', String(worker.pid)], { encoding: 'utf8' }).stdout.trim()) / 1024;
  const samples = [rss()];
  for (let round = 1; round <= 4; round++) {
    const target = received + MESSAGES;
    await schedule(round);
    await until(target);
    samples.push(rss());
  }
  log(`  RSS after each round (MiB): ${samples.map((s) => s.toFixed(0)).join(' → ')}   last/first-loaded ratio ${(samples[samples.length - 1] / samples[1]).toFixed(2)}`);
  worker.kill('SIGTERM');
  await queue.close();
  redis.disconnect();
  receiver.close();
}

try {
  const redisUrl = await startRedis();
  log(`dialog-relay benchmark (node ${process.version}, Redis ${redisUrl})`);
  await syncBench(redisUrl);
  await deliveryBench(redisUrl);
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}
