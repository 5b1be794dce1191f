import { chineseWords } from './chinese-words.js';
import { japaneseWords } from './japanese-words.js';
import { englishStem } from './english-stem.js';
import { memoize, WORD_CACHE_SIZE } from './memo.js';
import { defaultLexicon, type Lexicon } from './synonyms.js';
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS, JAPANESE_KEPT_HIRAGANA, JAPANESE_STOP_WORDS } from './stop-words.js';

/**
 * How much a term of each kind counts (its weight in the index is this factor times the term's
 * distinctiveness). Whole words decide; overlapping character bigrams of Chinese and Japanese
 * catch words the dictionary splits differently; single characters only nudge.
 */
export const TERM_FACTORS = Object.freeze({ word: 1, bigram: 0.5, kanji: 0.6, character: 0.35, kana: 0.6 });

/** A synonym's concept term counts this much of the word it comes from: the customer's own word matching decides first. */
export const CONCEPT_FACTOR = 1;

/** A concept reached through one typo ("refnud" → ~refund) counts this much. */
export const TYPO_CONCEPT_FACTOR = 0.7;

/** Terms below this factor (bigrams, single characters) refine scores but do not count as a message's own words. */
export const MIN_OWN_FACTOR = 0.55;

/** Search terms of a text with their factors (0..1]; a term found twice keeps its larger factor. */
export type WeightedTerms = Map<string, number>;

const RUNS = /\p{Script=Latin}+(?:['’-]\p{Script=Latin}+)*|\p{Script=Han}+|[\p{Script=Katakana}\u30FC]+|\p{Script=Hiragana}+/gu;
const LATIN = /^\p{Script=Latin}/u;
const LATIN_TEXT = /[a-z]/;
const HAN = /^\p{Script=Han}/u;
const HIRAGANA = /^\p{Script=Hiragana}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function add(terms: WeightedTerms, term: string, factor: number): void {
  if ((terms.get(term) ?? 0) < factor) terms.set(term, factor);
}

/** A negated message ("doesn't work", 用不了, 使えない) is about a problem: it leans to entries about problems. */
export const NEGATION_TERM = '~not';
const ENGLISH_NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'nothing',
  'without',
  'cannot',
  'cant',
  "can't",
  'dont',
  "don't",
  'doesnt',
  "doesn't",
  'didnt',
  "didn't",
  'isnt',
  "isn't",
  'arent',
  "aren't",
  'wasnt',
  "wasn't",
  'havent',
  "haven't",
  'hasnt',
  "hasn't",
  'wont',
  "won't",
  'couldnt',
  "couldn't",
]);
const CJK_NEGATION = /[不没未无]|ない|ません|なかった|できず|不可|なし|無し/u;

/**
 * Polite Japanese verb endings rewritten to their plain form, so a phrase written plainly in the FAQ
 * or the synonym list (足りない, 届いていない) matches its polite form (足りません, 届いていません).
 */
const JAPANESE_POLITE: ReadonlyArray<readonly [RegExp, string]> = [
  [/ませんでした/gu, 'なかった'],
  [/ません/gu, 'ない'],
];

/** The terms of one Latin run (a word, or words joined by apostrophes and hyphens) with their factors. */
function latinTermsOf(run: string): ReadonlyArray<readonly [string, number]> {
  const found: [string, number][] = [];
  if (ENGLISH_NEGATIONS.has(run.replaceAll('’', "'"))) found.push([NEGATION_TERM, TERM_FACTORS.word]);
  const parts = run.replaceAll('’', "'").split('-');
  // "e-mail", "pre-order": the joined word and its parts
  const words = parts.length > 1 ? [parts.join(''), ...parts] : parts;
  for (const word of words) {
    if (word.length < 2 || ENGLISH_STOP_WORDS.has(word)) continue;
    const bare = word.replace(/'s$/, '').replaceAll("'", '');
    if (bare.length >= 2 && !ENGLISH_STOP_WORDS.has(bare)) found.push([englishStem(bare), TERM_FACTORS.word]);
  }
  return found;
}

/** latinTermsOf, remembered per run: customers' words repeat, and stemming is most of an English message's tokenizing. */
const latinTerms = memoize(latinTermsOf, WORD_CACHE_SIZE);

function addLatin(terms: WeightedTerms, run: string): void {
  for (const [term, factor] of latinTerms(run)) add(terms, term, factor);
}

function addBigrams(terms: WeightedTerms, chars: readonly string[], stop: ReadonlySet<string>, factor: number): void {
  for (let i = 0; i + 1 < chars.length; i++) {
    const first = chars[i] ?? '';
    const second = chars[i + 1] ?? '';
    // 码吗, 件了, 我发: a stop character makes a bigram grammar, not topic
    if (!stop.has(first) && !stop.has(second) && !stop.has(first + second)) add(terms, first + second, factor);
  }
}

function addHanChinese(terms: WeightedTerms, run: string): void {
  const chars = Array.from(run);
  for (const word of chineseWords(run)) {
    if (!CHINESE_STOP_WORDS.has(word)) add(terms, word, Array.from(word).length > 1 ? TERM_FACTORS.word : TERM_FACTORS.character);
  }
  addBigrams(terms, chars, CHINESE_STOP_WORDS, TERM_FACTORS.bigram);
  for (const char of chars) if (!CHINESE_STOP_WORDS.has(char)) add(terms, char, TERM_FACTORS.character);
}

function addHanJapanese(terms: WeightedTerms, run: string): void {
  const chars = Array.from(run);
  if (JAPANESE_STOP_WORDS.has(run)) return;
  // a kanji run is usually one word (注文, 送料) or a verb stem before its kana ending (届く → 届)
  add(terms, run, chars.length > 1 ? TERM_FACTORS.word : TERM_FACTORS.kanji);
  // a longer run is often a compound (配送状況, 会員登録, 採用情報): its dictionary words count as words too
  if (chars.length > 2)
    for (const word of japaneseWords(run)) if (word.length > 1 && !JAPANESE_STOP_WORDS.has(word)) add(terms, word, TERM_FACTORS.word);
  if (chars.length > 2) addBigrams(terms, chars, JAPANESE_STOP_WORDS, TERM_FACTORS.bigram);
  if (chars.length > 1) for (const char of chars) if (!JAPANESE_STOP_WORDS.has(char)) add(terms, char, TERM_FACTORS.character);
}

function addKatakana(terms: WeightedTerms, run: string): void {
  const chars = Array.from(run);
  if (chars.length < 2) return;
  add(terms, run, TERM_FACTORS.word);
  if (chars.length > 3) addBigrams(terms, chars, JAPANESE_STOP_WORDS, TERM_FACTORS.character);
}

function addHiragana(terms: WeightedTerms, run: string): void {
  for (const word of JAPANESE_KEPT_HIRAGANA) if (run.includes(word)) add(terms, word, TERM_FACTORS.kana);
}

/**
 * Weighted search terms of a text in English, Chinese or Japanese (or a mix); used for indexing and
 * querying alike. The text is NFKC-normalised and lowercased and split into runs of one script:
 *
 * - Latin words: stop words dropped, Porter-stemmed; hyphenated words also joined ("e-mail" → email).
 * - Han runs in Chinese text (no kana): jieba's dictionary words, plus overlapping character
 *   bigrams and single characters with smaller factors, so a differently segmented word still matches.
 * - Han runs in Japanese text (any kana present): the run as a word (注文, 送料), its bigrams and characters.
 * - Katakana runs: the whole word (キャンセル, クーポン) and, for long ones, its bigrams.
 * - Hiragana: grammar (particles, endings), dropped, except a few question words (いつ, いくら, どこ).
 *
 * Digits and punctuation are dropped: order numbers and prices say nothing about the topic.
 * Words of a synonym group of the lexicon (synonyms.ts; by default the shop lexicon) also yield the
 * group's concept term ("~refund").
 */
export function termsOf(text: string, lexicon: Lexicon = defaultLexicon()): WeightedTerms {
  let normalized = text.normalize('NFKC').toLowerCase();
  if (LATIN_TEXT.test(normalized)) normalized = lexicon.rewriteEnglishPhrases(normalized);
  const japanese = KANA.test(normalized);
  if (japanese) for (const [polite, plain] of JAPANESE_POLITE) normalized = normalized.replace(polite, plain);
  const terms: WeightedTerms = new Map();
  // RUNS.exec from the start rather than matchAll, which copies the regular expression on every call
  RUNS.lastIndex = 0;
  for (let found = RUNS.exec(normalized); found !== null; found = RUNS.exec(normalized)) {
    const run = found[0];
    if (LATIN.test(run)) addLatin(terms, run);
    else if (HAN.test(run)) (japanese ? addHanJapanese : addHanChinese)(terms, run);
    else if (HIRAGANA.test(run)) addHiragana(terms, run);
    else addKatakana(terms, run);
  }
  addConcepts(terms, normalized, lexicon);
  if (CJK_NEGATION.test(normalized)) add(terms, NEGATION_TERM, TERM_FACTORS.word);
  return terms;
}

// addConcepts' two parallel lists (a concept and its factor), kept across calls and never shrunk:
// termsOf is synchronous and does not run again inside itself, and a list made per call was grown by
// push anew each time (performance-log.md, twenty-first session). They hold lexicon concepts only.
const foundConcepts: string[] = [];
const foundFactors: number[] = [];

/**
 * Adds the concept terms of the terms found (synonyms.ts), and of the CJK phrases the text contains.
 * A two-character lexicon word that the segmenter split (要收钱吗 → 要 / 收 / 钱吗) is in the text
 * only as a bigram; its concept counts fully all the same, as a longer lexicon word found by
 * substring does (docs/knowledge-engine.md, "Lexicons"). The bigram itself keeps its own factor.
 */
function addConcepts(terms: WeightedTerms, normalized: string, lexicon: Lexicon): void {
  // parallel lists, not a [concept, factor] array each, and the terms read by key (a Map's entries
  // iterator makes an array per entry): about 1.1 KB less a message (performance-log.md, nineteenth session)
  let count = 0;
  const note = (concept: string, factor: number): void => {
    foundConcepts[count] = concept;
    foundFactors[count] = factor;
    count += 1;
  };
  for (const term of terms.keys()) {
    const factor = terms.get(term) ?? 0;
    const whole = factor === TERM_FACTORS.bigram ? TERM_FACTORS.word : factor;
    for (const concept of lexicon.conceptsOf(term)) note(concept, whole * CONCEPT_FACTOR);
    for (const concept of lexicon.conceptsNear(term)) note(concept, factor * CONCEPT_FACTOR * TYPO_CONCEPT_FACTOR);
  }
  if (CJK.test(normalized)) for (const concept of lexicon.cjkPhraseConcepts(normalized)) note(concept, CONCEPT_FACTOR);
  for (let i = 0; i < count; i++) add(terms, foundConcepts[i] ?? '', foundFactors[i] ?? 0);
}

/** The search terms of a text, without their factors (see termsOf). */
export function tokenize(text: string, lexicon: Lexicon = defaultLexicon()): string[] {
  return [...termsOf(text, lexicon).keys()];
}
