// The Node the project's scripts run on. Node 24 LTS is the runtime the image ships and CI tests
// (package.json engines: >= 22). `npm test` runs on Node 24 whatever Node started it; `npm start`
// and the other scripts run on the Node that started them when it is supported (>= 22), else on Node 24.
// Node 24 comes from the npm registry's `node@24` package, installed into .data/node24 (git-ignored)
// the first time it is needed, and the script re-runs itself under it, saying so in one line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHIPPED_MAJOR = 24;
export const OLDEST_SUPPORTED_MAJOR = 22;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const folder = join(root, '.data', `node${SHIPPED_MAJOR}`);
const binary = join(folder, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const RERUN = 'DIALOG_RELAY_NODE_RERUN';

/**
 * The V8 flags the API and the worker start with wherever this project starts them: npm start, npm run
 * start:api and start:worker (package.json), the bench, and the image (its NODE_OPTIONS; a test holds
 * them equal). Semi-spaces of 16 MiB instead of V8's up to 64 on a large host: since per-message
 * objects die young, a smaller young generation costs no measurable throughput and takes about 70 MiB
 * off each process (docs/design/performance-log.md, thirteenth session). NODE_OPTIONS that sizes the
 * semi-space itself wins.
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=16';

/** `env` with SERVICE_NODE_OPTIONS added to its NODE_OPTIONS, unless that already sizes the semi-space. */
export function withServiceNodeOptions(env) {
  const current = env.NODE_OPTIONS ?? '';
  if (current.includes('--max-semi-space-size')) return env;
  return { ...env, NODE_OPTIONS: `${current} ${SERVICE_NODE_OPTIONS}`.trim() };
}

const majorOf = (version) => Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);

/** `shipped`: Node 24 only (npm test). `supported`: Node 22 or newer. */
export function accepts(need, version) {
  const major = majorOf(version);
  return need === 'shipped' ? major === SHIPPED_MAJOR : major >= OLDEST_SUPPORTED_MAJOR;
}

function installedVersion() {
  if (!existsSync(binary)) return undefined;
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** Node 24's binary in .data/node24, installed from the npm registry when missing; undefined when it cannot be had. */
function shippedNode(say) {
  if (majorOf(installedVersion() ?? '') === SHIPPED_MAJOR) return binary;
  say(`installing Node ${SHIPPED_MAJOR} from the npm registry (package node@${SHIPPED_MAJOR}) into .data/node${SHIPPED_MAJOR} ...`);
  mkdirSync(folder, { recursive: true });
  // Its own folder and no lockfile: the project's dependencies are not touched. The package's
  // install script fetches the binary for this platform (node-<platform>-<arch>).
  const install = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      folder,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts=false',
      '--loglevel=error',
      `node@${SHIPPED_MAJOR}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
  );
  if (install.status === 0 && majorOf(installedVersion() ?? '') === SHIPPED_MAJOR) return binary;
  process.stderr.write(`${install.stdout ?? ''}${install.stderr ?? ''}`);
  return undefined;
}

/**
 * Returns when this process runs on a Node `need` accepts. Otherwise re-runs the calling script (same
 * arguments, environment and standard streams) under Node 24, passes SIGINT, SIGTERM and SIGHUP on
 * to it, and exits with its exit code: the caller's code after this call never runs on the old Node.
 */
export async function ensureNode(need, say) {
  if (accepts(need, process.version)) return;
  const why =
    need === 'shipped'
      ? `Node ${process.version} is not Node ${SHIPPED_MAJOR}, the runtime the image ships and the tests run on`
      : `Node ${process.version} is older than ${OLDEST_SUPPORTED_MAJOR} (package.json engines)`;
  if (process.env[RERUN]) {
    say(`${why}, and re-running under Node ${SHIPPED_MAJOR} did not help: install Node ${SHIPPED_MAJOR}`);
    process.exit(1);
  }
  const node = shippedNode(say);
  if (!node) {
    say(
      `${why}; Node ${SHIPPED_MAJOR} could not be installed from the npm registry (see above): install Node ${SHIPPED_MAJOR} (https://nodejs.org) and run again`,
    );
    process.exit(1);
  }
  say(`${why}: re-running under Node ${installedVersion()} from .data/node${SHIPPED_MAJOR}`);
  // Its folder first on PATH: programs the script starts as `node` (npm, mocha's children) run on it too.
  const env = { ...process.env, [RERUN]: '1', PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) =>
    child.on('exit', (exitCode, signal) =>
      resolve(exitCode ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15) : 1)),
    ),
  );
  process.exit(code);
}
