import type { Logger } from '@dialog-relay/logger';
import { writeFile } from 'node:fs/promises';

export interface Heartbeat {
  stop(): void;
}

/**
 * Touches `file` now and every `intervalMs` while `alive()` holds (the replica's queue workers run).
 * It is written from a timer, so a worker whose event loop is stuck stops touching it, and the
 * container's liveness check (scripts/worker-health.mjs) sees the file age.
 */
export function startHeartbeat(options: { file: string; intervalMs: number; alive: () => boolean; logger: Logger }): Heartbeat {
  let failing = false;
  const beat = (): void => {
    if (!options.alive()) return;
    writeFile(options.file, `${new Date().toISOString()}\n`).then(
      () => {
        failing = false;
      },
      (error: unknown) => {
        // Said once per run of failures, not every interval.
        if (!failing)
          options.logger.warn('worker heartbeat file not written', {
            file: options.file,
            error: error instanceof Error ? error.message : String(error),
          });
        failing = true;
      },
    );
  };
  beat();
  const timer = setInterval(beat, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
