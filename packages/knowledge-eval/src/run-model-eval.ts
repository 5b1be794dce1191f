import { loadConfig, type Env } from '@dialog-relay/config';
import { createEngineFromConfig, EXAMPLE_KNOWLEDGE_FILE, loadKnowledgeBase } from '@dialog-relay/reply-engine';
import type { EvalCase } from './eval-cases.js';
import { evaluateModel, formatModelReport } from './evaluate-model.js';

export interface ModelEvalOptions {
  /** The knowledge file (default: KNOWLEDGE_FILE, else the bundled example). */
  file: string | undefined;
  cases: readonly EvalCase[];
  json: boolean;
  concurrency: number;
}

/**
 * `--engine openai`: builds the grounded openai engine from the environment as the service would
 * (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL, KNOWLEDGE_CONTEXT_*, …; REPLY_ENGINE is implied),
 * runs the cases through it and prints the report. Engine warnings (a failing endpoint) go to stderr.
 */
export async function runModelEval(
  options: ModelEvalOptions,
  env: Env,
  print: (text: string) => void,
  printError: (text: string) => void,
): Promise<number> {
  const config = loadConfig({ ...env, REPLY_ENGINE: 'openai', ...(options.file === undefined ? {} : { KNOWLEDGE_FILE: options.file }) });
  const engineConfig = config.replyEngine;
  if (engineConfig.kind !== 'openai') return 64;
  const kb = await loadKnowledgeBase(engineConfig.knowledgeFile ?? EXAMPLE_KNOWLEDGE_FILE);
  const engine = await createEngineFromConfig(engineConfig, {
    fallbackText: config.replyFallback,
    logger: { warn: (message, meta) => printError(`${message} ${JSON.stringify(meta ?? {})}`) },
    watchIntervalMs: 0,
  });
  try {
    const report = await evaluateModel(engine, new Set(kb.entries.map((entry) => entry.id)), options.cases, options.concurrency);
    print(
      options.json
        ? JSON.stringify({ ...report, model: engineConfig.model, entries: kb.entries.length }, null, 2)
        : formatModelReport(report, engineConfig.model),
    );
    return 0;
  } finally {
    engine.close();
  }
}
