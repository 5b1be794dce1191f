import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';

/** A private redis-server on a free loopback port that a test may stop and start again. */
export interface RedisServerHandle {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM) and waits for it to exit; clients see connection errors. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  dispose(): Promise<void>;
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      probe.disconnect();
    }
  }
  throw new Error(`redis-server at ${url} did not answer within 10 s`);
}

export async function startRedisServer(): Promise<RedisServerHandle> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'dialog-relay-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
      '--dir', dir, '--maxmemory-policy', 'noeviction', '--loglevel', 'warning'], { stdio: 'ignore' });
    child = proc;
    await waitUntilAnswering(url, proc);
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  };
  await start();
  return {
    url,
    port,
    stop,
    start,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
