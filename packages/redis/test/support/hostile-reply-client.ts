// Child process of hostile-reply.test.ts: opens a request connection with the service's own factory
// to the fake server on 127.0.0.1:PORT, sends one GET, prints how it ended as one JSON line, exits 0.
// A reply that crashed the process would end it with an uncaught exception instead (exit code ≠ 0).
import { createRedis, waitForRedis } from '../../src/index.js';

const redis = createRedis(
  { target: { mode: 'single', url: `redis://127.0.0.1:${process.env.PORT ?? ''}` }, password: undefined, tls: false },
  'request',
  {
    name: 'hostile-reply-test',
    commandTimeoutMs: 2000,
  },
);
redis.on('error', () => undefined);
let outcome: { outcome: 'resolved'; value: unknown } | { outcome: 'rejected'; message: string };
try {
  await waitForRedis(redis, 5000);
  outcome = { outcome: 'resolved', value: await redis.get('hostile-reply-key') };
} catch (error) {
  outcome = { outcome: 'rejected', message: String((error as Error).message).slice(0, 200) };
}
redis.disconnect();
// Anything the reply left behind (a timer, a throw on the next tick) gets its chance to end the process first.
await new Promise((resolve) => setTimeout(resolve, 100));
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
