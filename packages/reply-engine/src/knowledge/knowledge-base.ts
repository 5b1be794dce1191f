import { parse as parseYaml } from 'yaml';
import type { Localized } from '../language/localized.js';
import type { Lexicon } from '../text/synonyms.js';
import { readKnowledgeBase } from './knowledge-validation.js';

/**
 * When the engine answers (see confidence.ts). Scores are sums over the message's matched terms of
 * term factor × distinctiveness, where a word found in one entry only counts 1 and a word found in
 * every entry nearly 0; so a score reads as "about this many distinctive words matched", the same
 * scale for a 10- or a 500-entry FAQ. The defaults suit a FAQ of a few phrasings per entry: calibrated
 * (`npm run eval:knowledge -- --calibrate`) on two independently written shop FAQs (harbor-pine,
 * copper-kettle) and on the example FAQ as it was with about six phrasings per entry, then checked
 * on two more (maple-thread, birch-lane) and the example's test half (docs/knowledge-file.md).
 */
export interface ConfidenceThresholds {
  /** Least score of the best entry. */
  minScore: number;
  /** Least lead of the best entry over the second, as a fraction of the best score. */
  minMargin: number;
  /** Least share of the message's own term weight that the best entry explains. */
  minCoverage: number;
}

export const DEFAULT_THRESHOLDS: Readonly<ConfidenceThresholds> = Object.freeze({ minScore: 0.4, minMargin: 0.25, minCoverage: 0.5 });

export interface KnowledgeEntry {
  id: string;
  /** The phrasings of the question; their terms together describe the entry. */
  questions: string[];
  answer: Localized;
}

export interface KnowledgeBase {
  /** Language of answers for a customer whose language an entry has no answer in. */
  defaultLanguage: string;
  /** Every language some answer or the fallback is written in. */
  languages: string[];
  /** Answer when nothing is relevant enough; [] means: send nothing. */
  fallback: Localized;
  thresholds: ConfidenceThresholds;
  entries: KnowledgeEntry[];
  /** The shipped lexicons the file uses (`lexicons:`; DEFAULT_LEXICONS when it names none). */
  lexicons?: string[];
  /** Those lexicons and the file's own `synonyms:`, compiled (undefined: the default lexicon). */
  lexicon?: Lexicon;
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
  return readKnowledgeBase(raw, DEFAULT_THRESHOLDS);
}
