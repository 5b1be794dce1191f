import type { ReplyPart } from '@dialog-relay/contracts';
import { got, HTTPError, RequestError } from 'got';
import { capDownload } from '../http/capped-download.js';
import { copyParts, cutText } from '../message-text.js';
import type { EngineLogger, ReplyEngine } from '../reply-engine.js';
import { buildChatMessages, readCompletionText } from './chat-messages.js';
import { retryDelay } from './retry-delay.js';

export interface OpenAiEngineOptions {
  /** API root including the version, e.g. http://127.0.0.1:1234/v1 (trailing slashes are ignored). */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Limit of each attempt, in milliseconds. */
  timeoutMs: number;
  /** Retries after the first attempt, on 408/429/5xx answers, timeouts and network errors. */
  maxRetries: number;
  systemPrompt: string;
  /** Reply when the API fails or answers nothing usable; [] means: send nothing. */
  fallback: ReplyPart[];
  /** How many earlier context messages go to the model (default 10). */
  historyMessages?: number;
  logger: EngineLogger;
}

export const DEFAULT_OPENAI_HISTORY_MESSAGES = 10;
/** Largest chat-completions answer read, in bytes: a bigger one (or an endless stream) is cut off and answered with the fallback. */
export const OPENAI_RESPONSE_MAX_BYTES = 1024 * 1024;
/** Longest reply sent, in characters (the API's own limit on a message's content): a longer answer is cut. */
export const OPENAI_REPLY_MAX_CHARS = 10_000;
/** Keys this long are secrets, never found in a reply by chance; shorter ones are placeholders. */
const ECHOED_KEY_MIN_CHARS = 16;
const RETRY_STATUS_CODES = [408, 429, 500, 502, 503, 504, 521, 522, 524];

function describeFailure(error: unknown): Record<string, unknown> {
  if (error instanceof HTTPError) {
    return { reason: `HTTP ${error.response.statusCode}`, status: error.response.statusCode, attempts: error.request.retryCount + 1 };
  }
  if (error instanceof RequestError) {
    return { reason: error.message, code: error.code, attempts: (error.request?.retryCount ?? 0) + 1 };
  }
  return { reason: error instanceof Error ? error.message : String(error) };
}

/**
 * Replies with an OpenAI-compatible chat-completions API (POST {baseUrl}/chat/completions).
 * Failures after the retries, and empty or malformed answers, are logged with logger.warn and
 * answered with `fallback`. When `signal` aborts, reply rejects with the signal's reason instead.
 */
export function createOpenAiEngine(options: OpenAiEngineOptions): ReplyEngine {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const historyMessages = options.historyMessages ?? DEFAULT_OPENAI_HISTORY_MESSAGES;
  const { logger, model } = options;

  const fail = (meta: Record<string, unknown>): ReplyPart[] => {
    logger.warn('openai engine: no usable answer, replying with the fallback', { engine: 'openai', model, ...meta });
    return copyParts(options.fallback);
  };

  return {
    name: 'openai',
    contextWindow: historyMessages,
    async reply(request, signal) {
      signal?.throwIfAborted();
      const messages = buildChatMessages(options.systemPrompt, request.context, request.message, historyMessages);
      let body: string;
      let tooLarge = (): boolean => false;
      try {
        const call = got.post(url, {
          json: { model, messages },
          headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
          responseType: 'text',
          timeout: { request: options.timeoutMs },
          followRedirect: false,
          retry: {
            limit: options.maxRetries,
            methods: ['POST'],
            statusCodes: RETRY_STATUS_CODES,
            maxRetryAfter: Number.POSITIVE_INFINITY,
            enforceRetryRules: true,
            calculateDelay: retryDelay,
          },
          ...(signal ? { signal } : {}),
        });
        tooLarge = capDownload(call, OPENAI_RESPONSE_MAX_BYTES);
        body = (await call).body;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        return fail(tooLarge() ? { reason: `response larger than ${OPENAI_RESPONSE_MAX_BYTES} bytes` } : describeFailure(error));
      }
      const completion = readCompletionText(body);
      if ('problem' in completion) return fail({ reason: completion.problem });
      // A proxy or server that echoes the request's headers must not hand the key to a customer. A
      // short key is a placeholder (local servers need none) that ordinary text may contain.
      if (options.apiKey.length >= ECHOED_KEY_MIN_CHARS && completion.text.includes(options.apiKey)) return fail({ reason: 'answer contains the API key' });
      const text = cutText(completion.text, OPENAI_REPLY_MAX_CHARS);
      if (text !== completion.text) {
        logger.warn('openai engine: answer cut to the reply limit', { engine: 'openai', model, chars: completion.text.length, limit: OPENAI_REPLY_MAX_CHARS });
      }
      return [{ type: 'text', content: text }];
    },
  };
}
