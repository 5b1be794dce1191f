import type { ContextMessage } from '@dialog-relay/contracts';
import type { EmbeddingReranker } from '../embeddings/embedding-reranker.js';
import { messageText } from '../message-text.js';
import { answeredReply, handoffReply, type ReplyEngine } from '../reply-engine.js';
import type { KnowledgeBase } from './knowledge-base.js';
import {
  createKnowledgeResponder,
  rankedPart,
  type AloneDecision,
  type KnowledgeDecision,
  type KnowledgeResponder,
} from './knowledge-responder.js';

export interface KnowledgeEngineOptions {
  /** How many earlier customer messages may complete a follow-up question (default 2, 0 = none). */
  historyMessages?: number;
  /** Asked when the word index falls back on a message that has words (embeddings, optional). */
  rerank?: EmbeddingReranker;
}

export const DEFAULT_KNOWLEDGE_HISTORY_MESSAGES = 2;

/** An early reply's `used` where nothing follows from it (the count is countedEngine's). */
const NOTHING_TO_DO = (): void => undefined;

/** The texts of the last `count` customer messages of the context that have text, oldest first. */
export function recentCustomerTexts(context: readonly ContextMessage[], count: number): string[] {
  const texts: string[] = [];
  // from the newest back, until `count` are found: the earlier messages are not read
  for (let i = context.length - 1; i >= 0 && texts.length < count; i--) {
    const message = context[i] as ContextMessage;
    if (message.role !== 'customer') continue;
    const text = messageText(message);
    if (text !== '') texts.push(text);
  }
  return texts.reverse();
}

/** How many context messages a knowledge engine reads: the customer messages, with room for the replies between them. */
export function knowledgeContextWindow(historyMessages: number): number {
  return Math.max(10, historyMessages * 5);
}

/**
 * A reply engine answering from one knowledge source: the confident entry (its id the reply's only
 * source), else the fallback as a handoff. `responderFor` gives the indexed knowledge for
 * a request (one fixed file, or the file of the request's client); see createKnowledgeResponder.
 */
export function createResponderEngine(
  responderFor: (client: string | undefined) => KnowledgeResponder | Promise<KnowledgeResponder>,
  options: KnowledgeEngineOptions = {},
): ReplyEngine {
  const historyMessages = options.historyMessages ?? DEFAULT_KNOWLEDGE_HISTORY_MESSAGES;
  // replyAlone's decisions that the context may still change, for the reply that follows with the
  // context (found by the message object; gone with it, when the request ends or is refused)
  const undecided = new WeakMap<ContextMessage, { responder: KnowledgeResponder; alone: AloneDecision }>();
  const replyOf = async (responder: KnowledgeResponder, text: string, decision: KnowledgeDecision, signal?: AbortSignal) => {
    if (decision.entry === undefined && options.rerank && decision.ranking.weight > 0) {
      // The endpoint gets what the words ranked, not megabytes (docs/knowledge-engine.md, "Cost").
      const entry = await options.rerank(responder, rankedPart(text), signal);
      if (entry) return answeredReply(responder.partsOf({ entry, language: decision.language }), [entry.id]);
    }
    // The fallback is a handoff (docs/service-rules.md §17): nothing in the knowledge answers.
    const parts = responder.partsOf(decision);
    return decision.entry ? answeredReply(parts, [decision.entry.id]) : handoffReply(parts);
  };
  return {
    name: 'knowledge',
    contextWindow: knowledgeContextWindow(historyMessages),
    // it reads the customer's texts only (recentCustomerTexts), so the worker reads no other message
    contextCustomerTexts: historyMessages,
    async reply(request, signal) {
      signal?.throwIfAborted();
      const responder = await responderFor(request.client);
      signal?.throwIfAborted();
      const text = messageText(request.message);
      const kept = undecided.get(request.message);
      const alone = kept?.responder === responder ? kept.alone : undefined;
      const decision = responder.decide(text, recentCustomerTexts(request.context, historyMessages), alone);
      return replyOf(responder, text, decision, signal);
    },
    async replyAlone(request) {
      const responder = await responderFor(request.client);
      const text = messageText(request.message);
      const alone = responder.decideAlone(text);
      if (alone.final) return { reply: await replyOf(responder, text, alone), used: NOTHING_TO_DO };
      undecided.set(request.message, { responder, alone });
      return undefined;
    },
  };
}

/** A reply engine answering from one knowledge base (see createKnowledgeResponder). */
export function createKnowledgeEngine(kb: KnowledgeBase, options: KnowledgeEngineOptions = {}): ReplyEngine {
  const responder = createKnowledgeResponder(kb);
  return createResponderEngine(() => responder, options);
}
