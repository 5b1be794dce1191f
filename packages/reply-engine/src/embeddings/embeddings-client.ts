import { got } from 'got';
import { capDownload } from '../http/capped-download.js';

export interface EmbeddingsClientOptions {
  /** API root including the version, e.g. http://127.0.0.1:1234/v1 (trailing slashes are ignored). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Limit of each request, in milliseconds; there are no retries (the engine answers without). */
  timeoutMs: number;
}

export interface EmbeddingsClient {
  /** One vector per text, in order. Rejects on any failure (network, status, malformed answer). */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** Most texts one request carries; the FAQ's phrasings are embedded in batches of this size. */
export const EMBEDDINGS_BATCH = 128;
/**
 * Largest answer read per text embedded, in bytes: room for 8,192 dimensions written as JSON. A
 * bigger answer (or an endless one) is cut off and the request fails, so memory stays bounded.
 */
export const EMBEDDING_ANSWER_MAX_BYTES_PER_TEXT = 256 * 1024;

function readVectors(body: string, count: number): Float32Array[] {
  const parsed = JSON.parse(body) as { data?: unknown };
  if (!Array.isArray(parsed.data) || parsed.data.length !== count) throw new Error(`embeddings answer has no data for ${count} inputs`);
  const vectors: Float32Array[] = new Array<Float32Array>(count);
  parsed.data.forEach((item: unknown, position) => {
    const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
    const at = typeof index === 'number' ? index : position;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number') || at < 0 || at >= count) {
      throw new Error('embeddings answer has a malformed data item');
    }
    vectors[at] = Float32Array.from(embedding);
  });
  return vectors;
}

/** A client of an OpenAI-compatible embeddings API: POST {baseUrl}/embeddings {model, input}. */
export function createEmbeddingsClient(options: EmbeddingsClientOptions): EmbeddingsClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey !== undefined) headers['authorization'] = `Bearer ${options.apiKey}`;
  const post = async (input: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> => {
    const maxBytes = input.length * EMBEDDING_ANSWER_MAX_BYTES_PER_TEXT;
    const call = got.post(url, {
      json: { model: options.model, input },
      headers,
      responseType: 'text',
      timeout: { request: options.timeoutMs },
      followRedirect: false,
      retry: { limit: 0 },
      ...(signal ? { signal } : {}),
    });
    const tooLarge = capDownload(call, maxBytes);
    try {
      return readVectors((await call).body, input.length);
    } catch (error) {
      if (tooLarge()) throw new Error(`embeddings answer larger than ${maxBytes} bytes`);
      throw error;
    }
  };
  return {
    async embed(texts, signal) {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += EMBEDDINGS_BATCH) vectors.push(...(await post(texts.slice(i, i + EMBEDDINGS_BATCH), signal)));
      return vectors;
    },
  };
}
