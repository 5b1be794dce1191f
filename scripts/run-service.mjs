// `npm run start:api` / `npm run start:worker` / `npm run cli`: one program of this checkout, with the
// same default key prefix as `npm start` (scripts/checkout-prefix.mjs) when REDIS_PREFIX is not set,
// so the CLI reads and acts on the data of the services `npm start` runs.
import { join } from 'node:path';
import { checkoutPrefix, root } from './checkout-prefix.mjs';
import { ensureNode } from './node-runtime.mjs';

// On a Node older than 22, the program runs under Node 24 instead (said on stderr: the CLI's stdout is read by scripts).
await ensureNode('supported', (line) => process.stderr.write(`[dialog-relay] ${line}\n`));

const MAINS = { api: 'apps/api/dist/src/main.js', worker: 'apps/worker/dist/src/main.js', cli: 'apps/cli/dist/src/main.js' };
const program = process.argv[2];
if (!Object.hasOwn(MAINS, program)) {
  process.stderr.write(`usage: node scripts/run-service.mjs ${Object.keys(MAINS).join('|')} [arguments]\n`);
  process.exit(2);
}
if (!process.env.REDIS_PREFIX) {
  process.env.REDIS_PREFIX = checkoutPrefix();
  // The CLI's output is read by scripts (sign's curl line, --json): no extra line for it.
  if (program !== 'cli') process.stderr.write(`[dialog-relay] Redis keys under prefix "${process.env.REDIS_PREFIX}" (this checkout's own, as npm start uses; set REDIS_PREFIX to share)\n`);
}
// The program sees its own arguments only, as if started directly.
process.argv.splice(2, 1);
await import(join(root, MAINS[program]));
