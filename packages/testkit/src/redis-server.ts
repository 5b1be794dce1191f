import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Stalls it (SIGSTOP): connections stay open and nothing answers, as a hung host would. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
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

export interface RedisServerOptions {
  /** Extra redis-server arguments (cluster mode, replicaof …). */
  args?: readonly string[];
  /** A config file written into the server's folder first (sentinels need a writable one). */
  configFile?: (port: number) => string;
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServerHandle> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'dialog-relay-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const file = options.configFile ? join(dir, 'server.conf') : undefined;
    if (file && options.configFile && !existsSync(file)) writeFileSync(file, options.configFile(port));
    const common = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--loglevel', 'warning'];
    const args = file
      ? [file, ...common, ...(options.args ?? [])]
      : [...common, '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction', ...(options.args ?? [])];
    const proc = spawn('redis-server', args, { stdio: 'ignore' });
    child = proc;
    await waitUntilAnswering(url, proc);
  };
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill(signal);
    });
  };
  const stop = (): Promise<void> => halt('SIGTERM');
  await start();
  return {
    url,
    port,
    stop,
    start,
    kill: () => halt('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
