import { memoize, WORD_CACHE_SIZE } from './memo.js';

let japanese: Intl.Segmenter | undefined;

function segmentKanji(run: string): string[] {
  japanese ??= new Intl.Segmenter('ja', { granularity: 'word' });
  return Array.from(japanese.segment(run), (part) => part.segment);
}

/**
 * Dictionary words of a run of kanji by ICU's Japanese word segmenter (built into Node): 会員登録 →
 * 会員, 登録. Used for runs of three or more kanji, where a compound hides the word a customer types
 * on its own. Remembered per run, as the tokenizer's other per-word caches are: in Japanese text a
 * kanji run is one compound between kana (配送状況, 会員登録), not a message, and segmenting one
 * costs more than the rest of its tokenizing.
 */
export const japaneseWords: (run: string) => readonly string[] = memoize(segmentKanji, WORD_CACHE_SIZE, 16);
