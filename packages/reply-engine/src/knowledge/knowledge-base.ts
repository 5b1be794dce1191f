import type { ReplyPart } from '@dialog-relay/contracts';
import { parse as parseYaml } from 'yaml';
import { readKnowledgeBase } from './knowledge-validation.js';

/**
 * Default relevance threshold (`min_score`). MiniSearch scores a phrasing as the sum of the BM25+
 * weights of the matched query terms times the number of matched terms. On the example FAQ (12
 * entries, ~75 phrasings) a single distinctive term ("refund", "送料", "保証") scores about 5–7, a
 * single term spread over several entries ("order", "delivery") about 3.5–4.8, a lone common
 * term less, and two or more matching terms 15 and up. 4 accepts one distinctive term and
 * rejects lone hits on words shared by many entries, which are ambiguous. Scores grow with the
 * number of phrasings (IDF), so tune `min_score` in the file for a much larger or smaller FAQ.
 */
export const DEFAULT_MIN_SCORE = 4;

export interface KnowledgeEntry {
  id: string;
  /** The phrasings of the question, each indexed as its own document. */
  questions: string[];
  answer: ReplyPart[];
}

export interface KnowledgeBase {
  /** Answer when nothing is relevant enough; [] means: send nothing. */
  fallback: ReplyPart[];
  minScore: number;
  entries: KnowledgeEntry[];
}

export type KnowledgeFormat = 'yaml' | 'json';

/**
 * Parses and validates a knowledge file's text. Throws an Error whose message starts with
 * `KNOWLEDGE_FILE:` and names the offending entry index and field.
 */
export function parseKnowledgeBase(text: string, format: KnowledgeFormat): KnowledgeBase {
  let raw: unknown;
  try {
    raw = format === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`KNOWLEDGE_FILE: invalid ${format.toUpperCase()}: ${reason}`);
  }
  return readKnowledgeBase(raw, DEFAULT_MIN_SCORE);
}
