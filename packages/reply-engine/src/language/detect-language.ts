import { detect } from 'tinyld/light';

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /\p{Script=Latin}{2,}/gu;
const HANGUL = /\p{Script=Hangul}/u;

/** Languages told apart by their script alone; every other Latin-script language needs the detector. */
const SCRIPT_LANGUAGES: ReadonlySet<string> = new Set(['en', 'zh', 'ja', 'ko']);

function countOf(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/**
 * The language of a customer message, as an ISO 639-1 code, or undefined when it has no letters.
 *
 * English, Chinese and Japanese are told apart by script, which is exact and takes a microsecond:
 * any kana makes a message Japanese (Japanese writes kanji with kana; Chinese never uses kana),
 * Han characters without kana make it Chinese, but only when they outweigh the Latin words (about
 * two characters per word), so "你好, what are your opening hours?" is English. Hangul is Korean.
 *
 * Other Latin-script languages are only considered when `candidates` (the languages the caller can
 * answer in) names one: then the tinyld detector chooses among them and English (~35 µs; on very
 * short texts it is unreliable, so messages under three words stay English). Without such
 * candidates Latin script is English.
 */
export function detectLanguage(text: string, candidates: readonly string[] = []): string | undefined {
  const kana = countOf(text, KANA);
  const han = countOf(text, HAN);
  const latinWords = countOf(text, LATIN_WORD);
  if (kana + han > 0 && (kana + han) / 2 >= latinWords) return kana > 0 ? 'ja' : 'zh';
  if (latinWords === 0) return HANGUL.test(text) ? 'ko' : kana + han > 0 ? (kana > 0 ? 'ja' : 'zh') : undefined;
  const others = candidates.filter((language) => !SCRIPT_LANGUAGES.has(language));
  // the detector guesses wildly on a word or two ("refund?" → German)
  if (others.length === 0 || latinWords < 3) return 'en';
  const found = detect(text, { only: ['en', ...others] });
  return found !== '' && others.includes(found) ? found : 'en';
}

/** English names of languages the engines meet most, for prompts; other codes are passed as they are. */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'English',
  zh: 'Chinese',
  ja: 'Japanese',
  ko: 'Korean',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
  ru: 'Russian',
  vi: 'Vietnamese',
  th: 'Thai',
  id: 'Indonesian',
};

export function languageName(code: string): string {
  return LANGUAGE_NAMES[code] ?? code;
}
