// The Redis key prefix of this checkout: `dr:` plus 8 hex digits of a hash of its path. npm start,
// npm run start:api, npm run start:worker and npm run cli use it when REDIS_PREFIX is not set, so they
// agree with each other and two checkouts on one machine never share a queue. `node apps/*/dist/src/main.js`
// (containers) keeps the plain `dr:` default of the configuration.
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const checkoutPrefix = () => `dr:${createHash('sha256').update(root).digest('hex').slice(0, 8)}:`;
