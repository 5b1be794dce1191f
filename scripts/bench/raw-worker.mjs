// Baseline for delivery: a raw BullMQ worker whose processor POSTs the job's data as JSON with got.
// Its connection speaks RESP2, as the service's own do (packages/redis): like is compared with like.
import { Worker } from 'bullmq';
import got from 'got';
import { Agent } from 'node:http';
import { Redis } from 'ioredis';

const connection = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: null, protocol: 2 });
const agent = { http: new Agent({ keepAlive: true, maxSockets: 256 }) };
const worker = new Worker(
  process.env.QUEUE,
  async (job) => {
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
