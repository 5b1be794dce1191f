import type { ReplyEngineConfig } from '@dialog-relay/config';
import type { ReplyPart } from '@dialog-relay/contracts';
import { EXAMPLE_KNOWLEDGE_FILE } from './example-knowledge-file.js';
import { createKnowledgeEngine } from './knowledge/knowledge-engine.js';
import { loadKnowledgeBase } from './knowledge/load-knowledge-base.js';
import { createOpenAiEngine } from './openai/openai-engine.js';
import type { EngineLogger, ReplyEngine } from './reply-engine.js';

/** Builds the configured engine once at start-up; the knowledge file is read and indexed here. */
export async function createEngineFromConfig(config: ReplyEngineConfig, options: { fallbackText: string; logger: EngineLogger }): Promise<ReplyEngine> {
  if (config.kind === 'knowledge') {
    return createKnowledgeEngine(await loadKnowledgeBase(config.knowledgeFile ?? EXAMPLE_KNOWLEDGE_FILE));
  }
  const fallback: ReplyPart[] = options.fallbackText === '' ? [] : [{ type: 'text', content: options.fallbackText }];
  return createOpenAiEngine({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    systemPrompt: config.systemPrompt,
    fallback,
    logger: options.logger,
  });
}
