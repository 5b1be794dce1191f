// Makes a fresh clone runnable: installs dependencies when the lockfile changed since the last
// install, then builds every workspace (tsc -b is incremental, so this is quick when nothing changed).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stamp = join(root, 'node_modules', '.dialog-relay-install');
const lock = join(root, 'package-lock.json');
const digest = createHash('sha256').update(readFileSync(lock)).digest('hex');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });

if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== digest) {
  console.error('[dialog-relay] installing dependencies (npm ci) ...');
  run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
  writeFileSync(stamp, digest);
}
try {
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
} catch {
  console.error('[dialog-relay] the TypeScript build failed (see above)');
  process.exit(1);
}
