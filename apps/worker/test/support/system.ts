import { buildApi, type Api } from '@dialog-relay/api';
import { loadConfig, type Config } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import { createRedis, createRedisKeys, waitForRedis, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { createDeliveryStore, type DeliveryStore } from '@dialog-relay/replies';
import { QUEUE_NAMES, turnJobId } from '@dialog-relay/queue';
import { registerApiUnderTest, testRedisEnv, uniquePrefix, waitUntil } from '@dialog-relay/testkit';
import { Queue } from 'bullmq';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postAsShop } from './ask-shop.js';

const WORKER_MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'main.js');
export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export interface System {
  apiUrl: string;
  api: Api;
  config: Config;
  keys: RedisKeys;
  env: Record<string, string>;
  /** What the in-process API logged at error level (e.g. the cause of a 500), one JSON line each. */
  apiErrors(): string[];
  workers: WorkerProcess[];
  startWorker(): WorkerProcess;
  send(
    info: Record<string, unknown>,
    top?: Record<string, unknown>,
  ): Promise<{ status: number; headers: Headers; json: { data?: Record<string, unknown>; error?: string } }>;
  /** The bound account sends `content` as a command (cmd_dialog) in `customer`'s conversation: auto_reply_status, stop_auto_reply, … */
  command(customer: { from_user_id: string; to_user_id: string }, content: string): ReturnType<System['send']>;
  /** A request connection to the system's Redis (ready when the system is), closed with the system. */
  redis(): Redis;
  /** The reply protocol's delivery store over the system's keys (on redis()). */
  deliveries(): DeliveryStore;
  /** BullMQ's state of a conversation's turn job ('completed', 'active', 'delayed', …; 'unknown' when there is none). */
  turnJobState(conversationId: string, generation: number): Promise<string>;
  /** The progress BullMQ keeps for a conversation's turn job (why it waits after a failed attempt); undefined when there is no job. */
  turnJobProgress(conversationId: string, generation: number): Promise<unknown>;
  close(): Promise<void>;
}

let sequence = 0;
let failures = 0;

// A root-level hook (registered when a spec imports this module): once a test has failed, the
// workers' logs are printed when their system closes, so a red CI run shows what the workers saw.
afterEach(function () {
  if (this.currentTest?.state === 'failed') failures += 1;
});
const failed = (): boolean => failures > 0;

/** The API in-process and `workers` real worker processes, sharing a fresh key prefix on the test Redis. */
export async function startSystem(options: {
  workers: number;
  env?: Record<string, string>;
  redis?: Record<string, string>;
}): Promise<System> {
  const env: Record<string, string> = {
    ...(options.redis ?? testRedisEnv()),
    REDIS_PREFIX: uniquePrefix('sys'),
    CLIENTS: JSON.stringify({ shop: { secret: 'shop-secret-0001', webhook_secret: WEBHOOK_SECRET, rate_limit_per_s: 10_000 } }),
    ALLOW_PRIVATE_SEND_URLS: 'true',
    AUTO_REPLY_DEBOUNCE_MS: '0',
    DELIVERY_TIMEOUT_MS: '1000',
    DELIVERY_BACKOFF_MS: '100',
    WORKER_LOCK_MS: '3000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    WORKER_CONCURRENCY: '8',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const config = loadConfig(env);
  const apiErrors: string[] = [];
  const apiLog = new Writable({
    write(chunk: Buffer, _encoding, done) {
      apiErrors.push(chunk.toString().trim());
      done();
    },
  });
  const api: Api = await buildApi(config, createLogger({ level: 'error', service: 'api-test', stream: apiLog }));
  await api.ready(5000);
  const server: Server = await new Promise((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const forget = registerApiUnderTest(apiUrl);
  const workers: WorkerProcess[] = [];
  const startWorker = (): WorkerProcess => {
    const child = spawn(process.execPath, [WORKER_MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const handle = { child, output: () => output, exited };
    workers.push(handle);
    return handle;
  };
  for (let i = 0; i < options.workers; i++) startWorker();
  // Tests start once every worker listens on the queue, so a slow process start (a busy machine) is
  // not mistaken for a slow delivery.
  const probeRedis = createRedis(config.redis, 'worker', { name: 'e2e-probe' });
  const probe = new Queue(QUEUE_NAMES.replies, {
    connection: probeRedis,
    prefix: createRedisKeys(config.redisPrefix, config.redis.shards).bullPrefix(0),
  });
  try {
    await waitUntil(async () => (await probe.getWorkersCount()) >= options.workers, 20_000);
  } finally {
    await probe.close();
    probeRedis.disconnect();
  }

  const keys = createRedisKeys(config.redisPrefix, config.redis.shards);
  let inspector: { redis: ReturnType<typeof createRedis>; queues: Map<number, Queue> } | undefined;
  /** The queue of the conversation's shard, on one inspector connection opened on first use. */
  const inspectorQueue = (conversationId: string): Queue => {
    inspector ??= { redis: createRedis(config.redis, 'worker', { name: 'e2e-inspector' }), queues: new Map() };
    const shard = keys.shardOf(conversationId);
    let queue = inspector.queues.get(shard);
    if (!queue) {
      queue = new Queue(QUEUE_NAMES.replies, { connection: inspector.redis, prefix: keys.bullPrefix(shard) });
      inspector.queues.set(shard, queue);
    }
    return queue;
  };
  const requests = createRedis(config.redis, 'request', { name: 'e2e' });
  requests.on('error', () => undefined); // suites that stop Redis on purpose: a test sees an error through its own commands
  await waitForRedis(requests, 5000);
  const redis = (): Redis => requests;
  const send: System['send'] = async (info, top = {}) => {
    const now = Math.floor(Date.now() / 1000);
    const body: Record<string, unknown> = {
      client: 'shop',
      timestamp: now,
      ...top,
      message_info: { from_user_type: 2, message_type: 1, event_type: 'auto_dialog', create_timestamp: now, trace: ++sequence, ...info },
    };
    const response = await postAsShop(apiUrl, body);
    return {
      status: response.status,
      headers: response.headers,
      json: (await response.json()) as { data?: Record<string, unknown>; error?: string },
    };
  };
  return {
    apiUrl,
    api,
    config,
    keys,
    env,
    apiErrors: () => [...apiErrors],
    workers,
    startWorker,
    redis,
    deliveries: () => createDeliveryStore({ redis: redis(), keys, ttlS: 3600, deadLetterTtlS: 86_400 }),
    send,
    command: (customer, content) =>
      send({
        from_user_id: customer.to_user_id,
        to_user_id: customer.from_user_id,
        content,
        event_type: 'cmd_dialog',
        from_user_type: undefined,
      }),
    turnJobState: (conversationId, generation) => inspectorQueue(conversationId).getJobState(turnJobId(conversationId, generation)),
    async turnJobProgress(conversationId, generation) {
      return (await inspectorQueue(conversationId).getJob(turnJobId(conversationId, generation)))?.progress;
    },
    async close() {
      requests.disconnect();
      if (inspector) {
        await Promise.all([...inspector.queues.values()].map((queue) => queue.close()));
        inspector.redis.disconnect();
      }
      if (process.env['E2E_DUMP'] === '1' || failed()) {
        for (const worker of workers) process.stderr.write(`--- worker ${worker.child.pid} output ---\n${worker.output()}\n`);
        if (apiErrors.length > 0) process.stderr.write(`--- API errors ---\n${apiErrors.join('\n')}\n`);
      }
      for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      forget();
      await api.close();
    },
  };
}
