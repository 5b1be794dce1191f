import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { LEXICONS_DIR, STOP_WORDS_FILE } from './lexicon-data.js';

/**
 * Terms that carry no topic, per language, dropped for indexing and querying alike; the words are
 * data, in lexicons/stop-words.yaml, read once when the engine is loaded (a broken file stops it).
 */
function readStopWords(): Record<'en' | 'zh' | 'ja' | 'ja_kept_hiragana', string[]> {
  const raw: unknown = parseYaml(readFileSync(`${LEXICONS_DIR}${STOP_WORDS_FILE}`, 'utf8'));
  const lists = {} as Record<'en' | 'zh' | 'ja' | 'ja_kept_hiragana', string[]>;
  for (const key of ['en', 'zh', 'ja', 'ja_kept_hiragana'] as const) {
    const value = (raw as Record<string, unknown> | null)?.[key];
    if (!Array.isArray(value) || !value.every((word) => typeof word === 'string'))
      throw new Error(`lexicons/${STOP_WORDS_FILE}: ${key} must be a list of words`);
    lists[key] = value;
  }
  return lists;
}

const LISTS = readStopWords();

/** English stop words, as typed (before stemming). */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(LISTS.en);
/** Chinese function words and question frames; single characters and jieba words alike. */
export const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set(LISTS.zh);
/** Japanese kanji and katakana frames ("教えて", "お願い", "方法は"); hiragana-only terms are dropped anyway. */
export const JAPANESE_STOP_WORDS: ReadonlySet<string> = new Set(LISTS.ja);
/** Hiragana-only words that do carry topic (when, how much, where); other hiragana terms are grammar. */
export const JAPANESE_KEPT_HIRAGANA: readonly string[] = LISTS.ja_kept_hiragana;
