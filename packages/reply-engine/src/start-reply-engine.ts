import type { Config } from '@dialog-relay/config';
import { createEngineFromConfig, type ConfiguredEngine, type EngineFromConfigOptions } from './engine-from-config.js';

export interface StartedReplyEngine {
  engine: ConfiguredEngine;
  /** Stops the SIGHUP reload and the knowledge files' watch. */
  close(): void;
}

/** Lets a test (or a process with its own signal handling) leave the process's SIGHUP alone. */
export interface ReloadSignal {
  on(signal: 'SIGHUP', listener: () => void): unknown;
  off(signal: 'SIGHUP', listener: () => void): unknown;
}

/**
 * The engine a process serves with (the API's sync replies, the worker's auto replies), started once
 * the same way in both: built from the configuration, its knowledge files reloaded on SIGHUP whatever
 * the engine (unhandled, SIGHUP would end the process).
 */
export async function startReplyEngine(
  config: Pick<Config, 'replyEngine' | 'replyFallback'>,
  options: Omit<EngineFromConfigOptions, 'fallbackText'> & { signals?: ReloadSignal },
): Promise<StartedReplyEngine> {
  const { signals = process, ...engineOptions } = options;
  const engine = await createEngineFromConfig(config.replyEngine, { ...engineOptions, fallbackText: config.replyFallback });
  const reload = (): void => void engine.reload();
  signals.on('SIGHUP', reload);
  return {
    engine,
    close: () => {
      signals.off('SIGHUP', reload);
      engine.close();
    },
  };
}
