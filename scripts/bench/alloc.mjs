// Allocations per request on the synchronous path (docs/design/performance.md "Allocations per request"):
// the API runs with --trace-gc on a private Redis; after a warm-up, each scenario sends a fixed
// number of requests and the memory the garbage collector freed meanwhile (the sum of "before ->
// after" of every collection: in a steady state what is freed is what was allocated) is divided
// by the requests. A same-run baseline: the bare Express app of the sync phase, measured the same way.
// Run after a build: node scripts/bench/alloc.mjs (BENCH_ALLOC_REQUESTS, default 4000 per scenario).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, pool } from './load.mjs';
import { freePort, killAll, serviceEnv, sleep, stop, track } from './processes.mjs';
import { startReceiver } from './receiver.mjs';
import { bareBody, clientsEnv, createSigner, loadMessages } from './traffic.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REQUESTS = Number(process.env.BENCH_ALLOC_REQUESTS ?? 4000);
const { signRequestBody } = await import(join(root, 'packages/signing/dist/src/index.js'));
const { startRedisServer } = await import(join(root, 'packages/testkit/dist/src/index.js'));

/** A process started with --trace-gc; freedMiB() is what its collections have freed so far. */
async function traced(args, env, port) {
  let freed = 0;
  let rest = '';
  const child = track(
    spawn(process.execPath, ['--trace-gc', ...args], {
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    }),
  );
  child.stdout.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const gc = /(Scavenge|Mark-Compact|Minor Mark-Compact)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/.exec(line);
      if (gc) freed += Math.max(0, Number(gc[2]) - Number(gc[3]));
    }
  });
  let up = false;
  child.once('message', () => {
    up = true;
  }); // the bare server says 'ready'; the API answers /healthz
  for (let i = 0; i < 300 && !up; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      /* not up yet */
    }
    await sleep(50);
  }
  return { child, freedMiB: () => freed, url: `http://127.0.0.1:${port}` };
}

const perRequest = async (server, next) => {
  await load(server.url, next, { amount: 1000 }); // warm-up
  await sleep(200);
  const before = server.freedMiB();
  const result = await load(server.url, next, { amount: REQUESTS });
  await sleep(200);
  return { kib: ((server.freedMiB() - before) * 1024) / result.requests.total, errors: result.errors + result.non2xx };
};

const receiver = await startReceiver();
const redis = await startRedisServer();
try {
  const messages = loadMessages(root);
  const sign = createSigner(signRequestBody, messages, 'alloc');
  const barePort = await freePort();
  const bare = await traced([join(root, 'scripts/bench/bare-server.mjs')], { ...process.env, REDIS_URL: '' }, barePort);
  const bareResult = await perRequest(bare, pool(0, bareBody));
  await stop(bare.child);
  const api = await traced(
    [join(root, 'apps/api/dist/src/main.js')],
    serviceEnv({ url: redis.url }, { REDIS_PREFIX: `bench-alloc-${randomUUID().slice(0, 6)}:`, CLIENTS: clientsEnv(receiver.base) }),
    await freePort(),
  );
  const rows = [`bare Express ${bareResult.kib.toFixed(1)} KiB/request`];
  for (const [id, eventType, options] of [
    ['cmd', 'cmd_dialog', { content: 'auto_reply_status' }],
    ['website', 'website_dialog', {}],
    ['assist', 'assist_dialog', {}],
    ['auto_accept', 'auto_dialog', { sendUrl: `${receiver.base}/hook` }],
  ]) {
    const result = await perRequest(
      api,
      pool(REQUESTS + 1000, (i) => sign(eventType, { ...options, customer: `${id}-${i % 3000}` })),
    );
    rows.push(`${id} ${result.kib.toFixed(1)} KiB/request${result.errors ? ` (${result.errors} errors)` : ''}`);
  }
  await stop(api.child);
  process.stdout.write(`allocations per request (freed by GC, ${REQUESTS} requests each): ${rows.join(', ')}\n`);
} finally {
  killAll();
  await redis.stop?.();
  await receiver.close?.();
}
process.exit(0);
