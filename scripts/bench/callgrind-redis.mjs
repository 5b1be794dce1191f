// A private redis-server run under valgrind's callgrind, on a free loopback port, whose instructions
// are counted window by window: Redis's own work, repeatable to well under 1 % from run to run, where
// its CPU time (INFO cpu) moves by 10 % and more on a shared host. Kernel work (the sockets) is not
// counted. Used by instructions-phase.mjs; the service never runs this way.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep, track } from './processes.mjs';

/** Whether valgrind and callgrind_control are installed. */
export const callgrindInstalled = () =>
  spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0 &&
  spawnSync('callgrind_control', ['-h'], { stdio: 'ignore' }).status === 0;

const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/**
 * Starts redis-server under callgrind. `at(label)` ends a window (every instruction since the window
 * before, or since the start); `dispose()` stops it and gives each window's instructions by label.
 */
export async function startCallgrindRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'dialog-relay-callgrind-'));
  const port = await freePort();
  const child = track(
    spawn(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${join(dir, 'redis.%p')}`,
        'redis-server',
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    ),
  );
  for (let i = 0; !(await listening(port)); i++) {
    if (child.exitCode !== null || i > 100) throw new Error('redis-server under callgrind did not come up within 30 s');
    await sleep(300);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async at(label) {
      // what was sent before the mark has been answered; a short pause lets Redis finish its cron work too
      await sleep(200);
      execFileSync('callgrind_control', ['--dump', label, String(child.pid)], { stdio: 'ignore' });
    },
    /** Stops the server and returns each window's instructions, by its label, in order ('' labels the start-up); its files are removed. */
    async dispose() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(30_000)]);
      try {
        return readdirSync(dir)
          .map((file) => readFileSync(join(dir, file), 'utf8'))
          .map((text) => ({
            part: Number(/^part: (\d+)/m.exec(text)?.[1] ?? 0),
            label: /^desc: Trigger: dump (.+)$/m.exec(text)?.[1] ?? '',
            instructions: Number(/^summary: (\d+)/m.exec(text)?.[1] ?? Number.NaN),
          }))
          .sort((a, b) => a.part - b.part);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
