import type { OpenAiEngineConfig } from '@dialog-relay/config';
import type { ReplyPart } from '@dialog-relay/contracts';
import { got, HTTPError, RequestError } from 'got';
import { capDownload } from '../http/capped-download.js';
import { recentCustomerTexts } from '../knowledge/knowledge-engine.js';
import type { KnowledgeResponder } from '../knowledge/knowledge-responder.js';
import { retrieveEntries } from '../knowledge/retrieve-entries.js';
import { copyParts, cutText, messageText } from '../message-text.js';
import { answeredReply, handoffReply, type EngineLogger, type EngineReply, type ReplyEngine, type ReplyRequest } from '../reply-engine.js';
import { buildChatMessages, conversationMessages, customerLanguage, readCompletionText, type ChatMessage } from './chat-messages.js';
import { readGroundedAnswer } from './grounded-answer.js';
import { GROUNDED_RESPONSE_FORMAT, groundedSystemMessage } from './grounded-prompt.js';
import { retryDelay } from './retry-delay.js';

/** How the model is grounded in a client's knowledge (docs/service-rules.md §17). */
export interface OpenAiGrounding {
  /** The indexed knowledge of a request's client (its own knowledge_file, else the default file). */
  knowledgeFor(client: string | undefined): KnowledgeResponder | Promise<KnowledgeResponder>;
  /** KNOWLEDGE_CONTEXT_ENTRIES: at most this many entries in a prompt. */
  contextEntries: number;
  /** KNOWLEDGE_CONTEXT_MAX_CHARS: the entries of a prompt together at most this long. */
  contextMaxChars: number;
}

/** The configuration's connection fields (packages/config OpenAiEngineConfig: base URL, key, model, time-out, retries, system prompt), and what the engine adds. */
export interface OpenAiEngineOptions extends Pick<
  OpenAiEngineConfig,
  'baseUrl' | 'apiKey' | 'model' | 'timeoutMs' | 'maxRetries' | 'systemPrompt'
> {
  /** Reply when the API fails or answers nothing usable; [] means: send nothing. */
  fallback: ReplyPart[];
  /** How many earlier context messages go to the model (default 10). */
  historyMessages?: number;
  /** Answer only from the client's knowledge, in {answer, handoff, sources}; without it the model answers freely. */
  grounding?: OpenAiGrounding;
  logger: EngineLogger;
}

export const DEFAULT_OPENAI_HISTORY_MESSAGES = 10;
/** How many of the customer's earlier messages retrieval reads with the newest ("and to Japan?"). */
export const RETRIEVAL_HISTORY_MESSAGES = 2;
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

/** A request ready to send: its body, and what a grounded answer is checked against. */
interface Prepared {
  body: Record<string, unknown>;
  grounded?: {
    shown: string[];
    handoff: ReplyPart[];
    language: string | undefined;
    /** The file parts (not text) of each shown entry's answer in the customer's language, by id. */
    files: ReadonlyMap<string, ReplyPart[]>;
  };
}

/**
 * Replies with an OpenAI-compatible chat-completions API (POST {baseUrl}/chat/completions).
 * Grounded (docs/service-rules.md §17): the best entries of the client's knowledge go into the system
 * prompt as the only facts, the answer is asked for as {answer, handoff, sources} (plain text and
 * fenced JSON are read too), sources not in the prompt are dropped, the first source's file parts
 * (in the customer's language) follow the answer, and a handoff answers the
 * knowledge file's fallback in the customer's language; a message without text is a handoff with no
 * call. Failures after the retries, and empty or malformed answers, are logged with logger.warn and
 * answered with `fallback` (outcome error). When `signal` aborts, reply rejects with its reason.
 * Logs name entries, sources and outcomes, never the customer's text or the model's answer.
 */
export function createOpenAiEngine(options: OpenAiEngineOptions): ReplyEngine {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const historyMessages = options.historyMessages ?? DEFAULT_OPENAI_HISTORY_MESSAGES;
  const { logger, model, grounding } = options;

  const fail = (meta: Record<string, unknown>): EngineReply => {
    logger.warn('openai engine: no usable answer, replying with the fallback', { engine: 'openai', model, ...meta });
    return handoffReply(copyParts(options.fallback), 'error');
  };

  const prepare = async (request: ReplyRequest): Promise<Prepared | EngineReply> => {
    if (!grounding)
      return { body: { model, messages: buildChatMessages(options.systemPrompt, request.context, request.message, historyMessages) } };
    const responder = await grounding.knowledgeFor(request.client);
    const text = messageText(request.message);
    const history = recentCustomerTexts(request.context, RETRIEVAL_HISTORY_MESSAGES);
    const retrieval = retrieveEntries(responder, text, history, text === '' ? 0 : grounding.contextEntries);
    const language = retrieval.language ?? customerLanguage(request.context, request.message);
    const handoff = responder.partsOf({ entry: undefined, language });
    if (text === '') {
      // Files only: nothing to look up or ask a model about (docs/service-rules.md §17, "Cost").
      logger.info?.('openai engine: handoff without a call (no text)', { engine: 'openai', outcome: 'handoff' });
      return handoffReply(handoff);
    }
    const system = groundedSystemMessage(options.systemPrompt, language, retrieval.entries, grounding.contextMaxChars);
    const messages: ChatMessage[] = [
      { role: 'system', content: system.content },
      ...conversationMessages(request.context, request.message, historyMessages),
    ];
    const files = new Map(retrieval.entries.map((entry) => [entry.id, entry.parts.filter((part) => part.type !== 'text')]));
    return {
      body: { model, messages, response_format: GROUNDED_RESPONSE_FORMAT },
      grounded: { shown: system.shown, handoff, language, files },
    };
  };

  const call = async (
    body: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<{ body: string } | { failure: Record<string, unknown> }> => {
    let tooLarge = (): boolean => false;
    try {
      const pending = got.post(url, {
        json: body,
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
      tooLarge = capDownload(pending, OPENAI_RESPONSE_MAX_BYTES);
      return { body: (await pending).body };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      return { failure: tooLarge() ? { reason: `response larger than ${OPENAI_RESPONSE_MAX_BYTES} bytes` } : describeFailure(error) };
    }
  };

  return {
    name: 'openai',
    contextWindow: historyMessages,
    async reply(request, signal) {
      signal?.throwIfAborted();
      const prepared = await prepare(request);
      if ('outcome' in prepared) return prepared;
      signal?.throwIfAborted();
      const answered = await call(prepared.body, signal);
      if ('failure' in answered) return fail(answered.failure);
      const completion = readCompletionText(answered.body);
      if ('problem' in completion) return fail({ reason: completion.problem });
      let text = completion.text;
      let sources: string[] = [];
      let attached: ReplyPart[] = [];
      let replied = (): void => undefined;
      const { grounded } = prepared;
      if (grounded) {
        const answer = readGroundedAnswer(text);
        if ('problem' in answer) return fail({ reason: answer.problem, entries: grounded.shown });
        const meta = { engine: 'openai', model, entries: grounded.shown, language: grounded.language, structured: answer.structured };
        if (answer.handoff) {
          logger.info?.('openai engine: replied', { ...meta, outcome: 'handoff', sources: [] });
          return handoffReply(grounded.handoff);
        }
        if (answer.answer === '') return fail({ reason: 'answer is empty', entries: grounded.shown });
        // Only entries the model was shown can be sources; each once, in the model's order.
        sources = [...new Set(answer.sources)].filter((id) => grounded.shown.includes(id));
        text = answer.answer;
        // The first source's files go with the answer, as the knowledge engine sends its entry's
        // (docs/knowledge-file.md, "Grounded model replies"); other sources' files are not sent.
        attached = grounded.files.get(sources[0] ?? '') ?? [];
        replied = () => logger.info?.('openai engine: replied', { ...meta, outcome: 'answered', sources });
      }
      // A proxy or server that echoes the request's headers must not hand the key to a customer. A
      // short key is a placeholder (local servers need none) that ordinary text may contain.
      if (options.apiKey.length >= ECHOED_KEY_MIN_CHARS && text.includes(options.apiKey))
        return fail({ reason: 'answer contains the API key' });
      const cut = cutText(text, OPENAI_REPLY_MAX_CHARS);
      if (cut !== text) {
        logger.warn('openai engine: answer cut to the reply limit', {
          engine: 'openai',
          model,
          chars: text.length,
          limit: OPENAI_REPLY_MAX_CHARS,
        });
      }
      replied();
      return answeredReply([{ type: 'text', content: cut }, ...attached], sources);
    },
  };
}
