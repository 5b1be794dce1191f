// Runs every workspace's compiled tests with mocha (configuration in .mocharc.json).
// Extra arguments are passed to mocha, e.g. `npm test -- --grep replay`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const result = spawnSync(process.execPath, [mocha, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
