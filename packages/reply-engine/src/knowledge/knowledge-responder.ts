import type { ReplyPart } from '@dialog-relay/contracts';
import { detectLanguage } from '../language/detect-language.js';
import { pickLocalized } from '../language/localized.js';
import { copyParts, cutText } from '../message-text.js';
import { defaultLexicon } from '../text/synonyms.js';
import { tokenize } from '../text/tokenize.js';
import { confidentEntry } from './confidence.js';
import type { KnowledgeBase, KnowledgeEntry } from './knowledge-base.js';
import { createKnowledgeIndex, type KnowledgeRanking } from './knowledge-index.js';

export interface KnowledgeDecision {
  /** The entry that answers, or undefined for the fallback. */
  entry: KnowledgeEntry | undefined;
  /** The customer's language (undefined when the message has no letters: the default language answers). */
  language: string | undefined;
  /** The ranking of the newest message alone. */
  ranking: KnowledgeRanking;
}

/** A decision from the newest message alone (decideAlone), and whether the earlier messages could still change it. */
export interface AloneDecision extends KnowledgeDecision {
  /** The entry stands whatever came before: it is confident, or the message has no words to search with. */
  entryFinal: boolean;
  /** So does the whole decision: the entry, and the language told from the message itself. */
  final: boolean;
}

/** One knowledge file, indexed: decides which entry answers a message, and in which language. */
export interface KnowledgeResponder {
  readonly kb: KnowledgeBase;
  /**
   * `history`: the customer's earlier texts, oldest first, tried when the message alone is not enough.
   * `alone`: decideAlone's decision for this same text, when it was made already (it is not made again).
   */
  decide(text: string, history: readonly string[], alone?: AloneDecision): KnowledgeDecision;
  /** The decision from the message alone: what decide answers with any history when it is `final`. */
  decideAlone(text: string): AloneDecision;
  /** The best `depth` entries for a text (knowledge-index.ts; no confidence rule, the text read whole: callers cut it). */
  rank(text: string, depth?: number): KnowledgeRanking;
  /** The reply parts of a decision (copies), in the customer's language when the entry has it. */
  partsOf(decision: Pick<KnowledgeDecision, 'entry' | 'language'>): ReplyPart[];
}

/**
 * Indexes a knowledge base once. The newest message is ranked alone and answered when the best
 * entry is confidently ahead (confidence.ts). Otherwise, when the message has words of its own, it
 * is ranked again together with each of the customer's earlier messages, newest first, so a
 * follow-up ("and tomorrow?") finds the entry of the question it follows. Else the fallback answers.
 */
/**
 * How much of a message the engine reads (docs/knowledge-engine.md, "Cost"). Customer questions are
 * a few hundred characters at most; a body may carry megabytes of text, which would cost seconds to
 * rank. The rest of a longer text is not read.
 */
export const RANKED_TEXT_MAX_CHARS = 2000;

/** The first RANKED_TEXT_MAX_CHARS characters of a text: what the engine reads of it. */
export const rankedPart = (text: string): string => cutText(text, RANKED_TEXT_MAX_CHARS);

export function createKnowledgeResponder(kb: KnowledgeBase): KnowledgeResponder {
  const lexicon = kb.lexicon ?? defaultLexicon();
  const index = createKnowledgeIndex(kb.entries, lexicon);
  const decideAlone = (fullText: string): AloneDecision => {
    const text = rankedPart(fullText);
    const ranking = index.rank(text, 2);
    const language = detectLanguage(text, kb.languages);
    // Files only, or only stop words ("thanks!"): nothing to search for, and the history would
    // just repeat the answer to an earlier question.
    const noWords = ranking.weight === 0 && tokenize(text, lexicon).length === 0;
    const entry = noWords ? undefined : confidentEntry(ranking, kb.thresholds);
    const entryFinal = noWords || entry !== undefined;
    return { entry, language, ranking, entryFinal, final: entryFinal && language !== undefined };
  };
  return {
    kb,
    decideAlone,
    decide(fullText, fullHistory, alone = decideAlone(fullText)) {
      const history = fullHistory.map(rankedPart);
      const { ranking } = alone;
      const language = alone.language ?? (history.length > 0 ? detectLanguage(history.join('\n'), kb.languages) : undefined);
      if (alone.entryFinal || history.length === 0) return { entry: alone.entry, language, ranking };
      const text = rankedPart(fullText);
      // newest first: a follow-up usually continues the question just before it
      for (let i = history.length - 1; i >= 0; i--) {
        const withEarlier = confidentEntry(index.rank(`${text}\n${history[i] ?? ''}`, 2), kb.thresholds);
        if (withEarlier) return { entry: withEarlier, language, ranking };
      }
      return { entry: undefined, language, ranking };
    },
    rank: (text, depth) => index.rank(text, depth),
    partsOf({ entry, language }) {
      return copyParts(pickLocalized(entry ? entry.answer : kb.fallback, language, kb.defaultLanguage));
    },
  };
}
