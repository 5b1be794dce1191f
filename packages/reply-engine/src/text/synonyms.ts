import { englishStem } from './english-stem.js';
import { memoize, WORD_CACHE_SIZE } from './memo.js';
import { createOneEditIndex } from './one-edit.js';
import { loadShippedLexicon, type LexiconData } from './lexicon-data.js';
import { CHINESE_STOP_WORDS, JAPANESE_STOP_WORDS } from './stop-words.js';

/*
 * The machinery of the lexicons: the synonym groups (words of en/zh/ja that yield a concept term
 * such as `~refund`) and the English phrase rules are data (lexicons/*.yaml, a knowledge file's
 * own `synonyms:`). Here they become a lookup by term, CJK phrases found by substring, English
 * concept words forgiven one typo, and the English phrases rewritten before tokenizing.
 */

/** A compiled lexicon: what the tokenizer asks about a text's words. */
export interface Lexicon {
  /** The concept terms of a search term ("refund" → ["~refund"], 退钱 → ["~refund"]); [] for most terms. */
  conceptsOf(term: string): readonly string[];
  /** The concepts of the English concept words one typo away from `term` (which is not one itself). */
  conceptsNear(term: string): readonly string[];
  /** The concepts of the CJK phrases a normalised text contains. */
  cjkPhraseConcepts(text: string): string[];
  /** A lowercased text with the English phrase rules applied in order. */
  rewriteEnglishPhrases(text: string): string;
}

const note = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
};

/**
 * The literal first letters of the words an English phrase rule can start with, read from its
 * pattern: `\b(money|cash|credit(ed)?) back` → ["money", "cash", "credit"], `\bcolou?r` → ["colo"];
 * undefined when the pattern does not start with literal letters (it is then tried on every text).
 * A rule is tried only on a text with a word of such a start, so a hundred rules cost a few map
 * reads per distinct word (remembered) and a scan each for the few that a text's words can start.
 */
function startsOf(source: string): string[] | undefined {
  const rest = source.startsWith('\\b') ? source.slice(2) : source;
  const leading = (text: string): string | undefined => {
    const letters = /^[a-z]+/.exec(text)?.[0];
    if (letters === undefined) return undefined;
    // a letter made optional by what follows it (`colou?r`) is not a start every match has
    const start = /^[?*{]/.test(text.slice(letters.length)) ? letters.slice(0, -1) : letters;
    return start === '' ? undefined : start;
  };
  if (!rest.startsWith('(')) return ((start) => (start ? [start] : undefined))(leading(rest));
  const alternatives: string[] = [];
  let depth = 0;
  let from = 1;
  for (let i = 1; i < rest.length; i++) {
    const char = rest[i];
    if (char === '\\') i++;
    else if (char === '[') i = rest.indexOf(']', i);
    else if (char === '(') depth++;
    else if (char === ')' && depth > 0) depth--;
    else if ((char === '|' || char === ')') && depth === 0) {
      alternatives.push(rest.slice(from, i));
      from = i + 1;
      if (char === ')') return /^[?*{]/.test(rest.slice(i + 1)) ? undefined : everyLeading(alternatives, leading);
    }
  }
  return undefined;
}
const everyLeading = (alternatives: string[], leading: (text: string) => string | undefined): string[] | undefined => {
  const starts = alternatives.map(leading).filter((start) => start !== undefined);
  return starts.length === alternatives.length ? starts : undefined;
};

/**
 * Chinese and Japanese words the tokenizer yields as one term (a word, a bigram, a katakana word);
 * the others are found by substring instead. A two-character word with a grammar character (坏了,
 * 没人) is a substring too: the tokenizer drops the bigrams of stop characters.
 */
const ONE_RUN = /^(\p{Script=Han}{1,2}|[\p{Script=Katakana}\u30FC]+|[a-z]+)$/u;
const isStop = (char: string): boolean => CHINESE_STOP_WORDS.has(char) || JAPANESE_STOP_WORDS.has(char);
const oneTerm = (word: string): boolean => ONE_RUN.test(word) && !(Array.from(word).length === 2 && Array.from(word).some(isStop));

/** English concept words by each one-letter deletion, to forgive one typo ("refnud", "cancle", "adress"). */
const LATIN_WORD = /^[a-z]{5,}$/;
/** The words of a lowercased text whose starts choose the phrase rules tried on it (one global regex, its lastIndex reset per text). */
const WORD = /[a-z]+/g;
const LATIN_CONCEPT_WORD = /^[a-z]{4,}$/;

/**
 * Compiles lexicons into one (their groups of one name merge; their phrase rules run in order).
 * English phrase rules are tried only on a text with a word of the start they name: a rule that
 * could only match words an earlier rule wrote would be missed, so none may (a test compares with
 * trying every rule).
 */
export function compileLexicon(parts: readonly LexiconData[]): Lexicon {
  const phrases = parts.flatMap((part) => part.englishPhrases);
  const rulesByStart = new Map<string, number[]>();
  const rulesAlways: number[] = [];
  phrases.forEach(([pattern], index) => {
    const starts = startsOf(pattern.source);
    if (starts === undefined) rulesAlways.push(index);
    else for (const start of new Set(starts)) note(rulesByStart, start, index);
  });
  // which rules a text gets: marked with the call's number (one buffer per lexicon: the rewrite is synchronous)
  const tried = new Uint32Array(phrases.length);
  let call = 0;
  const chosen: number[] = [];

  const concepts = new Map<string, string[]>();
  const cjkPhrases = new Map<string, string[]>();
  for (const part of parts) {
    for (const [name, words] of Object.entries(part.synonyms)) {
      const concept = `~${name}`;
      for (const word of words.en ?? []) note(concepts, englishStem(word.toLowerCase()), concept);
      for (const word of [...(words.zh ?? []), ...(words.ja ?? [])].map((w) => w.toLowerCase())) {
        note(concepts, word, concept);
        if (!oneTerm(word)) note(cjkPhrases, word, concept);
      }
    }
  }
  const oneEdit = createOneEditIndex([...concepts.keys()].filter((word) => LATIN_CONCEPT_WORD.test(word)));
  // by the first UTF-16 unit of each phrase: a number key is read without making a string per character
  const phrasesByFirst = new Map<number, string[]>();
  for (const phrase of cjkPhrases.keys()) note(phrasesByFirst, phrase.charCodeAt(0), phrase);
  const NONE: readonly string[] = [];
  // the phrase starts a text has shown, per call (one set per lexicon: the search is synchronous)
  const startsSeen = new Set<number>();
  // most terms have no concept: one shared empty answer, not an array per call
  const conceptsOf = (term: string): readonly string[] => concepts.get(term) ?? NONE;

  // remembered per term: a word's one-letter deletions are most of what finding its typo neighbours costs
  const nearConcepts = memoize((term: string): readonly string[] => {
    if (concepts.has(term)) return NONE;
    const found = new Set<string>();
    for (const word of oneEdit.near(term)) for (const concept of conceptsOf(word)) found.add(concept);
    return found.size === 0 ? NONE : [...found];
  }, WORD_CACHE_SIZE);
  const conceptsNear = (term: string): readonly string[] => (LATIN_WORD.test(term) ? nearConcepts(term) : NONE);
  // the phrase rules a word can start, remembered per word
  const rulesOfWord = memoize((word: string): readonly number[] => {
    const rules = new Set<number>();
    for (let length = 1; length <= word.length; length++)
      for (const index of rulesByStart.get(word.slice(0, length)) ?? []) rules.add(index);
    return [...rules];
  }, WORD_CACHE_SIZE);

  return {
    conceptsOf,
    conceptsNear,
    cjkPhraseConcepts(text) {
      const found: string[] = [];
      if (phrasesByFirst.size === 0) return found;
      // each first character once: most characters start no phrase, so one map read each decides
      startsSeen.clear();
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        const starting = phrasesByFirst.get(unit);
        if (starting === undefined || startsSeen.has(unit)) continue;
        startsSeen.add(unit);
        for (const phrase of starting) if (text.includes(phrase)) found.push(...(cjkPhrases.get(phrase) ?? []));
      }
      return found;
    },
    rewriteEnglishPhrases(text) {
      if (phrases.length === 0) return text;
      call = (call + 1) >>> 0 || 1;
      if (call === 1) tried.fill(0);
      chosen.length = 0;
      const choose = (index: number): void => {
        if (tried[index] !== call) {
          tried[index] = call;
          chosen.push(index);
        }
      };
      for (const index of rulesAlways) choose(index);
      WORD.lastIndex = 0;
      for (let found = WORD.exec(text); found !== null; found = WORD.exec(text)) for (const index of rulesOfWord(found[0])) choose(index);
      // in the lexicon's order: a rule may rewrite what an earlier one wrote
      if (chosen.length > 1) chosen.sort((x, y) => x - y);
      let rewritten = text;
      for (const index of chosen) {
        const [pattern, replacement] = phrases[index]!;
        rewritten = rewritten.replace(pattern, replacement);
      }
      return rewritten;
    },
  };
}

/** The lexicon of a knowledge file that names none: the shop lexicon, as before lexicons were chosen. */
export const DEFAULT_LEXICONS: readonly string[] = Object.freeze(['shop']);

const compiled = new Map<string, Lexicon>();

/** The shipped lexicons of these names compiled together, once per list of names. */
export function shippedLexicon(names: readonly string[]): Lexicon {
  const key = names.join('\n');
  let lexicon = compiled.get(key);
  if (lexicon === undefined) {
    lexicon = compileLexicon(names.map(loadShippedLexicon));
    compiled.set(key, lexicon);
  }
  return lexicon;
}

/** The default lexicon (DEFAULT_LEXICONS), for callers that have no knowledge file's choice. */
let defaultCompiled: Lexicon | undefined;
export function defaultLexicon(): Lexicon {
  defaultCompiled ??= shippedLexicon(DEFAULT_LEXICONS);
  return defaultCompiled;
}

/** The default lexicon's English phrase rewrite (see Lexicon). */
export const rewriteEnglishPhrases = (text: string): string => defaultLexicon().rewriteEnglishPhrases(text);
/** The default lexicon's concepts of a term (see Lexicon). */
export const conceptsOf = (term: string): readonly string[] => defaultLexicon().conceptsOf(term);
