// Makes a fresh clone runnable: installs dependencies when the lockfile changed since the last
// install, then builds every workspace (tsc -b is incremental, so this is quick when nothing changed).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
/**
 * tsc -b never deletes what a removed source compiled to: a test file deleted from the tree would
 * still run from dist/. Outputs whose source is gone are removed before the build.
 */
function removeOrphanedOutputs() {
  for (const group of ['apps', 'packages']) {
    for (const workspace of readdirSync(join(root, group))) {
      const dist = join(root, group, workspace, 'dist');
      if (!existsSync(dist)) continue;
      for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
        const match = /^(.*)\.(?:js|d\.ts|js\.map|d\.ts\.map)$/.exec(entry.name);
        if (!entry.isFile() || !match) continue;
        const relative = join(entry.parentPath, match[1]).slice(dist.length + 1);
        const source = join(root, group, workspace, relative);
        if (!['.ts', '.mts', '.tsx'].some((ext) => existsSync(source + ext))) rmSync(join(entry.parentPath, entry.name));
      }
    }
  }
}

removeOrphanedOutputs();
try {
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
} catch {
  console.error('[dialog-relay] the TypeScript build failed (see above)');
  process.exit(1);
}
