import { ConfigError, loadConfig } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import { buildWorker } from './build-worker.js';

/** Process wiring of one worker replica: config, start, and a drain on SIGTERM / SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    process.stderr.write(`dialog-relay worker: bad configuration: ${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exit(78);
  }
  const logger = createLogger({ level: config.logLevel, service: 'worker' });
  const runtime = await buildWorker(config, logger);
  logger.info('worker started', { concurrency: config.workerConcurrency, pid: process.pid });

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info('worker draining', { signal });
    const force = setTimeout(() => {
      logger.warn('worker drain timed out; unfinished jobs will be taken up by another replica');
      process.exit(1);
    }, config.shutdownTimeoutMs + config.delivery.timeoutMs);
    force.unref();
    void runtime.close().then(() => {
      logger.info('worker stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`dialog-relay worker: failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
