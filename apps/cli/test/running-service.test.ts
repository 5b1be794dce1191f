import { environmentWithout, freePort, runProcess, testRedisUrl, uniquePrefix, type ProcessRun } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const RUN_SERVICE = join(ROOT, 'scripts/run-service.mjs');
const NO_REDIS = 'No REDIS_URL is set and no `npm start` of this checkout is running: start it, or set REDIS_URL to the Redis to use.';

/** The environment of a user's shell with no Redis named at all. */
const shellEnv = (): Record<string, string> => environmentWithout(/^(REDIS_|QUEUE_SHARDS$)/);

/** `npm run cli -- …` / `npm run start:api` (without the build check), as a separate process. */
const runService = (program: string, args: string[], env: Record<string, string>): Promise<ProcessRun> =>
  runProcess(process.execPath, [RUN_SERVICE, program, ...args], { cwd: ROOT, env: { ...shellEnv(), LOG_LEVEL: 'error', ...env } });

/** A loopback server that counts the connections it gets (it speaks no Redis). */
async function countingServer(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, port, connections: () => connections };
}

/** issue 20: the CLI and the single-process scripts find this checkout's running npm start, or refuse; never 127.0.0.1:6379 by default. */
describe('npm run cli / start:api / start:worker without REDIS_URL', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'dr-state-'));

  it('use the Redis and prefix of the state file a running npm start wrote', async () => {
    const stateFile = join(dir, 'running.json');
    const prefix = uniquePrefix('state');
    // As npm start writes it: its own pid (alive: this process stands in) and the variables it runs the services with.
    writeFileSync(stateFile, JSON.stringify({ pid: process.pid, env: { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix } }), {
      mode: 0o600,
    });
    const added = await runService('cli', ['clients', 'add', 'found-it', '{"secret":"s3cret-found-it-long-enough-0123456789"}'], {
      DIALOG_RELAY_STATE_FILE: stateFile,
    });
    expect(added.code, added.stderr).to.equal(0);
    // The client is in that Redis, under that prefix: read back naming both explicitly.
    const listed = await runService('cli', ['clients', 'list', '--json'], {
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      DIALOG_RELAY_STATE_FILE: join(dir, 'none.json'),
    });
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.include('found-it');
  });

  it('refuse in one sentence naming which Redis to set when no npm start runs, with exit 78', async () => {
    for (const program of ['cli', 'api', 'worker']) {
      const args = program === 'cli' ? ['deliveries', 'show', 'dlv_x_s1'] : [];
      const result = await runService(program, args, { DIALOG_RELAY_STATE_FILE: join(dir, 'none.json'), PORT: String(await freePort()) });
      expect(result.code, `${program}: ${result.stderr}`).to.equal(78);
      // The last line: on a Node older than 22 a line saying it re-runs under Node 24 comes first.
      expect(result.stderr.trim().split('\n').at(-1)).to.equal(`[dialog-relay] ${NO_REDIS}`);
    }
  });

  it('refuse, contacting nothing, when the npm start that wrote the state file is gone', async () => {
    const fake = await countingServer();
    try {
      const stateFile = join(dir, 'stale.json');
      // A pid no process has (above the kernel's pid_max).
      writeFileSync(
        stateFile,
        JSON.stringify({ pid: 2 ** 22 + 1, env: { REDIS_URL: `redis://127.0.0.1:${fake.port}`, REDIS_PREFIX: uniquePrefix('stale') } }),
        { mode: 0o600 },
      );
      const result = await runService('cli', ['shards', 'migrate'], { DIALOG_RELAY_STATE_FILE: stateFile });
      expect(result.code, result.stderr).to.equal(78);
      expect(result.stderr).to.include(NO_REDIS);
      expect(fake.connections()).to.equal(0);
    } finally {
      await new Promise((resolve) => fake.server.close(resolve));
    }
  });

  it('refuse when the state file names a Redis that no longer answers', async () => {
    const stateFile = join(dir, 'silent.json');
    writeFileSync(
      stateFile,
      JSON.stringify({
        pid: process.pid,
        env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_PREFIX: uniquePrefix('silent') },
      }),
      { mode: 0o600 },
    );
    const result = await runService('cli', ['clients', 'list'], { DIALOG_RELAY_STATE_FILE: stateFile });
    expect(result.code, result.stderr).to.equal(78);
    expect(result.stderr).to.include(NO_REDIS);
  });

  it('run the commands that need no Redis (sign, help) without one', async () => {
    const result = await runService('cli', ['sign', '--client', 'demo', '--secret', 'x'], {
      DIALOG_RELAY_STATE_FILE: join(dir, 'none.json'),
    });
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include('curl');
  });
});
