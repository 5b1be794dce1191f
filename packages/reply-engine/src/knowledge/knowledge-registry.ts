import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import type { EngineLogger } from '../reply-engine.js';
import { detectLanguage } from '../language/detect-language.js';
import { createKnowledgeResponder, type AloneDecision, type KnowledgeResponder } from './knowledge-responder.js';
import { loadKnowledgeBase } from './load-knowledge-base.js';

export interface KnowledgeRegistryOptions {
  /** The knowledge file of clients without their own. */
  defaultFile: string;
  logger: EngineLogger;
  /** How often loaded files are checked for changes, in ms; 0 turns watching off (reload() still works). */
  watchIntervalMs?: number;
}

/** Knowledge files by path, each read and indexed once and kept current. */
export interface KnowledgeRegistry {
  /** The indexed knowledge of `file` (a path; undefined: the default file). */
  responderFor(file: string | undefined): Promise<KnowledgeResponder>;
  /** Reads every loaded file again (on SIGHUP); a file that fails keeps its previous version. */
  reload(): Promise<void>;
  /** Stops watching the files. */
  close(): void;
}

export const DEFAULT_WATCH_INTERVAL_MS = 2000;

interface Slot {
  /** The version in use; undefined while a file never loaded successfully. */
  current: KnowledgeResponder | undefined;
  /** The load in progress (first load or reload); loads of one file never overlap. */
  pending: Promise<void>;
}

/** Answers only with the fallback: for a client whose own file has never loaded. */
function fallbackOnly(responder: KnowledgeResponder): KnowledgeResponder {
  // the earlier messages change nothing here: the language is the message's own, or the default
  const decideAlone = (text: string): AloneDecision => ({
    entry: undefined,
    language: detectLanguage(text, responder.kb.languages),
    ranking: { matches: [], weight: 0 },
    entryFinal: true,
    final: true,
  });
  return {
    kb: responder.kb,
    decide: decideAlone,
    decideAlone,
    rank: () => ({ matches: [], weight: 0 }),
    partsOf: (decision) => responder.partsOf({ entry: undefined, language: decision.language }),
  };
}

/**
 * Loads the default file at once (a bad default file stops start-up) and every other file the first
 * time a client needs it. Each loaded file is watched (stat polling, so editors that replace the file
 * are seen too) and reloaded when it changes; reload() does the same for all at once. A file that
 * fails to load is refused with a warning naming the file and the problem, and its previous version
 * stays in use; a client file that never loaded answers with the default file's fallback.
 */
export async function createKnowledgeRegistry(options: KnowledgeRegistryOptions): Promise<KnowledgeRegistry> {
  const { logger } = options;
  const interval = options.watchIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  const defaultPath = resolve(options.defaultFile);
  const slots = new Map<string, Slot>();
  let closed = false;

  const load = (path: string, slot: Slot): Promise<void> => {
    slot.pending = slot.pending.then(async () => {
      try {
        const kb = await loadKnowledgeBase(path);
        const first = slot.current === undefined;
        slot.current = createKnowledgeResponder(kb);
        logger.info?.(first ? 'knowledge file loaded' : 'knowledge file reloaded', { file: path, entries: kb.entries.length });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const keeping = slot.current ? 'the previous version stays in use' : 'clients using it get the fallback answer';
        logger.warn(`knowledge file refused, ${keeping}`, { file: path, error: reason });
      }
    });
    return slot.pending;
  };

  const watch = (path: string, slot: Slot): void => {
    if (interval <= 0) return;
    watchFile(path, { interval, persistent: false }, (now: Stats, before: Stats) => {
      if (!closed && (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino)) void load(path, slot);
    });
  };

  const defaultKb = await loadKnowledgeBase(defaultPath);
  const defaultSlot: Slot = { current: createKnowledgeResponder(defaultKb), pending: Promise.resolve() };
  logger.info?.('knowledge file loaded', { file: defaultPath, entries: defaultKb.entries.length });
  slots.set(defaultPath, defaultSlot);
  watch(defaultPath, defaultSlot);

  const defaultResponder = (): KnowledgeResponder => {
    if (!defaultSlot.current) throw new Error('the default knowledge file is not loaded');
    return defaultSlot.current;
  };

  return {
    async responderFor(file) {
      const path = file === undefined ? defaultPath : resolve(file);
      let slot = slots.get(path);
      if (!slot) {
        slot = { current: undefined, pending: Promise.resolve() };
        slots.set(path, slot);
        watch(path, slot);
        await load(path, slot);
      } else if (!slot.current) {
        await slot.pending;
      }
      return slot.current ?? fallbackOnly(defaultResponder());
    },
    async reload() {
      await Promise.all([...slots].map(([path, slot]) => load(path, slot)));
    },
    close() {
      closed = true;
      for (const path of slots.keys()) unwatchFile(path);
    },
  };
}
