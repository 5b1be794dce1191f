import { detectLanguage } from '../language/detect-language.js';
import { pickLocalized } from '../language/localized.js';
import type { KnowledgeMatch } from './knowledge-index.js';
import type { KnowledgeResponder } from './knowledge-responder.js';

/** A knowledge entry retrieved for a message: what a model's prompt shows of it. */
export interface RetrievedEntry {
  id: string;
  score: number;
  /** The entry's answer in the customer's language (else the file's default), its text parts joined; files as "(image attached)" …. */
  answer: string;
}

export interface Retrieval {
  /** The customer's language, from the message, else from the earlier messages; undefined without letters. */
  language: string | undefined;
  /** The best entries, best first, at most the `limit` asked for. */
  entries: RetrievedEntry[];
}

/**
 * The best `limit` entries of a knowledge file for a message, for a model to answer from
 * (docs/knowledge-engine.md, "Retrieval"). The message is ranked alone and together with each of the
 * customer's recent messages (`history`, oldest first), newest first, so a follow-up ("and to
 * Japan?") also brings the entries of the question it follows; the rankings take turns, the
 * message's own first, each entry once.
 */
export function retrieveEntries(responder: KnowledgeResponder, text: string, history: readonly string[], limit: number): Retrieval {
  const { kb } = responder;
  const language = detectLanguage(text, kb.languages) ?? (history.length > 0 ? detectLanguage(history.join('\n'), kb.languages) : undefined);
  const rankings: KnowledgeMatch[][] = [responder.rank(text).matches];
  for (let i = history.length - 1; i >= 0; i--) rankings.push(responder.rank(`${text}\n${history[i] ?? ''}`).matches);
  const chosen = new Map<string, KnowledgeMatch>();
  for (let depth = 0; chosen.size < limit && rankings.some((matches) => depth < matches.length); depth++) {
    for (const matches of rankings) {
      const match = matches[depth];
      if (match && !chosen.has(match.entry.id) && chosen.size < limit) chosen.set(match.entry.id, match);
    }
  }
  const entries = [...chosen.values()].map(({ entry, score }) => ({
    id: entry.id,
    score,
    answer: pickLocalized(entry.answer, language, kb.defaultLanguage)
      .map((part) => (part.type === 'text' ? part.content.trim() : `(${part.type} attached)`))
      .filter((line) => line !== '')
      .join('\n'),
  }));
  return { language, entries };
}
