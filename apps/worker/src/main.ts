import { workerDrainBoundMs } from '@dialog-relay/config';
import { runService, type StartedService } from '@dialog-relay/process';
import { buildWorker } from './build-worker.js';
import { startHeartbeat } from './heartbeat.js';

/** Process wiring of one worker replica, after the shared start (configuration, logger, tracing): start, and a drain on SIGTERM / SIGINT. */
async function main({ config, logger, tracing, onStopSignal, exitWhenClosed }: StartedService): Promise<void> {
  const runtime = await buildWorker(config, logger, { tracing });
  const { file, intervalMs } = config.workerHeartbeat;
  const heartbeat =
    file === undefined
      ? undefined
      : startHeartbeat({ file, intervalMs, alive: () => runtime.workers.every((worker) => worker.isRunning()), logger });

  onStopSignal((signal) => {
    logger.info('worker draining', { signal });
    heartbeat?.stop();
    const force = setTimeout(() => {
      logger.warn('worker drain timed out; unfinished jobs will be taken up by another replica');
      process.exit(1);
    }, workerDrainBoundMs(config));
    force.unref();
    exitWhenClosed(() => runtime.close());
  });
  // Logged only once the drain is in place: whoever stops the worker on reading this line gets the drain,
  // never the signal's default action (before it, a start has taken no job).
  logger.info('worker started', { concurrency: config.workerConcurrency, pid: process.pid });
}

runService('worker', main);
