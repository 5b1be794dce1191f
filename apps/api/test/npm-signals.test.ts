import { freePort, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { descendants, gone, listeningAddresses } from './support/process-tree.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;
/** The worker's drain bound at the defaults (SHUTDOWN_TIMEOUT_MS + DELIVERY_TIMEOUT_MS) and a margin: everything is gone by then. */
const DRAIN_BOUND_MS = 10_000 + 10_000 + 10_000;

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm <args>` in this checkout as a user types it, in a process group of its own (so a test can clean up after a failure). */
function npm(args: string[], env: Record<string, string>): Started {
  // A private Redis of npm start's own: none of the user's Redis settings.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('REDIS_') && !['CLIENTS', 'HOST', 'PORT', 'ADMIN_TOKEN'].includes(name),
    ),
  );
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
    cwd: ROOT,
    detached: true,
    env: { ...base, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

/**
 * `npm start` on a port found free, and its output once it says the API is ready or exits. A port
 * found free may be taken by another socket before npm start checks it: then it says so and exits,
 * and is started again on another (at most three tries).
 */
async function npmStart(): Promise<{ started: Started; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const started = npm(['start'], { PORT: String(port) });
    await waitUntil(() => started.output().includes('API ready') || started.child.exitCode !== null, 60_000).catch((error: Error) => {
      cleanUp(started, []);
      throw new Error(`${error.message}; npm start printed: ${started.output()}`);
    });
    if (attempt === 3 || started.child.exitCode === null || !/already in use|EADDRINUSE/.test(started.output())) return { started, port };
  }
}

/** After a failed assertion: nothing of the test's is left running (the whole group, then anything that left it). */
function cleanUp(started: Started, pids: number[]): void {
  try {
    process.kill(-started.child.pid!, 'SIGKILL');
  } catch {
    /* already gone */
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/**
 * An orchestrator, a terminal or a process manager signals the one process it started: npm's.
 * Everything npm start / npm run cli started must stop with it and free its ports (docs/kubernetes.md).
 */
describe('npm start and npm run cli pass SIGTERM and SIGINT on to everything they started', function () {
  this.timeout(120_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`npm start (private Redis): ${signal} to npm's pid alone stops the API, the worker and the Redis, and frees their ports`, async () => {
      const { started, port } = await npmStart();
      let tree: number[] = [];
      try {
        // the whole output when it is not there: why npm start ended
        expect(started.output(), started.output()).to.include('API ready');
        const redisPort = Number(/Redis: a private redis-server on port (\d+)/.exec(started.output())?.[1] ?? 0);
        expect(redisPort, started.output()).to.be.above(0);
        tree = descendants(started.child.pid!);
        // npm, start.mjs (perhaps under a shell), the API, the worker and redis-server.
        expect(tree.length, started.output()).to.be.at.least(3);
        expect(listeningAddresses(port)).to.not.be.empty;
        expect(listeningAddresses(redisPort)).to.not.be.empty;

        process.kill(started.child.pid!, signal);
        await waitUntil(
          () =>
            [started.child.pid!, ...tree].every(gone) &&
            listeningAddresses(port).length === 0 &&
            listeningAddresses(redisPort).length === 0,
          DRAIN_BOUND_MS,
        );
      } finally {
        cleanUp(started, tree);
      }
    });
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`npm run cli -- listen: ${signal} to npm's pid alone stops the listener and frees its port`, async () => {
      const port = await freePort();
      const started = npm(['run', 'cli', '--', 'listen', '--port', String(port), '--secret', 'whsec_ZGVtby13ZWJob29rLXNlY3JldA=='], {});
      let tree: number[] = [];
      try {
        await waitUntil(() => started.output().includes('listening on') || started.child.exitCode !== null, 60_000);
        expect(started.output()).to.include(`listening on http://127.0.0.1:${port}/`);
        tree = descendants(started.child.pid!);
        expect(tree, 'the CLI runs under npm').to.not.be.empty;
        process.kill(started.child.pid!, signal);
        await waitUntil(() => [started.child.pid!, ...tree].every(gone) && listeningAddresses(port).length === 0, DRAIN_BOUND_MS);
        await started.exited;
        expect(started.output()).to.include('0 received');
      } finally {
        cleanUp(started, tree);
      }
    });
  }
});
