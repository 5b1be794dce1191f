// `node scripts/bench/promoted-sites.mjs`: where the API and the worker allocate what outlives the
// scavenges at a paced rate. It runs phase 3's traffic (auto_dialog at PROMOTED_RATE, 500/s, for 10 s,
// API and worker) with both processes sampling their own heap (promoted-sites-preload.mjs: objects a
// mark-compact collected and those still live, never those that died young), then prints, per process,
// the bytes sampled by allocation stack (the four innermost frames). Such objects make the old
// generation grow between mark-compacts, and each mark-compact of the worker pauses it (the fourteenth
// session in docs/design/performance-log.md). PROMOTED_ALL=1 samples every allocation instead, those
// that died young too: where each message's bytes are made. Profiles stay in .data/promoted/. Loopback only, bounded.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = join(root, '.data/promoted', new Date().toISOString().replace(/[:.]/g, '-'));
mkdirSync(dir, { recursive: true });
process.env.PROMOTED_SITES_DIR = dir;
// read by processes.mjs when it is first imported: both services start with the preload
process.env.BENCH_NODE_ARGS =
  `${process.env.BENCH_NODE_ARGS ?? ''} --import=${join(root, 'scripts/bench/promoted-sites-preload.mjs')}`.trim();
const RATE = Number(process.env.PROMOTED_RATE ?? 500);
const TOP = Number(process.env.PROMOTED_TOP ?? 20);
const log = (line) => process.stdout.write(`${line}\n`);

const { ourLatency } = await import('./latency-phase.mjs');
const { killAll, sleep } = await import('./processes.mjs');
const { startReceiver } = await import('./receiver.mjs');
const { clientsEnv, createSigner, loadMessages } = await import('./traffic.mjs');
const { signRequestBody } = await import(join(root, 'packages/signing/dist/src/index.js'));
const { startRedisServer } = await import(join(root, 'packages/testkit/dist/src/index.js'));

/** Bytes sampled per allocation stack (innermost four frames) of one sampling heap profile. */
function sites(profile) {
  const bySite = new Map();
  let total = 0;
  const frame = ({ functionName, url, lineNumber }) =>
    `${functionName || '(anonymous)'} ${url
      .replace(/^file:\/\//, '')
      .replace(root, '')
      .replace(/^\/node_modules\//, '')}:${lineNumber + 1}`;
  const walk = (node, stack) => {
    stack.push(frame(node.callFrame));
    if (node.selfSize > 0) {
      total += node.selfSize;
      const site = stack.slice(-4).reverse().join(' < ');
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, stack);
    stack.pop();
  };
  walk(profile.head, []);
  return { total, bySite };
}

const receiver = await startReceiver();
const redis = await startRedisServer();
try {
  const messages = loadMessages(root);
  const sign = createSigner(signRequestBody, messages, 'promoted');
  const result = await ourLatency({ root, redis, receiver, sign, clients: clientsEnv(receiver.base) }, RATE, RATE * 10, 0);
  log(`paced run: ${RATE} messages/s for 10 s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
  await sleep(500);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.heapprofile'))
    .sort()) {
    const { total, bySite } = sites(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    log(
      `\n${file}: ${(total / 2 ** 20).toFixed(1)} MiB sampled (${process.env.PROMOTED_ALL === '1' ? 'all allocations' : 'outlived the scavenges'})`,
    );
    for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      log(`  ${(bytes / 2 ** 20).toFixed(2).padStart(6)} MiB  ${site}`);
  }
} finally {
  killAll();
  await redis.dispose();
  await receiver.close?.();
}
