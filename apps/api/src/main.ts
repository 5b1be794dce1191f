import { describeRedisTarget } from '@dialog-relay/config';
import { exitOnFatal, runService, type StartedService } from '@dialog-relay/process';
import { ShardCountMismatchError } from '@dialog-relay/redis';
import { buildApi } from './build-api.js';
import { createApiServer } from './http/api-server.js';

/** Process wiring of the API, after the shared start (configuration, logger, tracing): listen, and a graceful drain on SIGTERM / SIGINT. */
async function main({ config, logger, tracing, onStopSignal, exitWhenClosed }: StartedService): Promise<void> {
  // A QUEUE_SHARDS mismatch found at start or later (Redis away at start) stops the process (exit 78).
  const onShardMismatch = (error: ShardCountMismatchError): never => exitOnFatal('api', error);
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

  const drain = (): void => {
    const force = setTimeout(() => {
      logger.warn('api drain timed out, closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    server.close(() => exitWhenClosed(() => api.close()));
    server.closeIdleConnections();
  };
  // readyz answers 503 at once; requests are served SHUTDOWN_DELAY_MS more (an orchestrator stops
  // routing here meanwhile), then the listener closes and requests in flight finish.
  onStopSignal((signal) => {
    logger.info('api draining', { signal, delay_ms: config.shutdownDelayMs });
    api.drain();
    if (config.shutdownDelayMs === 0) drain();
    else setTimeout(drain, config.shutdownDelayMs);
  });
}

runService('api', main);
