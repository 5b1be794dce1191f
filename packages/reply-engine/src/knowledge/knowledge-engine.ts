import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';
import { copyParts, messageText } from '../message-text.js';
import type { ReplyEngine } from '../reply-engine.js';
import { tokenize } from '../tokenize.js';
import type { KnowledgeBase, KnowledgeEntry } from './knowledge-base.js';
import { createKnowledgeIndex, type KnowledgeIndex } from './knowledge-index.js';

export interface KnowledgeEngineOptions {
  /** How many earlier customer messages may complete a follow-up question (default 2, 0 = none). */
  historyMessages?: number;
}

export const DEFAULT_KNOWLEDGE_HISTORY_MESSAGES = 2;

function recentCustomerTexts(context: readonly ContextMessage[], count: number): string[] {
  if (count <= 0) return [];
  return context
    .filter((message) => message.role === 'customer')
    .map(messageText)
    .filter((text) => text !== '')
    .slice(-count);
}

function bestEntry(index: KnowledgeIndex, text: string, minScore: number): KnowledgeEntry | undefined {
  const [best] = index.search(text);
  return best !== undefined && best.score >= minScore ? best.entry : undefined;
}

/**
 * Answers from a FAQ: the incoming message's text is searched among all question phrasings and the
 * best entry answers if it scores at least `kb.minScore`. Otherwise, when the message has words of
 * its own, it is searched again together with the last `historyMessages` customer messages, so a
 * follow-up ("and on weekends?") finds the entry of the question it follows. Failing that, and for
 * messages without text (files only), the answer is `kb.fallback`.
 */
export function createKnowledgeEngine(kb: KnowledgeBase, options: KnowledgeEngineOptions = {}): ReplyEngine {
  const historyMessages = options.historyMessages ?? DEFAULT_KNOWLEDGE_HISTORY_MESSAGES;
  const index = createKnowledgeIndex(kb.entries);

  const answer = (text: string, context: readonly ContextMessage[]): ReplyPart[] => {
    // Files only, or only stop words ("thanks!"): nothing to search for, and the history would
    // just repeat the answer to an earlier question.
    if (tokenize(text).length === 0) return copyParts(kb.fallback);
    const direct = bestEntry(index, text, kb.minScore);
    if (direct) return copyParts(direct.answer);
    const history = recentCustomerTexts(context, historyMessages);
    if (history.length > 0) {
      const withHistory = bestEntry(index, [text, ...history].join('\n'), kb.minScore);
      if (withHistory) return copyParts(withHistory.answer);
    }
    return copyParts(kb.fallback);
  };

  return {
    name: 'knowledge',
    // the last `historyMessages` customer messages, with room for the replies between them
    contextWindow: Math.max(10, historyMessages * 5),
    reply(request, signal) {
      return new Promise<ReplyPart[]>((resolve) => {
        signal?.throwIfAborted();
        resolve(answer(messageText(request.message), request.context));
      });
    },
  };
}
