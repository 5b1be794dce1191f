// `npm run start:api` / `npm run start:worker`: one service of this checkout, with the same default
// key prefix as `npm start` (scripts/checkout-prefix.mjs) when REDIS_PREFIX is not set.
import { join } from 'node:path';
import { checkoutPrefix, root } from './checkout-prefix.mjs';

const MAINS = { api: 'apps/api/dist/src/main.js', worker: 'apps/worker/dist/src/main.js' };
const service = process.argv[2];
if (!Object.hasOwn(MAINS, service)) {
  process.stderr.write(`usage: node scripts/run-service.mjs ${Object.keys(MAINS).join('|')}\n`);
  process.exit(2);
}
if (!process.env.REDIS_PREFIX) {
  process.env.REDIS_PREFIX = checkoutPrefix();
  process.stderr.write(`[dialog-relay] Redis keys under prefix "${process.env.REDIS_PREFIX}" (this checkout's own, as npm start uses; set REDIS_PREFIX to share)\n`);
}
await import(join(root, MAINS[service]));
