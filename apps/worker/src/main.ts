import { ConfigError, loadConfig, SERVICE_VERSION, workerDrainBoundMs } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import { ShardCountMismatchError } from '@dialog-relay/redis';
import { buildWorker } from './build-worker.js';
import { startHeartbeat } from './heartbeat.js';

/** Process wiring of one worker replica: config, start, and a drain on SIGTERM / SIGINT. */
async function main(): Promise<void> {
  // a bad variable throws ConfigError: one line, exit 78 (below)
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel, service: 'worker' });
  for (const warning of config.warnings) logger.warn('configuration', { warning });
  // OpenTelemetry is loaded only when traces are wanted: off and free otherwise.
  const tracing =
    config.otelEndpoint === undefined
      ? undefined
      : (await import('@dialog-relay/tracing')).startTracing({
          serviceName: config.otelResource.serviceName ?? 'dialog-relay-worker',
          attributes: config.otelResource.attributes,
          version: SERVICE_VERSION,
          endpoint: config.otelEndpoint,
        });
  const runtime = await buildWorker(config, logger, { tracing });
  logger.info('worker started', { concurrency: config.workerConcurrency, pid: process.pid });
  const { file, intervalMs } = config.workerHeartbeat;
  const heartbeat =
    file === undefined
      ? undefined
      : startHeartbeat({ file, intervalMs, alive: () => runtime.workers.every((worker) => worker.isRunning()), logger });

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info('worker draining', { signal });
    heartbeat?.stop();
    const force = setTimeout(() => {
      logger.warn('worker drain timed out; unfinished jobs will be taken up by another replica');
      process.exit(1);
    }, workerDrainBoundMs(config));
    force.unref();
    void runtime
      .close()
      .then(() => tracing?.shutdown())
      .then(() => {
        logger.info('worker stopped');
        process.exit(0);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  // Bad configuration (loadConfig's, or a KNOWLEDGE_FILE that cannot be used): one line, exit 78.
  if (error instanceof ConfigError) {
    process.stderr.write(`dialog-relay worker: bad configuration: ${error.message}\n`);
    process.exit(78);
  }
  if (error instanceof ShardCountMismatchError) {
    process.stderr.write(`dialog-relay worker: ${error.message}\n`);
    process.exit(78);
  }
  process.stderr.write(
    `dialog-relay worker: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
