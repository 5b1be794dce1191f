// The system programs the test suite needs: redis-server and redis-cli (private test servers and the
// test cluster) and chromium (the browser tests; or the Chromium CHROMIUM_PATH names, which the
// browser tests then use), and python3 (the Python signing snippet of docs/integrating.md is run
// against the test vectors). When one is missing and this runs as root with apt-get, it installs
// Debian's package (as .ci/run does); otherwise it says what to install.
import { spawnSync } from 'node:child_process';

const NEEDED = [
  { command: 'redis-server', args: ['--version'], packages: ['redis-server'] },
  { command: 'redis-cli', args: ['--version'], packages: ['redis-tools'] },
  { command: 'chromium', args: ['--version'], packages: ['chromium'] },
  { command: 'python3', args: ['--version'], packages: ['python3'] },
];

const present = ({ command, args }) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** `only`: the commands to ensure (npm start needs redis-server alone); all the test suite's by default. */
export function ensureSystemPackages(say, { only } = {}) {
  const needed = only ? NEEDED.filter((need) => only.includes(need.command)) : NEEDED;
  const chromiumPath = needed.some((need) => need.command === 'chromium') ? process.env.CHROMIUM_PATH : undefined;
  if (chromiumPath && !present({ command: chromiumPath, args: ['--version'] })) {
    say(
      `CHROMIUM_PATH=${chromiumPath} does not run (${chromiumPath} --version failed): name a Chromium there, or unset it to use Debian's chromium`,
    );
    return false;
  }
  const missing = needed.filter((need) => !(need.command === 'chromium' && chromiumPath) && !present(need));
  if (missing.length === 0) return true;
  const packages = [...new Set(missing.flatMap((need) => need.packages))];
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!root || !aptGet) {
    say(
      `missing ${missing.map((need) => need.command).join(', ')}: install ${packages.join(' ')} (e.g. sudo apt-get install -y ${packages.join(' ')})`,
    );
    return false;
  }
  say(`installing ${packages.join(' ')} (apt-get) ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // apt-get's progress lines are kept out of the test log; they are shown only when it fails.
  const quiet = { stdio: ['ignore', 'pipe', 'pipe'], env, maxBuffer: 64 * 1024 * 1024 };
  const update = spawnSync('apt-get', ['update', '-qq'], quiet);
  const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', ...packages], quiet) : update;
  if (install.status !== 0) process.stderr.write(`${install.stdout?.toString() ?? ''}${install.stderr?.toString() ?? ''}`);
  return install.status === 0 && missing.every(present);
}
