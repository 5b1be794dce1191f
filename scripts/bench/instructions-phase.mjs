// 8. Redis's instructions per message: phase 2's two runs (raw BullMQ + got, dialog-relay) on a
// redis-server under callgrind (callgrind-redis.mjs), counted over the same windows as phase 2's
// Redis CPU: from the raw add (or our first accept) to the last delivery; then per synchronous
// request of phase 1's cmd, website and assist figures. Instructions leave out the
// kernel's socket work, so the ratio is not the CPU ratio; it is the one that tells two builds apart
// on a noisy host (docs/design/performance-log.md, seventh session).
import { startCallgrindRedis } from './callgrind-redis.mjs';
import { ourDeliveries, rawDeliveries } from './delivery-phase.mjs';
import { failures, load, pool } from './load.mjs';
import { phaseEnv, startApi, stop } from './processes.mjs';

/** The synchronous requests counted after the deliveries: phase 1's, by figure. */
const SYNC = [
  ['cmd', 'cmd_dialog', { content: 'auto_reply_status' }],
  ['website', 'website_dialog', {}],
  ['assist', 'assist_dialog', {}],
];

/**
 * Phase 1's synchronous requests on the same server, one figure after the other: each warmed with
 * 200 requests, then `count` counted (8 connections, 100 conversations), its window ended by a mark.
 */
async function syncRequests({ root, receiver, sign, clients }, server, count) {
  const api = await startApi(root, phaseEnv({ url: server.url }, clients, 'instr'));
  let errors = 0;
  try {
    for (const [figure, eventType, options] of SYNC) {
      const next = (i) => sign(eventType, { ...options, customer: `instr-${figure}-${i % 100}` });
      errors += failures(await load(api.url, pool(200, next), { amount: 200, connections: 8 }));
      await server.at(`sync-${figure}-warm`);
      errors += failures(await load(api.url, pool(count, next), { amount: count, connections: 8 }));
      await server.at(`sync-${figure}`);
    }
  } finally {
    await stop(api.child);
  }
  return errors;
}

/** Instructions per message of each window of a run: { [window]: instructions / count }. */
function perMessage(windows, names, count) {
  const byLabel = new Map(windows.map((w) => [w.label, w.instructions]));
  return Object.fromEntries(names.map(([name, label]) => [name, (byLabel.get(label) ?? Number.NaN) / count]));
}

export async function instructionsPhase(ctx, count) {
  const server = await startCallgrindRedis();
  const prefixed = (prefix) => ({ at: (label) => server.at(`${prefix}-${label}`) });
  let ours;
  let syncErrors = 0;
  let windows = [];
  try {
    await rawDeliveries({ ...ctx, redis: { url: server.url } }, count, prefixed('raw'));
    ours = await ourDeliveries(ctx, { url: server.url }, count, count / 10, prefixed('ours'));
    syncErrors = await syncRequests(ctx, server, count);
  } finally {
    windows = await server.dispose();
  }
  const raw = perMessage(
    windows,
    [
      ['add', 'raw-added'],
      ['process', 'raw-done'],
    ],
    count,
  );
  const our = perMessage(
    windows,
    [
      ['accept', 'ours-accepted'],
      ['delivery', 'ours-done'],
    ],
    count,
  );
  return {
    errors: ours.errors + syncErrors,
    raw: { ...raw, total: raw.add + raw.process },
    ours: { ...our, total: our.accept + our.delivery },
    sync: perMessage(
      windows,
      SYNC.map(([figure]) => [figure, `sync-${figure}`]),
      count,
    ),
  };
}
