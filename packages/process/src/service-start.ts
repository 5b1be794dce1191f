import { ConfigError, loadConfig, SERVICE_VERSION, type Config } from '@dialog-relay/config';
import { createLogger, type Logger } from '@dialog-relay/logger';
import { ShardCountMismatchError } from '@dialog-relay/redis';
import type { Tracing } from '@dialog-relay/tracing';
import { applyHeapGrowth } from './heap-growth.js';

/** The service processes: the name in their log lines, their stderr lines and their default trace service name. */
export type ServiceName = 'api' | 'worker';

/** What every service process has once started: its configuration, its logger, its tracing when wanted. */
export interface StartedService {
  config: Config;
  logger: Logger;
  tracing: Tracing | undefined;
  /** Calls `stop` once, on the first SIGTERM or SIGINT (a later signal, during the drain, is ignored). */
  onStopSignal: (stop: (signal: string) => void) => void;
  /** Once `close()` has settled: tracing shut down, "<service> stopped" logged, exit 0. */
  exitWhenClosed: (close: () => Promise<void>) => void;
}

/**
 * A process that cannot start or cannot go on ends here: bad configuration (loadConfig's, or a
 * KNOWLEDGE_FILE that cannot be used) and a QUEUE_SHARDS mismatch with Redis are one line and exit 78,
 * anything else its stack and exit 1.
 */
export function exitOnFatal(service: ServiceName, error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`dialog-relay ${service}: bad configuration: ${error.message}\n`);
    process.exit(78);
  }
  if (error instanceof ShardCountMismatchError) {
    process.stderr.write(`dialog-relay ${service}: ${error.message}\n`);
    process.exit(78);
  }
  process.stderr.write(
    `dialog-relay ${service}: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}

/** The start every service process shares: configuration, the heap's growth, logger (the configuration's warnings logged), tracing. */
async function startService(service: ServiceName): Promise<StartedService> {
  // a bad variable throws ConfigError: one line, exit 78 (exitOnFatal)
  const config = loadConfig(process.env);
  applyHeapGrowth(config.heapGrowingPercent[service]);
  const logger = createLogger({ level: config.logLevel, service });
  for (const warning of config.warnings) logger.warn('configuration', { warning });
  // OpenTelemetry is loaded only when traces are wanted: off and free otherwise.
  const tracing =
    config.otelEndpoint === undefined
      ? undefined
      : (await import('@dialog-relay/tracing')).startTracing({
          serviceName: config.otelResource.serviceName ?? `dialog-relay-${service}`,
          attributes: config.otelResource.attributes,
          version: SERVICE_VERSION,
          endpoint: config.otelEndpoint,
        });
  return {
    config,
    logger,
    tracing,
    onStopSignal: (stop) => {
      let stopping = false;
      const once = (signal: string): void => {
        if (stopping) return;
        stopping = true;
        stop(signal);
      };
      process.on('SIGTERM', () => once('SIGTERM'));
      process.on('SIGINT', () => once('SIGINT'));
    },
    exitWhenClosed: (close) => {
      void close()
        .then(() => tracing?.shutdown())
        .then(() => {
          logger.info(`${service} stopped`);
          process.exit(0);
        });
    },
  };
}

/**
 * Runs a service process: the shared start, then what is the app's own (`main`: build, listen or
 * consume, signals and drain); a failure of either ends the process through exitOnFatal.
 */
export function runService(service: ServiceName, main: (started: StartedService) => Promise<void>): void {
  startService(service)
    .then(main)
    .catch((error: unknown) => exitOnFatal(service, error));
}
