// `node scripts/bench/gc-promotion.mjs`: how much of what a client library allocates V8's scavenger
// promotes to the old generation, and how long each scavenge pauses, for the clients on our hot
// paths alone and for the V8 behaviours behind it (docs/design/performance-log.md, twelfth and
// thirteenth sessions; got's share comes from Node 24's Writable, whose onwrite closure is born old).
// A short-lived object should die young; a case whose promoted share stays high has objects that outlive two scavenges or are kept
// alive from dead old objects, and its scavenges pause for as long as copying them takes. Each case
// runs in a child of its own under --trace-gc-nvp for a few seconds after a warm-up that is left out.
// Loopback only: a private redis-server (the test kit's) and an HTTP server on 127.0.0.1.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const root = join(dirname(here), '../..');
const SECONDS = Number(process.env.GC_SECONDS ?? 4);
const WARM_UP_MS = 1500;

/** The workloads, each run alone in a child: a name, what it does, and whether it needs Redis. */
const CASES = {
  // One of the V8 behaviours behind them in plain JavaScript (100 objects every 1 ms); the other, a
  // function literal assigned to a property, moves the whole allocation to the old generation here,
  // so a share of scavenges does not show it (src/command-promise.ts in packages/redis says more).
  'an accessor defined on each object': { run: () => objectsLoop('accessor') },
  'no accessor': { run: () => objectsLoop('none') },
  'ioredis, back to back': { redis: true, run: (c) => redisLoop(c, {}, false) },
  'ioredis, 1 ms apart': { redis: true, run: (c) => redisLoop(c, {}, true) },
  'ioredis, 1 ms apart, lean command promise': { redis: true, run: (c) => redisLoop(c, {}, true, true) },
  'ioredis auto-pipelined, back to back': { redis: true, run: (c) => redisLoop(c, { enableAutoPipelining: true }, false) },
  'ioredis with commandTimeout, 1 ms apart': { redis: true, run: (c) => redisLoop(c, { commandTimeout: 5000 }, true) },
  'node:http POST, back to back': { run: () => httpLoop('http') },
  'got POST, back to back': { run: () => httpLoop('got') },
  // the deliver-garbage test's child: four loops of attempts through packages/delivery, 1 ms apart
  'packages/delivery deliverer, 1 ms apart': { script: 'packages/delivery/dist/test/support/paced-deliveries.js' },
};

/**
 * V8 allocates the pair of an accessor that Object.defineProperty creates in the old generation (and
 * a function literal assigned to a property): dead, it still points at the young objects its getter
 * closes over until a full collection, so those survive scavenges and are promoted.
 */
async function objectsLoop(kind) {
  const make = (payload) => {
    const o = { payload };
    if (kind === 'accessor') Object.defineProperty(o, 'size', { get: () => o.payload.length });
    return o;
  };
  let sink = 0;
  const end = performance.now() + WARM_UP_MS + SECONDS * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) sink += make(Array.from({ length: 20 }, (_, j) => ({ j, s: `x${j}` }))).payload.length;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return sink;
}

async function redisLoop({ url }, options, paced, lean = false) {
  if (lean) (await import(join(root, 'packages/redis/dist/src/index.js'))).installLeanCommandPromise();
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { protocol: 2, ...options });
  const end = performance.now() + WARM_UP_MS + SECONDS * 1000;
  while (performance.now() < end) {
    await redis.incr('gc-promotion');
    await redis.get('gc-promotion');
    if (paced) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  redis.disconnect();
}

async function httpLoop(client) {
  const server = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${server.address().port}/hook`;
  const agent = new http.Agent({ keepAlive: true });
  const body = JSON.stringify({ text: 'a reply', in_reply_to: ['m1'] });
  let post;
  if (client === 'got') {
    const { default: got } = await import('got');
    post = () =>
      got.post(target, {
        body,
        headers: { 'content-type': 'application/json' },
        agent: { http: agent },
        retry: { limit: 0 },
        timeout: { request: 10_000 },
      });
  } else {
    post = () =>
      new Promise((resolve, reject) => {
        const request = http.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) =>
          response.resume().on('end', resolve),
        );
        request.on('error', reject).end(body);
      });
  }
  const end = performance.now() + WARM_UP_MS + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < end) await post();
    }),
  );
  agent.destroy();
  server.close();
}

if (process.argv[2]) {
  // Start-up and warm-up are not measured: the scavenges after this mark are.
  const { measureFromLine } = await import(join(root, 'packages/testkit/dist/src/index.js'));
  setTimeout(() => process.stdout.write(measureFromLine()), WARM_UP_MS).unref();
  await CASES[process.argv[2]].run({ url: process.argv[3] });
} else {
  const gcTrace = await import(join(root, 'packages/testkit/dist/src/index.js'));
  const { startRedisServer } = gcTrace;
  const redis = await startRedisServer();
  try {
    console.log(`scavenges over ${SECONDS} s per case, after ${WARM_UP_MS} ms of warm-up (node ${process.version})`);
    console.log(`  ${'case'.padEnd(42)} ${'scavenges'.padStart(9)} ${'promoted of allocated'.padStart(22)} ${'median pause'.padStart(13)}`);
    for (const [name, spec] of Object.entries(CASES)) {
      const args = spec.script ? [join(root, spec.script)] : [here, name, spec.redis ? redis.url : ''];
      const child = spawnSync(process.execPath, ['--trace-gc-nvp', ...args], {
        encoding: 'utf8',
        cwd: root,
        env: { ...process.env, WARM_UP_SECONDS: String(WARM_UP_MS / 1000), SECONDS: String(SECONDS) },
      });
      const tail = gcTrace.scavengesAfterMark(child.stdout);
      const share = gcTrace.promotedShare(tail) * 100;
      const pause = gcTrace.medianPauseMs(tail);
      console.log(
        `  ${name.padEnd(42)} ${String(tail.length).padStart(9)} ${`${share.toFixed(1)} %`.padStart(22)} ${`${pause.toFixed(1)} ms`.padStart(13)}`,
      );
    }
  } finally {
    await redis.dispose();
  }
}
