import type { EmbeddingsConfig, ReplyEngineConfig } from '@dialog-relay/config';
import type { ReplyPart } from '@dialog-relay/contracts';
import { EXAMPLE_KNOWLEDGE_FILE } from './example-knowledge-file.js';
import { createResponderEngine } from './knowledge/knowledge-engine.js';
import { createKnowledgeRegistry } from './knowledge/knowledge-registry.js';
import type { KnowledgeResponder } from './knowledge/knowledge-responder.js';
import type { EngineLogger, ReplyEngine } from './reply-engine.js';

/** The configured engine, with what the process wiring needs: reloading (SIGHUP) and closing. */
export interface ConfiguredEngine extends ReplyEngine {
  /** Reads the knowledge files again; a bad file is refused and its previous version stays in use. */
  reload(): Promise<void>;
  /** Stops watching knowledge files. */
  close(): void;
}

export interface EngineFromConfigOptions {
  fallbackText: string;
  logger: EngineLogger;
  /** The knowledge file a client names in its settings (`knowledge_file`); undefined: the default file. */
  knowledgeFileOf?: (client: string) => Promise<string | undefined> | string | undefined;
  /** How often knowledge files are checked for changes, in ms (0: only on reload()). */
  watchIntervalMs?: number;
}

/**
 * Builds the configured engine once at start-up. Either engine reads and indexes the default
 * knowledge file here (a bad file stops start-up: ConfigError naming KNOWLEDGE_FILE); a client's own file is read when the client first
 * needs it, and every file is reloaded when it changes. With an embeddings endpoint configured,
 * messages the word index would answer with the fallback get a second opinion from embeddings. The
 * openai engine is grounded in the same knowledge (docs/service-rules.md §17).
 */
export async function createEngineFromConfig(config: ReplyEngineConfig, options: EngineFromConfigOptions): Promise<ConfiguredEngine> {
  // Both engines answer from the client's own knowledge: its knowledge_file, else the default file.
  const registry = await createKnowledgeRegistry({
    defaultFile: config.knowledgeFile ?? EXAMPLE_KNOWLEDGE_FILE,
    logger: options.logger,
    ...(options.watchIntervalMs === undefined ? {} : { watchIntervalMs: options.watchIntervalMs }),
  });
  const { knowledgeFileOf } = options;
  const knowledgeFor = async (client: string | undefined): Promise<KnowledgeResponder> => {
    const file = client === undefined || !knowledgeFileOf ? undefined : await knowledgeFileOf(client);
    return registry.responderFor(file);
  };
  const lifecycle = { reload: () => registry.reload(), close: () => registry.close() };
  if (config.kind === 'knowledge') {
    // The embeddings client and the openai engine (and their HTTP client) are loaded only when configured.
    const rerank = config.embeddings ? await embeddingReranker(config.embeddings, options.logger) : undefined;
    return { ...createResponderEngine(knowledgeFor, rerank ? { rerank } : {}), ...lifecycle };
  }
  const fallback: ReplyPart[] = options.fallbackText === '' ? [] : [{ type: 'text', content: options.fallbackText }];
  const { createOpenAiEngine } = await import('./openai/openai-engine.js');
  const engine = createOpenAiEngine({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    systemPrompt: config.systemPrompt,
    fallback,
    grounding: { knowledgeFor, contextEntries: config.contextEntries, contextMaxChars: config.contextMaxChars },
    logger: options.logger,
  });
  return { ...engine, ...lifecycle };
}

async function embeddingReranker(config: EmbeddingsConfig, logger: EngineLogger) {
  const [{ createEmbeddingReranker }, { createEmbeddingsClient }] = await Promise.all([
    import('./embeddings/embedding-reranker.js'),
    import('./embeddings/embeddings-client.js'),
  ]);
  return createEmbeddingReranker({ client: createEmbeddingsClient(config), logger });
}
