import { buildApi, type Api } from '@dialog-relay/api';
import { loadConfig } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import { registerApiUnderTest, testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { buildWorker, type WorkerRuntime } from '@dialog-relay/worker';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SHOP = { client: 'shop', secret: 'shop-secret-0001', webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } as const;
export const WIDGET = { client: 'widget', secret: 'widget-secret-01' } as const;

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

/** The real API and one worker in this process, on loopback, with a fresh key prefix on the test Redis. */
export async function startService(): Promise<RunningService> {
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: uniquePrefix('sdk'),
    CLIENTS: JSON.stringify({
      [SHOP.client]: { secret: SHOP.secret, webhook_secret: SHOP.webhookSecret, rate_limit_per_s: 1000 },
      [WIDGET.client]: { secret: WIDGET.secret, signature_scheme: 'md5' },
    }),
    ALLOW_PRIVATE_SEND_URLS: 'true',
    AUTO_REPLY_DEBOUNCE_MS: '0',
    DELIVERY_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'error',
  });
  const logger = createLogger({ level: 'error', service: 'sdk-test', silent: true });
  const api: Api = await buildApi(config, logger);
  await api.ready(5000);
  const server: Server = await new Promise((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const worker: WorkerRuntime = await buildWorker(config, logger);
  await Promise.all(worker.workers.map((w) => w.waitUntilReady()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const forget = registerApiUnderTest(url);
  return {
    url,
    close: async () => {
      await worker.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      forget();
      await api.close();
    },
  };
}
