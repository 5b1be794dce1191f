// Child process of command-promise.test.ts, run under --trace-gc-nvp (V8 writes one line a garbage
// collection to stdout): a connection made by the service's own factory (LEAN=0: the ioredis
// method as shipped; ROLE=request: the API's kind, AUTO_PIPELINING=1 with auto-pipelining) sends an INCR and a GET, then waits a millisecond, as a paced request path
// does: for WARM_UP_SECONDS (start-up and warm-up, not measured), then for SECONDS after printing
// `measure-from=<ms since start>`. The test reads what the scavenges after that mark promoted.
// SCRIPT=1: each round calls a script defined on the connection (defineCommand, as BullMQ's are)
// instead; LEAN=promise-only: ioredis's connection with only the lean command promise in place.
import { measureFromLine } from '@dialog-relay/testkit';
import { Redis as IoRedis } from 'ioredis';
import { createRedis, installLeanCommandPromise, waitForRedis, type Redis } from '../../src/index.js';

const url = process.env.REDIS_URL ?? '';
const key = `${process.env.KEY_PREFIX ?? 'paced:'}counter`;
const config = { target: { mode: 'single' as const, url }, password: undefined, tls: false };
if (process.env.LEAN === 'promise-only') installLeanCommandPromise();
const redis: Redis =
  process.env.LEAN === '0' || process.env.LEAN === 'promise-only'
    ? new IoRedis(url, { protocol: 2 }) // ioredis's own classes: createRedis installs the lean methods
    : process.env.ROLE === 'request'
      ? createRedis(config, 'request', { name: 'paced-commands', ...(process.env.AUTO_PIPELINING === '1' ? { autoPipelining: true } : {}) })
      : createRedis(config, 'worker', { name: 'paced-commands' });
await waitForRedis(redis, 5000);
if (process.env.SCRIPT === '1')
  redis.defineCommand('bump', { numberOfKeys: 1, lua: "redis.call('INCR', KEYS[1]) return redis.call('GET', KEYS[1])" });
const bump = (key: string, arg: string): Promise<string> =>
  (redis as unknown as { bump(key: string, arg: string): Promise<string> }).bump(key, arg);
const argument = 'x'.repeat(512);
async function pacedFor(seconds: number): Promise<void> {
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    if (process.env.SCRIPT === '1') await bump(key, argument);
    else {
      await redis.incr(key);
      await redis.get(key);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
await pacedFor(Number(process.env.WARM_UP_SECONDS ?? 1.5));
process.stdout.write(measureFromLine());
await pacedFor(Number(process.env.SECONDS ?? 3));
await redis.del(key);
redis.disconnect();
