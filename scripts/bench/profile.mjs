// `node scripts/bench/profile.mjs`: CPU profiles (node --cpu-prof) of the request path (the API under
// assist, website, cmd and auto_dialog load) and of the delivery path (one worker delivering), written
// to .data/profiles/, with the functions of most self time printed. Loopback only, bounded.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { load, pool } from './load.mjs';
import { killAll, serviceEnv, startApi, startWorker, stop } from './processes.mjs';
import { startReceiver } from './receiver.mjs';
import { clientsEnv, createSigner, loadMessages } from './traffic.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const { signRequestBody } = await import(join(root, 'packages/signing/dist/src/index.js'));
const { startRedisServer } = await import(join(root, 'packages/testkit/dist/src/index.js'));
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 4);
const DELIVERIES = Number(process.env.PROFILE_DELIVERIES ?? 4000);
const TOP = Number(process.env.PROFILE_TOP ?? 25);
// PROFILE_ONLY=cmd_dialog,auto_dialog: profile those scenarios of the API only, and no worker
const ONLY = process.env.PROFILE_ONLY?.split(',');
// BENCH_NODE_ARGS (processes.mjs) go before the profiler's flags, as the bench passes them
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const log = (line) => process.stdout.write(`${line}\n`);

/** Self time per function (and per file group) of the newest profile in `dir`. */
function summarise(dir, title) {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const dt = new Map();
  for (let i = 0; i < profile.samples.length; i++)
    dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const total = [...dt.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byGroup = new Map();
  for (const node of profile.nodes) {
    const self = dt.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      .replace(/^file:\/\//, '')
      .replace(root, '')
      .replace(/^\/node_modules\//, '');
    const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + self);
    const group = !url
      ? functionName
      : url.startsWith('node:')
        ? 'node internals'
        : where.startsWith('/packages/') || where.startsWith('/apps/')
          ? where.split('/').slice(1, 3).join('/')
          : where
              .split('/')
              .slice(0, where.startsWith('@') ? 2 : 1)
              .join('/');
    byGroup.set(group, (byGroup.get(group) ?? 0) + self);
  }
  const pct = (v) => `${((v / total) * 100).toFixed(1).padStart(5)} %`;
  log(`\n${title}: ${join(dir, file).replace(root + '/', '')} (${(total / 1e6).toFixed(1)} s sampled)`);
  log('  by package:');
  for (const [group, v] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, 15)) log(`   ${pct(v)}  ${group}`);
  log('  by function (self time):');
  for (const [key, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) log(`   ${pct(v)}  ${key}`);
}

const receiver = await startReceiver();
const redis = await startRedisServer();
try {
  const messages = loadMessages(root);
  const sign = createSigner(signRequestBody, messages, 'p');
  const clients = clientsEnv(receiver.base);
  const env = serviceEnv(
    { url: redis.url },
    { REDIS_PREFIX: `profile-${randomUUID().slice(0, 6)}:`, CLIENTS: clients, WORKER_CONCURRENCY: '50' },
  );
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const apiDir = join(root, '.data/profiles', `api-${stamp}`);
  const workerDir = join(root, '.data/profiles', `worker-${stamp}`);
  mkdirSync(apiDir, { recursive: true });
  mkdirSync(workerDir, { recursive: true });

  const api = await startApi(root, env, [...NODE_ARGS, '--cpu-prof', '--cpu-prof-dir', apiDir]);
  let autos = 0;
  for (const [eventType, options] of [
    ['assist_dialog', {}],
    ['website_dialog', {}],
    ['cmd_dialog', { content: 'auto_reply_status' }],
    ['auto_dialog', { sendUrl: `${receiver.base}/hook` }],
  ]) {
    if (ONLY && !ONLY.includes(eventType)) continue;
    const result = await load(
      api.url,
      pool(3000 * SECONDS, (i) => sign(eventType, { ...options, customer: `${eventType}-${i % 3000}` })),
      { duration: SECONDS },
    );
    if (eventType === 'auto_dialog') autos = result['2xx'];
    log(`${eventType}: ${result.requests.average.toFixed(0)} req/s`);
  }
  if (ONLY) {
    await stop(api.child);
    summarise(apiDir, 'request path (API)');
  } else await profileBoth({ api, autos, sign, env, apiDir, workerDir });
} finally {
  killAll();
  await receiver.close();
  await redis.dispose();
}

/** The rest of the auto_dialog messages, then one worker delivering them all, profiled. */
async function profileBoth({ api, autos, sign, env, apiDir, workerDir }) {
  const extra = DELIVERIES - autos;
  const more =
    extra > 0
      ? (
          await load(
            api.url,
            pool(extra, (i) => sign('auto_dialog', { customer: `more-${i % 400}`, sendUrl: `${receiver.base}/hook` })),
            { amount: extra },
          )
        )['2xx']
      : 0;
  await stop(api.child);
  summarise(apiDir, 'request path (API)');

  const start = receiver.state.received;
  const worker = startWorker(root, env, [...NODE_ARGS, '--cpu-prof', '--cpu-prof-dir', workerDir]);
  await receiver.until(start + autos + more, 180_000);
  await stop(worker);
  log(`delivered ${receiver.state.received - start}`);
  summarise(workerDir, 'delivery path (worker)');
}
