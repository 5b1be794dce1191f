// 5. Memory: API and worker RSS after `small` and after `large` requests of a mix of every scenario
// (the auto_dialog share delivered by the worker before each sample).
import { randomUUID } from 'node:crypto';
import { failures, load, pool } from './load.mjs';
import { rssMiB, startPhaseService, stop } from './processes.mjs';

const CHUNK = 25_000;
const MIX = [
  'assist_dialog',
  'assist_dialog',
  'assist_dialog',
  'website_dialog',
  'website_dialog',
  'auto_dialog',
  'auto_dialog',
  'auto_dialog',
  'cmd_dialog',
  'website_dialog',
];

export async function memoryPhase({ root, redis, receiver, sign, clients, log }, small, large) {
  const { api, worker } = await startPhaseService({ root, redis, clients }, 'mem');
  const run = randomUUID().slice(0, 4);
  const make = (i) => {
    const eventType = MIX[i % MIX.length];
    const options =
      eventType === 'cmd_dialog'
        ? { content: 'auto_reply_status' }
        : eventType === 'auto_dialog'
          ? { sendUrl: `${receiver.base}/hook` }
          : {};
    return sign(eventType, { ...options, customer: `mem-${run}-${i % 5000}` });
  };
  let errors = 0;
  let sent = 0;
  let due = receiver.state.received;
  const stage = async (count) => {
    const t0 = performance.now();
    const statuses = new Map();
    let rate = 0;
    // The API closes a keep-alive connection after 1,000 requests; autocannon keeps writing to it and
    // gets Node's 503s, so the stage runs in chunks of at most 25,000 requests, each on new connections.
    for (let done = 0; done < count; done += CHUNK) {
      const size = Math.min(CHUNK, count - done);
      const result = await load(
        api.url,
        pool(size, (i) => make(sent + done + i)),
        {
          amount: size,
          onAnswer: (_id, status) => {
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status === 202) due += 1;
          },
        },
      );
      errors += failures(result);
      rate += (result.requests.average * size) / count;
      if (result.non2xx > 0) log(`   answers by status: ${[...statuses].map(([status, n]) => `${status}: ${n}`).join(', ')}`);
    }
    sent += count;
    await receiver.until(due, 120_000);
    const sample = { requests: sent, api: rssMiB(api.child.pid), worker: rssMiB(worker.pid), seconds: (performance.now() - t0) / 1000 };
    log(`   after ${sent} requests (${rate.toFixed(0)} req/s): API ${sample.api.toFixed(0)} MiB, worker ${sample.worker.toFixed(0)} MiB`);
    return sample;
  };
  const first = await stage(small);
  const last = await stage(large - small);
  await stop(worker);
  await stop(api.child);
  return { first, last, errors };
}
