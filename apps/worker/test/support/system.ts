import { buildApi, type Api } from '@dialog-relay/api';
import { loadConfig, type Config } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import { createRedisKeys, type RedisKeys } from '@dialog-relay/redis';
import { signRequestBody } from '@dialog-relay/signing';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  workers: WorkerProcess[];
  startWorker(): WorkerProcess;
  send(info: Record<string, unknown>, top?: Record<string, unknown>): Promise<{ status: number; json: { data?: Record<string, unknown>; error?: string } }>;
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
export async function startSystem(options: { workers: number; env?: Record<string, string> }): Promise<System> {
  const env: Record<string, string> = {
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: uniquePrefix('sys'),
    CLIENTS: JSON.stringify({ shop: { secret: 'shop-secret', webhook_secret: WEBHOOK_SECRET, rate_limit_per_s: 10_000 } }),
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
  const api: Api = await buildApi(config, createLogger({ level: 'error', service: 'api-test', silent: true }));
  await api.ready(5000);
  const server: Server = await new Promise((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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

  return {
    apiUrl,
    api,
    config,
    keys: createRedisKeys(config.redisPrefix),
    env,
    workers,
    startWorker,
    async send(info, top = {}) {
      const now = Math.floor(Date.now() / 1000);
      const body: Record<string, unknown> = {
        client: 'shop',
        timestamp: now,
        ...top,
        message_info: { from_user_type: 2, message_type: 1, event_type: 'auto_dialog', create_timestamp: now, trace: ++sequence, ...info },
      };
      body['signature'] = signRequestBody(body, 'shop-secret', 'hmac-sha256');
      const response = await fetch(`${apiUrl}/custom-im/chat-messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, json: (await response.json()) as { data?: Record<string, unknown>; error?: string } };
    },
    async close() {
      if (process.env['E2E_DUMP'] === '1' || failed()) {
        for (const worker of workers) process.stderr.write(`--- worker ${worker.child.pid} output ---\n${worker.output()}\n`);
      }
      for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
    },
  };
}
