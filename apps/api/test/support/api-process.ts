import { freePort, testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { spawn, type ChildProcess } from 'node:child_process';
import { CLIENTS } from './test-api.js';

const MAIN = new URL('../../src/main.js', import.meta.url).pathname;

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * The API as its own process on a loopback port (the test's clients then run on another event
 * loop than the server they measure), with the test clients and its own key prefix.
 */
export async function startApiProcess(env: Record<string, string> = {}, nodeArgs: readonly string[] = []): Promise<ApiProcess> {
  // A port found free may be taken by another socket before the process listens on it: then it
  // exits at once, naming the port in use, and is started again on another.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnFreePort(env, nodeArgs);
    if (started.ok) return started.api;
    if (attempt === 3 || !/EADDRINUSE/.test(started.output)) throw new Error(`the API process did not become ready: ${started.output}`);
  }
}

async function startOnFreePort(
  env: Record<string, string>,
  nodeArgs: readonly string[],
): Promise<{ ok: true; api: ApiProcess } | { ok: false; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: {
      ...process.env,
      ...testRedisEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_PREFIX: uniquePrefix('proc'),
      LOG_LEVEL: 'error',
      CLIENTS: JSON.stringify(CLIENTS),
      AUTH_FAILURES_PER_CLIENT: '1000000',
      AUTH_FAILURES_PER_ADDRESS: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // A process whose event loop is stuck never handles SIGTERM.
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(kill);
  };
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) break;
    if (
      (await fetch(`${url}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      return { ok: true, api: { url, child, output: () => output, stop } };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  return { ok: false, output };
}
