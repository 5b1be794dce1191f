// What the processes and the evaluation use. The openai engine and the embeddings client are not here:
// createEngineFromConfig loads them when configured, so the knowledge engine's processes never load them.
export type { ReplyRequest, EngineReply, EarlyReply, ReplyEngine, EngineLogger } from './reply-engine.js';
export { termsOf, tokenize } from './text/tokenize.js';
export { loadShippedLexicon } from './text/lexicon-data.js';
export { rewriteEnglishPhrases } from './text/synonyms.js';
export { detectLanguage, languageName } from './language/detect-language.js';
export { EXAMPLE_KNOWLEDGE_FILE } from './example-knowledge-file.js';
export { parseKnowledgeBase, DEFAULT_THRESHOLDS, type ConfidenceThresholds, type KnowledgeBase } from './knowledge/knowledge-base.js';
export { loadKnowledgeBase } from './knowledge/load-knowledge-base.js';
export { confidenceFeatures, isConfident, type ConfidenceFeatures } from './knowledge/confidence.js';
export { createKnowledgeResponder, RANKED_TEXT_MAX_CHARS, type KnowledgeResponder } from './knowledge/knowledge-responder.js';
export { createKnowledgeEngine, DEFAULT_KNOWLEDGE_HISTORY_MESSAGES, recentCustomerTexts } from './knowledge/knowledge-engine.js';
export { retrieveEntries } from './knowledge/retrieve-entries.js';
export { createEngineFromConfig, type ConfiguredEngine, type EngineFromConfigOptions } from './engine-from-config.js';
export { startReplyEngine, type StartedReplyEngine, type ReloadSignal } from './start-reply-engine.js';
export { countedEngine, type CountReply } from './counted-engine.js';
