// 2. Delivery throughput: one dialog-relay worker at WORKER_CONCURRENCY=50 against a raw BullMQ
// worker (concurrency 50) POSTing with got to the same loopback receiver; the clock runs from the
// first delivery to the last, for both alike.
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { perUnit, processCpuUs, redisCpuUs } from './cpu.mjs';
import { failures, load, pool } from './load.mjs';
import { phaseEnv, startApi, startRawWorker, startWorker, stop } from './processes.mjs';

/** No marks: `marks.at(label)` is awaited where a window of the run begins or ends (instructions-phase.mjs). */
const NO_MARKS = { at: async () => undefined };

/**
 * Raw BullMQ: `count` jobs added up front, then the worker starts. Returns deliveries/s and Redis's
 * own CPU per job, from before the add to the last delivery (marks: start, added, done). `client`: the
 * raw worker's HTTP client, 'got' or 'http' (startRawWorker).
 */
export async function rawDeliveries({ root, redis, receiver, messages }, count, marks = NO_MARKS, client = 'got') {
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null, protocol: 2 });
  const prefix = `bench-raw-${randomUUID().slice(0, 6)}`;
  const queue = new Queue('raw', { connection, prefix });
  await queue.waitUntilReady();
  const redisCpuBefore = await redisCpuUs(connection);
  await marks.at('start');
  await queue.addBulk(
    Array.from({ length: count }, (_, i) => ({
      name: 'deliver',
      data: { key: `raw-${i}`, text: messages[i % messages.length].text },
      opts: { removeOnComplete: true },
    })),
  );
  await marks.at('added');
  const start = receiver.state.received;
  const worker = await startRawWorker({ root, redis, receiver }, prefix, client);
  await receiver.until(start + 1, 30_000);
  const t0 = performance.now();
  await receiver.until(start + count, 120_000);
  const rate = (count - 1) / ((performance.now() - t0) / 1000);
  const redisCpu = perUnit(redisCpuBefore, await redisCpuUs(connection), count);
  await marks.at('done');
  await stop(worker);
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  return { rate, redisCpu };
}

/**
 * dialog-relay: `count` auto_dialog messages over `conversations` conversations accepted by the API
 * while no worker runs, then one worker starts. Returns deliveries/s, the accept errors, the worker's
 * CPU per reply (first delivery to last) and Redis's own CPU per message (before the first accept to
 * the last delivery; one Redis only; marks: start, accepted, done).
 */
export async function ourDeliveries({ root, receiver, sign, clients }, redis, count, conversations, marks = NO_MARKS) {
  const env = phaseEnv(redis, clients, 'dlv');
  const api = await startApi(root, env);
  const probe = redis.url ? new Redis(redis.url, { protocol: 2 }) : undefined;
  const redisCpuBefore = probe ? await redisCpuUs(probe) : null;
  const run = randomUUID().slice(0, 4);
  await marks.at('start');
  const accepted = await load(
    api.url,
    pool(count, (i) => sign('auto_dialog', { customer: `dlv-${run}-${i % conversations}`, sendUrl: `${receiver.base}/hook` })),
    { amount: count },
  );
  await marks.at('accepted');
  await stop(api.child);
  const start = receiver.state.received;
  const expected = accepted['2xx'];
  const worker = startWorker(root, env);
  await receiver.until(start + 1, 30_000);
  const t0 = performance.now();
  const cpuFirst = processCpuUs(worker.pid);
  await receiver.until(start + expected, 180_000);
  const rate = (expected - 1) / ((performance.now() - t0) / 1000);
  const workerCpu = perUnit(cpuFirst, processCpuUs(worker.pid), expected - 1);
  const redisCpu = probe ? perUnit(redisCpuBefore, await redisCpuUs(probe), expected) : null;
  await marks.at('done');
  probe?.disconnect();
  await stop(worker);
  return { rate, errors: failures(accepted), workerCpu, redisCpu };
}
