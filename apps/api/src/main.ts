import { ConfigError, loadConfig } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import type { Server } from 'node:http';
import { buildApi } from './build-api.js';

/** Process wiring of the API: config, listen, and a graceful drain on SIGTERM / SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    process.stderr.write(`dialog-relay api: bad configuration: ${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exit(78);
  }
  const logger = createLogger({ level: config.logLevel, service: 'api' });
  const api = await buildApi(config, logger);
  await api.ready(5000).catch(() => logger.warn('redis not reachable yet; answering 503 until it is', { redis: config.redisUrl.replace(/\/\/[^@]*@/, '//***@') }));
  const server: Server = api.app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info('api listening', { host: config.host, port });
  });
  server.on('error', (error) => {
    logger.error('api could not listen', { error: error.message });
    process.exit(1);
  });

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info('api draining', { signal });
    api.drain();
    const force = setTimeout(() => {
      logger.warn('api drain timed out, closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    server.close(() => {
      void api.close().then(() => {
        logger.info('api stopped');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`dialog-relay api: failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
