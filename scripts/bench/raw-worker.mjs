// Baseline for delivery: a raw BullMQ worker whose processor POSTs the job's data as JSON with got
// (the baseline), or with node's http.request when RAW_CLIENT=http (the client the service's
// deliveries use since the thirteenth session: docs/dependencies.md).
// Its connection speaks RESP2, as the service's own do (packages/redis): like is compared with like.
import { Worker } from 'bullmq';
import got from 'got';
import { Agent, request } from 'node:http';
import { Redis } from 'ioredis';

const connection = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: null, protocol: 2 });
const agent = { http: new Agent({ keepAlive: true, maxSockets: 256 }) };
/** One POST of `data` as JSON through http.request, failing on a status past 2xx or after 10 s. */
const postWithNode = (data) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify(data);
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const post = request(process.env.RECEIVER, { method: 'POST', agent: agent.http, headers, timeout: 10_000 }, (answer) =>
      answer.resume().on('end', () => (answer.statusCode < 300 ? resolve() : reject(new Error(`HTTP ${answer.statusCode}`)))),
    );
    post.on('timeout', () => post.destroy(new Error('timeout'))).on('error', reject);
    post.end(body);
  });
const worker = new Worker(
  process.env.QUEUE,
  process.env.RAW_CLIENT === 'http'
    ? (job) => postWithNode(job.data)
    : async (job) => {
        await got.post(process.env.RECEIVER, { json: job.data, agent, retry: { limit: 0 }, timeout: { request: 10_000 } });
      },
  { connection, prefix: process.env.PREFIX, concurrency: Number(process.env.CONCURRENCY) },
);
worker.on('error', () => undefined);
await worker.waitUntilReady();
process.send?.('ready');
process.on('SIGTERM', async () => {
  await worker.close();
  connection.disconnect();
  process.exit(0);
});
