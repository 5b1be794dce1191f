import { ConfigError, describeRedisTarget, loadConfig, SERVICE_VERSION } from '@dialog-relay/config';
import { ShardCountMismatchError } from '@dialog-relay/redis';
import { createLogger } from '@dialog-relay/logger';
import { buildApi } from './build-api.js';
import { createApiServer } from './http/api-server.js';

/** Process wiring of the API: config, listen, and a graceful drain on SIGTERM / SIGINT. */
async function main(): Promise<void> {
  // a bad variable throws ConfigError: one line, exit 78 (below)
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel, service: 'api' });
  for (const warning of config.warnings) logger.warn('configuration', { warning });
  // OpenTelemetry is loaded only when traces are wanted: off and free otherwise.
  const tracing =
    config.otelEndpoint === undefined
      ? undefined
      : (await import('@dialog-relay/tracing')).startTracing({
          serviceName: config.otelResource.serviceName ?? 'dialog-relay-api',
          attributes: config.otelResource.attributes,
          version: SERVICE_VERSION,
          endpoint: config.otelEndpoint,
        });
  // A QUEUE_SHARDS mismatch found at start or later (Redis away at start) stops the process.
  const onShardMismatch = (error: ShardCountMismatchError): void => {
    process.stderr.write(`dialog-relay api: ${error.message}\n`);
    process.exit(78);
  };
  const api = await buildApi(config, logger, { tracing, onShardMismatch });
  await api.ready(5000).catch((error: unknown) => {
    if (error instanceof ShardCountMismatchError) return;
    logger.warn('redis not reachable yet; answering 503 until it is', { redis: describeRedisTarget(config.redis.target) });
  });
  const server = createApiServer(api.app, config.ingress.http);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info('api listening', { host: config.host, port });
  });
  server.on('error', (error) => {
    logger.error('api could not listen', { error: error.message });
    process.exit(1);
  });

  let stopping = false;
  const drain = (): void => {
    const force = setTimeout(() => {
      logger.warn('api drain timed out, closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    server.close(() => {
      void api
        .close()
        .then(() => tracing?.shutdown())
        .then(() => {
          logger.info('api stopped');
          process.exit(0);
        });
    });
    server.closeIdleConnections();
  };
  // readyz answers 503 at once; requests are served SHUTDOWN_DELAY_MS more (an orchestrator stops
  // routing here meanwhile), then the listener closes and requests in flight finish.
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info('api draining', { signal, delay_ms: config.shutdownDelayMs });
    api.drain();
    if (config.shutdownDelayMs === 0) drain();
    else setTimeout(drain, config.shutdownDelayMs);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  // Bad configuration (loadConfig's, or a KNOWLEDGE_FILE that cannot be used): one line, exit 78.
  if (error instanceof ConfigError) {
    process.stderr.write(`dialog-relay api: bad configuration: ${error.message}\n`);
    process.exit(78);
  }
  process.stderr.write(`dialog-relay api: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
