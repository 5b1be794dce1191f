// Child process of deliver-garbage.test.ts, run under --trace-gc-nvp (V8 writes one line a garbage
// collection to stdout): four loops deliver to a receiver on 127.0.0.1 through the service's deliverer
// (CLIENT=got: got's stream, as a receiver probe that the measure sees promotion), each waiting a
// millisecond between attempts as a paced worker does: for WARM_UP_SECONDS (not measured), then for
// SECONDS after printing the `measure-from` mark. The test reads what the scavenges after it promoted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { measureFromLine } from '@dialog-relay/testkit';
import { createDeliverer } from '../../src/index.js';

const server = http.createServer((request, response) => request.resume().on('end', () => response.end('{"ok":true}')));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
const body = JSON.stringify({ msg_id: 'm1', content: [{ type: 'text', text: 'a reply' }] });
const agent = new http.Agent({ keepAlive: true });
const deliverer = createDeliverer({ allowPrivate: true, userAgent: 'paced-deliveries' });
const signingKey = Buffer.alloc(32, 7);
let sent = 0;

async function viaGot(): Promise<void> {
  const { default: got } = await import('got');
  const stream = got.stream(url, { method: 'POST', body, agent: { http: agent }, retry: { limit: 0 }, throwHttpErrors: false });
  await new Promise<void>((resolve, reject) =>
    stream
      .on('data', () => undefined)
      .once('end', resolve)
      .once('error', reject),
  );
}

async function viaDeliverer(): Promise<void> {
  const controller = new AbortController();
  const outcome = await deliverer.deliver({
    url,
    body,
    deliveryId: `dlv-${(sent += 1)}`,
    timestampS: Math.floor(Date.now() / 1000),
    signingKey,
    timeoutMs: 10_000,
    allowPrivate: true,
    signal: controller.signal,
    beforeSend: () => Promise.resolve(true),
  });
  if (outcome.kind !== 'delivered') throw new Error(`not delivered: ${String(outcome.error)}`);
}

const attempt = process.env.CLIENT === 'got' ? viaGot : viaDeliverer;
async function pacedFor(seconds: number): Promise<void> {
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < end) {
        await attempt();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }),
  );
}
await pacedFor(Number(process.env.WARM_UP_SECONDS ?? 1.5));
process.stdout.write(measureFromLine());
await pacedFor(Number(process.env.SECONDS ?? 3));
deliverer.close();
agent.destroy();
server.close();
