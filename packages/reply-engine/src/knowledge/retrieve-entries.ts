import type { ReplyPart } from '@dialog-relay/contracts';
import { detectLanguage } from '../language/detect-language.js';
import { pickLocalized } from '../language/localized.js';
import { copyParts } from '../message-text.js';
import type { KnowledgeEntry } from './knowledge-base.js';
import type { KnowledgeMatch } from './knowledge-index.js';
import { rankedPart, type KnowledgeResponder } from './knowledge-responder.js';

/** One entry retrieved for a message: what a model prompt quotes as a source. */
export interface RetrievedEntry {
  /** The entry's id, as written in the knowledge file. */
  id: string;
  /** Its ranking score (docs/knowledge-engine.md, "Scores"): comparable within one retrieval only. */
  score: number;
  /** The entry's answer in `Retrieval.answerLanguage`: its text parts joined by a blank line ('' when it has none). */
  answer: string;
  /** The same answer as reply parts (copies), files included. */
  parts: ReplyPart[];
}

export interface Retrieval {
  /** The customer's language as detected among the file's languages; undefined when it cannot be told. */
  language: string | undefined;
  /** The language the answers are given in: `language` when the file has it, else the file's default language. */
  answerLanguage: string;
  /** At most K entries, best first; [] when nothing in the file matches the message's words. */
  entries: RetrievedEntry[];
}

/** How many entries a retrieval returns unless told otherwise (KNOWLEDGE_CONTEXT_ENTRIES' default). */
export const DEFAULT_RETRIEVED_ENTRIES = 6;

/** A follow-up ranked with an earlier message counts this much of its own score (see retrieveEntries). */
const HISTORY_SHARE = 0.8;

function answerOf(entry: KnowledgeEntry, language: string | undefined, defaultLanguage: string): ReplyPart[] {
  return copyParts(pickLocalized(entry.answer, language, defaultLanguage));
}

/**
 * The best `k` entries of a knowledge file for a customer message, for a model to answer from.
 * `history` holds the conversation's recent customer texts, oldest first (recentCustomerTexts gives
 * them): a follow-up ("and to Japan?") is also ranked together with each of them, and an entry
 * keeps its best score, those of the combined rankings counting HISTORY_SHARE, so that the earlier
 * question's entries join the message's own. Only the first
 * RANKED_TEXT_MAX_CHARS characters of each text are read. Answers are in the customer's language
 * when the entry has it, else in the file's default language. Synchronous, a few tens of µs.
 */
export function retrieveEntries(
  responder: KnowledgeResponder,
  message: string,
  history: readonly string[],
  k: number = DEFAULT_RETRIEVED_ENTRIES,
): Retrieval {
  const { kb } = responder;
  const text = rankedPart(message);
  const earlier = history.map(rankedPart).filter((past) => past.trim() !== '');
  const language =
    detectLanguage(text, kb.languages) ?? (earlier.length > 0 ? detectLanguage(earlier.join('\n'), kb.languages) : undefined);
  const answerLanguage = language !== undefined && kb.entries.some((entry) => entry.answer[language]) ? language : kb.defaultLanguage;
  const limit = Math.max(0, Math.floor(k));
  if (limit === 0) return { language, answerLanguage, entries: [] };
  const best = new Map<KnowledgeEntry, number>();
  const note = (matches: readonly KnowledgeMatch[], share: number): void => {
    for (const match of matches) {
      const score = match.score * share;
      if (score > (best.get(match.entry) ?? 0)) best.set(match.entry, score);
    }
  };
  note(responder.rank(text, limit).matches, 1);
  if (text.trim() !== '') for (const past of earlier) note(responder.rank(`${text}\n${past}`, limit).matches, HISTORY_SHARE);
  const entries = [...best]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([entry, score]) => {
      const parts = answerOf(entry, answerLanguage, kb.defaultLanguage);
      const answer = parts
        .filter((part) => part.type === 'text')
        .map((part) => part.content)
        .join('\n\n');
      return { id: entry.id, score, answer, parts };
    });
  return { language, answerLanguage, entries };
}
