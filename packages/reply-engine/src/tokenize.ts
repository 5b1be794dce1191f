import { STOP_WORDS } from './stop-words.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Runs that yield character bigrams: Han, and Katakana (with the prolonged sound mark ー, script Common). */
const BIGRAM_RUN = /\p{Script=Han}+|[\p{Script=Katakana}\u30FC]+/gu;

/** Terms of Hiragana only: Japanese particles, inflections and auxiliaries (の, を, ます, した, あり). */
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u;

/**
 * Search terms of a text, for English, Chinese and Japanese alike; used for indexing and querying.
 *
 * The text is NFKC-normalised and lowercased, then split with Intl.Segmenter into word-like
 * segments (punctuation, spaces and symbols dropped). Because ICU splits many Chinese words into
 * single characters (退货 → 退 | 货), every run of Han characters, and every run of Katakana, also
 * yields its overlapping character bigrams (我想退货 → 我想, 想退, 退货), or the character itself
 * for a run of one.
 *
 * Dropped: stop words (stop-words.ts) and terms made of Hiragana only, which in Japanese are
 * grammar, not topic: with them "いつ届きますか" matched every question ending in "ますか".
 * For the same reason Hiragana runs yield no bigrams. Each term is returned once, in order.
 */
export function tokenize(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase();
  const terms = new Set<string>();
  const add = (term: string): void => {
    if (term !== '' && !STOP_WORDS.has(term) && !HIRAGANA_ONLY.test(term)) terms.add(term);
  };
  for (const { segment, isWordLike } of segmenter.segment(normalized)) {
    if (isWordLike) add(segment);
  }
  for (const [run] of normalized.matchAll(BIGRAM_RUN)) {
    const chars = Array.from(run);
    if (chars.length === 1) add(run);
    for (let i = 0; i + 1 < chars.length; i++) add(`${chars[i]}${chars[i + 1]}`);
  }
  return [...terms];
}
