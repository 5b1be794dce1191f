// 8. Redis's instructions per message: phase 2's two runs (raw BullMQ + got, dialog-relay) on a
// redis-server under callgrind (callgrind-redis.mjs), counted over the same windows as phase 2's
// Redis CPU: from the raw add (or our first accept) to the last delivery. Instructions leave out the
// kernel's socket work, so the ratio is not the CPU ratio; it is the one that tells two builds apart
// on a noisy host (docs/design/performance-log.md, seventh session).
import { startCallgrindRedis } from './callgrind-redis.mjs';
import { ourDeliveries, rawDeliveries } from './delivery-phase.mjs';

/** Instructions per message of each window of a run: { [window]: instructions / count }. */
function perMessage(windows, names, count) {
  const byLabel = new Map(windows.map((w) => [w.label, w.instructions]));
  return Object.fromEntries(names.map(([name, label]) => [name, (byLabel.get(label) ?? Number.NaN) / count]));
}

export async function instructionsPhase(ctx, count) {
  const server = await startCallgrindRedis();
  const prefixed = (prefix) => ({ at: (label) => server.at(`${prefix}-${label}`) });
  let ours;
  let windows = [];
  try {
    await rawDeliveries({ ...ctx, redis: { url: server.url } }, count, prefixed('raw'));
    ours = await ourDeliveries(ctx, { url: server.url }, count, count / 10, prefixed('ours'));
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
    errors: ours.errors,
    raw: { ...raw, total: raw.add + raw.process },
    ours: { ...our, total: our.accept + our.delivery },
  };
}
