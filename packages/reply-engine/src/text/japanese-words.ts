let japanese: Intl.Segmenter | undefined;

/**
 * Dictionary words of a run of kanji by ICU's Japanese word segmenter (built into Node): 会員登録 →
 * 会員, 登録. Used for runs of three or more kanji, where a compound hides the word a customer types
 * on its own.
 */
export function japaneseWords(run: string): string[] {
  japanese ??= new Intl.Segmenter('ja', { granularity: 'word' });
  return Array.from(japanese.segment(run), (part) => part.segment);
}
