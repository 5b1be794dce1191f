// `npm run start:api` / `npm run start:worker` / `npm run cli`: one program of this checkout, with the
// same default key prefix as `npm start` (scripts/checkout-prefix.mjs) when REDIS_PREFIX is not set,
// so the CLI reads and acts on the data of the services `npm start` runs. With no Redis variable set,
// the Redis of this checkout's running `npm start` (scripts/service-state.mjs), else a refusal: never a
// Redis that merely answers on 127.0.0.1:6379 (it may be another program's).
import { join } from 'node:path';
import { checkoutPrefix, root } from './checkout-prefix.mjs';
import { ensureNode } from './node-runtime.mjs';
import { NO_REDIS, REDIS_MODES, runningServiceEnv } from './service-state.mjs';

// On a Node older than 22, the program runs under Node 24 instead (said on stderr: the CLI's stdout is read by scripts).
await ensureNode('supported', (line) => process.stderr.write(`[dialog-relay] ${line}\n`));

const MAINS = { api: 'apps/api/dist/src/main.js', worker: 'apps/worker/dist/src/main.js', cli: 'apps/cli/dist/src/main.js' };
/** The CLI's command groups that use Redis (the others, and help, run without one). */
const CLI_REDIS_GROUPS = new Set(['clients', 'shards', 'dead-letters', 'deliveries', 'conversation']);
const program = process.argv[2];
if (!Object.hasOwn(MAINS, program)) {
  process.stderr.write(`usage: node scripts/run-service.mjs ${Object.keys(MAINS).join('|')} [arguments]\n`);
  process.exit(2);
}
const args = process.argv.slice(3);
const needsRedis = program !== 'cli' || (CLI_REDIS_GROUPS.has(args[0]) && !args.some((arg) => arg === '--help' || arg === '-h'));
if (needsRedis && !REDIS_MODES.some((name) => process.env[name])) {
  const service = await runningServiceEnv();
  if (!service) {
    process.stderr.write(`[dialog-relay] ${NO_REDIS}\n`);
    process.exit(78);
  }
  // The running npm start's Redis and keys; a REDIS_PREFIX set here still wins.
  for (const [name, value] of Object.entries(service)) if (!process.env[name]) process.env[name] = value;
}
// `cli sign` (which needs no Redis) prints a curl line for the running npm start's API when one runs.
if (program === 'cli' && !needsRedis && !process.env.DIALOG_RELAY_URL) {
  const url = (await runningServiceEnv())?.DIALOG_RELAY_URL;
  if (url) process.env.DIALOG_RELAY_URL = url;
}
if (!process.env.REDIS_PREFIX) {
  process.env.REDIS_PREFIX = checkoutPrefix();
  // The CLI's output is read by scripts (sign's curl line, --json): no extra line for it.
  if (program !== 'cli')
    process.stderr.write(
      `[dialog-relay] Redis keys under prefix "${process.env.REDIS_PREFIX}" (this checkout's own, as npm start uses; set REDIS_PREFIX to share)\n`,
    );
}
// The program sees its own arguments only, as if started directly.
process.argv.splice(2, 1);
await import(join(root, MAINS[program]));
