import type { KnowledgeEntry } from '../knowledge/knowledge-base.js';
import type { KnowledgeResponder } from '../knowledge/knowledge-responder.js';
import type { EngineLogger } from '../reply-engine.js';
import type { EmbeddingsClient } from './embeddings-client.js';

export interface EmbeddingRerankerOptions {
  client: EmbeddingsClient;
  logger: EngineLogger;
  /** Least cosine similarity between the message and the best entry's closest phrasing. */
  minSimilarity?: number;
  /** Least lead of that similarity over the second entry's. */
  minMargin?: number;
}

/** Second opinion for messages the word index is not sure about; undefined: still the fallback. */
export type EmbeddingReranker = (responder: KnowledgeResponder, text: string, signal?: AbortSignal) => Promise<KnowledgeEntry | undefined>;

export const DEFAULT_MIN_SIMILARITY = 0.5;
export const DEFAULT_MIN_SIMILARITY_MARGIN = 0.04;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Re-ranks with embeddings when the word index falls back: the message is embedded (one request),
 * every entry scores the cosine similarity of its closest phrasing, and the best entry answers when
 * it is similar enough and ahead of the second. The phrasings' vectors are fetched once per text
 * and cached, so a reloaded file only embeds its new phrasings. Any failure is logged and leaves the
 * fallback in place: the engine never waits on the endpoint for more than its time-out.
 */
export function createEmbeddingReranker(options: EmbeddingRerankerOptions): EmbeddingReranker {
  const minSimilarity = options.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
  const minMargin = options.minMargin ?? DEFAULT_MIN_SIMILARITY_MARGIN;
  const cache = new Map<string, Float32Array>();

  const phrasingVectors = async (entries: readonly KnowledgeEntry[], signal?: AbortSignal): Promise<void> => {
    const missing = [...new Set(entries.flatMap((entry) => entry.questions))].filter((question) => !cache.has(question));
    if (missing.length === 0) return;
    const vectors = await options.client.embed(missing, signal);
    missing.forEach((question, i) => {
      const vector = vectors[i];
      if (vector) cache.set(question, vector);
    });
  };

  return async (responder, text, signal) => {
    try {
      const { entries } = responder.kb;
      await phrasingVectors(entries, signal);
      const [message] = await options.client.embed([text], signal);
      if (!message) return undefined;
      let best: KnowledgeEntry | undefined;
      let first = -1;
      let second = -1;
      for (const entry of entries) {
        let similarity = -1;
        for (const question of entry.questions) {
          const vector = cache.get(question);
          if (vector) similarity = Math.max(similarity, cosine(message, vector));
        }
        if (similarity > first) {
          second = first;
          first = similarity;
          best = entry;
        } else if (similarity > second) second = similarity;
      }
      return first >= minSimilarity && first - second >= minMargin ? best : undefined;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      options.logger.warn('embeddings re-rank failed, answering from the knowledge file alone', {
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };
}
