import { buildApi } from '@dialog-relay/api';
import { loadConfig } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import type { Tracing } from '@dialog-relay/tracing';
import { registerApiUnderTest, testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import type { AddressInfo } from 'node:net';
import { buildWorker, type WorkerRuntime } from '../../src/index.js';

export const SHOP = { secret: 'shop-secret-0001', webhook_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', rate_limit_per_s: 1000 };

export interface InProcess {
  apiUrl: string;
  worker: WorkerRuntime;
  close(): Promise<void>;
}

/** The API and one worker in this process (to read their metrics or traces), on the test Redis, client `shop`. */
export async function startInProcess(label: string, env: Record<string, string> = {}, tracing?: Tracing): Promise<InProcess> {
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: uniquePrefix(label),
    CLIENTS: JSON.stringify({ shop: SHOP }),
    ALLOW_PRIVATE_SEND_URLS: 'true',
    AUTO_REPLY_DEBOUNCE_MS: '0',
    DELIVERY_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'error',
    ...env,
  });
  const logger = createLogger({ level: 'error', service: `${label}-test`, silent: true });
  const api = await buildApi(config, logger, { tracing });
  await api.ready(5000);
  const server = api.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const worker = await buildWorker(config, logger, { tracing });
  await Promise.all(worker.workers.map((w) => w.waitUntilReady()));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const forget = registerApiUnderTest(apiUrl);
  return {
    apiUrl,
    worker,
    close: async () => {
      await worker.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      forget();
      await api.close();
    },
  };
}
