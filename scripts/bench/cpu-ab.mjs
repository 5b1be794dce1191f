// `node scripts/bench/cpu-ab.mjs <checkout A> [<checkout B> ...]`: CPU time per request (the API, each
// scenario) and per delivered reply (one worker), measured from /proc for builds of several checkouts,
// alternated round after round on one private Redis, so that a shared, loaded machine weighs on every
// build alike. CPU time moves far less with the machine's load than requests/s (docs/design/performance.md).
// Each checkout must be built. CPU_AB_ROUNDS (2), CPU_AB_REQUESTS per scenario (4000), CPU_AB_REPLIES (3000).
// `<checkout>::<node flags and NAME=value settings>` runs that checkout's API and worker with those flags
// and settings, so one checkout can be measured against itself: `. '.::--max-semi-space-size=64 HEAP_GROWING_PERCENT=0'`.
// Loopback only; every run is bounded by a request count and every wait by a time-out.
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuUs } from './cpu.mjs';
import { load, pool } from './load.mjs';
import { forkReady, freePort, killAll, serviceEnv, sleep, startApi, startWorker, stop } from './processes.mjs';
import { startReceiver } from './receiver.mjs';
import { bareBody, clientsEnv, createSigner, loadMessages } from './traffic.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), '../..');
const variants = process.argv.slice(2).map((arg) => {
  const [root = '.', flags = '', ...extra] = arg.split('::');
  const words = flags.split(' ').filter(Boolean);
  // each word a node flag (-…) or a setting NAME=value: anything else is refused, not guessed at
  const bad = [...extra.map((rest) => `::${rest}`), ...words.filter((w) => !w.startsWith('-') && !/^[A-Z_][A-Z0-9_]*=/.test(w))];
  if (bad.length > 0) {
    process.stderr.write(`cpu-ab: in "${arg}", not a node flag (-…) or a NAME=value setting: ${bad.join(' ')}\n`);
    process.exit(64);
  }
  const env = Object.fromEntries(
    words.filter((w) => !w.startsWith('-')).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
  );
  return { label: arg, root: resolve(root), nodeArgs: words.filter((w) => w.startsWith('-')), env };
});
if (variants.length === 0) variants.push({ label: here, root: here, nodeArgs: [], env: {} });
const ROUNDS = Number(process.env.CPU_AB_ROUNDS ?? 2);
const REQUESTS = Number(process.env.CPU_AB_REQUESTS ?? 4000);
const REPLIES = Number(process.env.CPU_AB_REPLIES ?? 3000);
const { signRequestBody } = await import(join(here, 'packages/signing/dist/src/index.js'));
const { startRedisServer } = await import(join(here, 'packages/testkit/dist/src/index.js'));
const log = (line) => process.stdout.write(`${line}\n`);

/** CPU µs per request of `pid` over `amount` requests (after a warm-up of a quarter as many). */
async function cpuPerRequest(url, pid, next, amount) {
  const warm = await load(url, next, { amount: Math.ceil(amount / 4) });
  await sleep(100);
  const before = processCpuUs(pid);
  const result = await load(url, next, { amount });
  const after = processCpuUs(pid);
  const failed = result.errors + result.timeouts + result.non2xx;
  return { us: (after - before) / result.requests.total, failed, accepted: warm['2xx'] + result['2xx'] };
}

const receiver = await startReceiver();
const redis = await startRedisServer();
const results = new Map(variants.map((v) => [v.label, []]));
try {
  const messages = loadMessages(here);
  const sign = createSigner(signRequestBody, messages, 'ab');
  for (let round = 0; round < ROUNDS; round++) {
    const barePort = await freePort();
    const bare = await forkReady(join(here, 'scripts/bench/bare-server.mjs'), { PORT: String(barePort), REDIS_URL: '' });
    const bareUs = await cpuPerRequest(`http://127.0.0.1:${barePort}`, bare.pid, pool(0, bareBody), REQUESTS);
    await stop(bare);
    log(`round ${round + 1}: bare Express ${bareUs.us.toFixed(0)} µs/request`);
    for (const { label, root, nodeArgs, env: settings } of variants) {
      const env = serviceEnv(
        { url: redis.url },
        { REDIS_PREFIX: `ab-${randomUUID().slice(0, 6)}:`, CLIENTS: clientsEnv(receiver.base), WORKER_CONCURRENCY: '50', ...settings },
      );
      const api = await startApi(root, env, nodeArgs);
      const row = { bare: bareUs.us };
      let autoAccepted = 0;
      for (const [id, eventType, options] of [
        ['assist', 'assist_dialog', {}],
        ['website', 'website_dialog', {}],
        ['cmd', 'cmd_dialog', { content: 'auto_reply_status' }],
        ['auto', 'auto_dialog', { sendUrl: `${receiver.base}/hook` }],
      ]) {
        const r = await cpuPerRequest(
          api.url,
          api.child.pid,
          pool(0, (i) => sign(eventType, { ...options, customer: id === 'auto' ? `${id}-${round}-${i}` : `${id}-${round}-${i % 3000}` })),
          REQUESTS,
        );
        row[id] = r.us;
        if (id === 'auto') autoAccepted = r.accepted;
        if (r.failed) row[`${id}_failed`] = r.failed;
      }
      // Replies: one per conversation (a reply answers one message), accepted while no worker runs, with
      // the auto scenario's; then one worker delivers them all: its CPU from the first delivery to the last.
      const autos = (
        await load(
          api.url,
          pool(0, (i) => sign('auto_dialog', { customer: `r-${round}-${i}`, sendUrl: `${receiver.base}/hook` })),
          { amount: REPLIES },
        )
      )['2xx'];
      const queued = autos + autoAccepted;
      const base = receiver.state.received;
      const worker = startWorker(root, env, nodeArgs);
      await receiver.until(base + 1, 60_000);
      const cpuBefore = processCpuUs(worker.pid);
      const first = receiver.state.received;
      await receiver.until(base + queued, 300_000);
      row.reply = (processCpuUs(worker.pid) - cpuBefore) / (receiver.state.received - first);
      if (autos !== REPLIES) row.auto_refused = REPLIES - autos;
      await stop(worker);
      await stop(api.child);
      results.get(label).push(row);
      log(
        `  ${label}: ${Object.entries(row)
          .map(([k, v]) => `${k} ${typeof v === 'number' ? v.toFixed(0) : v}`)
          .join(', ')}`,
      );
    }
  }
  log('\nmean µs (per request; reply: per delivered reply):');
  for (const [label, rows] of results) {
    const keys = Object.keys(rows[0]);
    log(`  ${label}: ${keys.map((k) => `${k} ${(rows.reduce((s, r) => s + (r[k] ?? 0), 0) / rows.length).toFixed(0)}`).join(', ')}`);
  }
} finally {
  killAll();
  await receiver.close();
  await redis.dispose();
}
process.exit(0);
