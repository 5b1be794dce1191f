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
 * The first letters (at most three) of the words an English phrase rule can start with, read from
 * its pattern: `\b(money|cash) back` → ["mon", "cas"]; undefined when the pattern does not start
 * with literal letters (it is then tried on every text). A rule is tried only on a text with a word
 * of such a start, so a hundred rules cost a few map reads per word rather than a hundred scans.
 */
function startsOf(source: string): string[] | undefined {
  const rest = source.startsWith('\\b') ? source.slice(2) : source;
  const leading = (text: string): string | undefined => /^[a-z]+/.exec(text)?.[0].slice(0, 3);
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
  // which rules a text gets, marked per call (one buffer per lexicon: the rewrite is synchronous)
  const tried = new Uint8Array(phrases.length);

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
  const phrasesByFirst = new Map<string, string[]>();
  for (const phrase of cjkPhrases.keys()) note(phrasesByFirst, Array.from(phrase)[0] ?? '', phrase);
  const NONE: readonly string[] = [];
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
    for (let length = 1; length <= Math.min(3, word.length); length++)
      for (const index of rulesByStart.get(word.slice(0, length)) ?? []) rules.add(index);
    return [...rules];
  }, WORD_CACHE_SIZE);

  return {
    conceptsOf,
    conceptsNear,
    cjkPhraseConcepts(text) {
      const found: string[] = [];
      if (phrasesByFirst.size === 0) return found;
      for (const char of new Set(text)) {
        for (const phrase of phrasesByFirst.get(char) ?? []) if (text.includes(phrase)) found.push(...(cjkPhrases.get(phrase) ?? []));
      }
      return found;
    },
    rewriteEnglishPhrases(text) {
      if (phrases.length === 0) return text;
      tried.fill(0);
      for (const index of rulesAlways) tried[index] = 1;
      for (const [word] of text.matchAll(/[a-z]+/g)) for (const index of rulesOfWord(word)) tried[index] = 1;
      let rewritten = text;
      phrases.forEach(([pattern, replacement], index) => {
        if (tried[index] === 1) rewritten = rewritten.replace(pattern, replacement);
      });
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
