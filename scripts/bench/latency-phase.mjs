// 3. accept→delivered latency at a fixed rate over 200 conversations, against raw BullMQ
// add→delivered at the same rate; 4. stop_auto_reply under that load.
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { processCpuUs, redisCpuUs } from './cpu.mjs';
import { failures, load, paced, pool } from './load.mjs';
import { sleep, startPhaseService, startRawWorker, stop } from './processes.mjs';

const CONVERSATIONS = 200;

/**
 * CPU time of each process while paced traffic runs (docs/design/performance-log.md, tenth session):
 * the named child processes' (from /proc), Redis's own (INFO cpu) and this process's, the bench's
 * sender and receiver. `per(messages)` gives µs per message since the meter started, or null
 * where a reading is missing (not Linux).
 */
async function cpuMeter(redisUrl, pids) {
  const probe = new Redis(redisUrl, { protocol: 2 });
  const read = async () => ({
    ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processCpuUs(pid)])),
    redis: await redisCpuUs(probe),
    bench: (({ user, system }) => user + system)(process.cpuUsage()),
  });
  const before = await read();
  return {
    async per(messages) {
      const after = await read();
      probe.disconnect();
      return Object.fromEntries(
        Object.keys(after).map((name) => [
          name,
          before[name] === null || after[name] === null ? null : (after[name] - before[name]) / messages,
        ]),
      );
    },
  };
}
const ms = (histogram, p) => histogram.getValueAtPercentile(p) / 1000;

/** Raw BullMQ: jobs added at `rate`/s (the clock of each starts when its add resolved). */
export async function rawLatency({ root, redis, receiver }, rate, count) {
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null, protocol: 2 });
  const prefix = `bench-rawlat-${randomUUID().slice(0, 6)}`;
  const queue = new Queue('raw', { connection, prefix });
  const worker = await startRawWorker({ root, redis, receiver }, prefix);
  const add = (key) => queue.add('deliver', { key, text: 'warm' }, { removeOnComplete: true });
  let start = receiver.state.received;
  await Promise.all(Array.from({ length: CONVERSATIONS }, (_, i) => add(`warm-${i}`)));
  await receiver.until(start + CONVERSATIONS, 30_000);
  const histogram = receiver.measure();
  start = receiver.state.received;
  const meter = await cpuMeter(redis.url, { worker: worker.pid });
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const key = `raw-${i}`;
    void add(key).then(() => receiver.accept(key));
  }
  await receiver.until(start + count, 60_000);
  const cpuUs = await meter.per(count);
  await stop(worker);
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  return { p50: ms(histogram, 50), p99: ms(histogram, 99), bySecond: receiver.bySecond(), cpuUs };
}

/**
 * dialog-relay: auto_dialog accepted at `rate`/s over 200 conversations (clock from the 202), one
 * worker; meanwhile `stops` other conversations get a message to a slow receiver and then
 * stop_auto_reply, and every attempt reaching the receiver after the stop's answer is counted.
 */
export async function ourLatency({ root, redis, receiver, sign, clients }, rate, count, stops) {
  const { api, worker } = await startPhaseService({ root, redis, clients }, 'e2e');
  const run = randomUUID().slice(0, 4);
  const customer = (i) => `e2e-${run}-${i % CONVERSATIONS}`;
  let start = receiver.state.received;
  const warm = await load(
    api.url,
    pool(CONVERSATIONS, (i) => sign('auto_dialog', { customer: customer(i), sendUrl: `${receiver.base}/hook` })),
    { amount: CONVERSATIONS },
  );
  await receiver.until(start + warm['2xx'], 30_000);

  const histogram = receiver.measure();
  start = receiver.state.received;
  // The stops' 60 requests and 20 replies are counted in the CPU too: about 1 % of the messages.
  const meter = await cpuMeter(redis.url, { api: api.child.pid, worker: worker.pid });
  let accepted = 0;
  // Paced evenly, as the raw baseline adds its jobs: the same traffic shape on both sides of the ratio.
  const traffic = paced(
    api.url,
    pool(count, (i) => sign('auto_dialog', { customer: customer(i), sendUrl: `${receiver.base}/hook` })),
    {
      amount: count,
      rate,
      onAnswer: (msgId, status) => {
        if (status === 202) {
          accepted += 1;
          receiver.accept(msgId);
        }
      },
    },
  );
  const stopping = stopUnderLoad(api.url, receiver, sign, run, stops, (count / rate) * 1000);
  const [result, stopResult] = await Promise.all([traffic, stopping]);
  await receiver.until(start + accepted, 60_000);
  const cpuUs = await meter.per(count);
  await stop(worker);
  await stop(api.child);
  return {
    cpuUs,
    p50: ms(histogram, 50),
    p99: ms(histogram, 99),
    bySecond: receiver.bySecond(),
    errors: failures(result) + stopResult.errors,
    attemptsAfter: stopResult.attemptsAfter,
    stops,
  };
}

async function post(url, body) {
  const response = await fetch(`${url}/custom-im/chat-messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, json: await response.json() };
}

async function stopUnderLoad(url, receiver, sign, run, stops, windowMs) {
  const { conversationIdOf } = await import(new URL('../../packages/conversations/dist/src/index.js', import.meta.url).href);
  let errors = 0;
  const answers = [];
  const spacing = windowMs / (stops + 1);
  await Promise.all(
    Array.from({ length: stops }, async (_, k) => {
      await sleep(spacing * (k + 0.5));
      const customer = `stop-${run}-${k}`;
      const first = await post(url, sign('auto_dialog', { customer, sendUrl: `${receiver.base}/slow` }).body);
      if (first.status !== 202) errors += 1;
      await sleep((k * 97) % 600); // 0–600 ms: before, during and after the attempt begins
      const answer = await post(url, sign('cmd_dialog', { customer, content: 'stop_auto_reply' }).body);
      const answeredAt = performance.now();
      if (answer.status !== 200) errors += 1;
      const later = await post(url, sign('auto_dialog', { customer, sendUrl: `${receiver.base}/slow` }).body);
      if (later.status !== 202 || later.json.data?.status !== 'suppressed') errors += 1;
      answers.push({ conversation: conversationIdOf('bench', { from_user_id: `cust-${customer}`, to_user_id: 'bench-bot' }), answeredAt });
    }),
  );
  await sleep(1500); // any attempt the stop failed to prevent would arrive within this
  const attemptsAfter = answers.reduce(
    (sum, { conversation, answeredAt }) => sum + (receiver.state.slowArrivals.get(conversation) ?? []).filter((t) => t > answeredAt).length,
    0,
  );
  return { errors, attemptsAfter };
}
