import { englishStem } from './english-stem.js';
import { createOneEditIndex } from './one-edit.js';
import { ENGLISH_PHRASES } from './shop-english-phrases.js';
import { SHOP_SYNONYM_GROUPS } from './shop-synonym-groups.js';
import { CHINESE_STOP_WORDS, JAPANESE_STOP_WORDS } from './stop-words.js';

/*
 * The machinery of the shop synonyms: the groups themselves (words of en/zh/ja that yield a concept
 * term such as `~refund`) are data, in shop-synonym-groups.ts. Here they become a lookup by term,
 * CJK phrases found by substring, English concept words forgiven one typo, and the English phrases
 * rewritten before tokenizing.
 */

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

const RULES_BY_START = new Map<string, number[]>();
const RULES_ALWAYS: number[] = [];
ENGLISH_PHRASES.forEach(([pattern], index) => {
  const starts = startsOf(pattern.source);
  if (starts === undefined) RULES_ALWAYS.push(index);
  else for (const start of new Set(starts)) note(RULES_BY_START, start, index);
});

/** Which rules a text gets, marked per call (one buffer for the module: the rewrite is synchronous). */
const TRIED = new Uint8Array(ENGLISH_PHRASES.length);

/**
 * A lowercased text with the English phrase rules (shop-english-phrases.ts) applied in order. Only
 * the rules whose start a word of the text has are tried: a rule that could only match words an
 * earlier rule wrote would be missed, so none may (a test compares with trying every rule).
 */
export function rewriteEnglishPhrases(text: string): string {
  TRIED.fill(0);
  for (const index of RULES_ALWAYS) TRIED[index] = 1;
  for (const [word] of text.matchAll(/[a-z]+/g)) {
    for (let length = 1; length <= Math.min(3, word.length); length++) for (const index of RULES_BY_START.get(word.slice(0, length)) ?? []) TRIED[index] = 1;
  }
  let rewritten = text;
  ENGLISH_PHRASES.forEach(([pattern, replacement], index) => {
    if (TRIED[index] === 1) rewritten = rewritten.replace(pattern, replacement);
  });
  return rewritten;
}

/**
 * Chinese and Japanese words the tokenizer yields as one term (a word, a bigram, a katakana word);
 * the others are found by substring instead. A two-character word with a grammar character (坏了,
 * 没人) is a substring too: the tokenizer drops the bigrams of stop characters.
 */
const ONE_RUN = /^(\p{Script=Han}{1,2}|[\p{Script=Katakana}\u30FC]+|[a-z]+)$/u;
const isStop = (char: string): boolean => CHINESE_STOP_WORDS.has(char) || JAPANESE_STOP_WORDS.has(char);
const oneTerm = (word: string): boolean => ONE_RUN.test(word) && !(Array.from(word).length === 2 && Array.from(word).some(isStop));

const CONCEPTS = new Map<string, string[]>();
const PHRASES = new Map<string, string[]>();
for (const [name, words] of Object.entries(SHOP_SYNONYM_GROUPS)) {
  const concept = `~${name}`;
  for (const word of words.en ?? []) note(CONCEPTS, englishStem(word.toLowerCase()), concept);
  for (const word of [...(words.zh ?? []), ...(words.ja ?? [])].map((w) => w.toLowerCase())) {
    note(CONCEPTS, word, concept);
    if (!oneTerm(word)) note(PHRASES, word, concept);
  }
}

/** English concept words by each one-letter deletion, to forgive one typo ("refnud", "cancle", "adress"). */
const LATIN_WORD = /^[a-z]{5,}$/;
const LATIN_CONCEPT_WORD = /^[a-z]{4,}$/;
const ONE_EDIT = createOneEditIndex([...CONCEPTS.keys()].filter((word) => LATIN_CONCEPT_WORD.test(word)));

/** The concept terms of a search term ("refund" → ["~refund"], 退钱 → ["~refund"]); [] for most terms. */
export function conceptsOf(term: string): readonly string[] {
  return CONCEPTS.get(term) ?? [];
}

/** The concepts of the English concept words one typo away from `term` (which is not one itself). */
export function conceptsNear(term: string): readonly string[] {
  if (!LATIN_WORD.test(term) || CONCEPTS.has(term)) return [];
  const found = new Set<string>();
  for (const word of ONE_EDIT.near(term)) for (const concept of conceptsOf(word)) found.add(concept);
  return [...found];
}

const PHRASES_BY_FIRST = new Map<string, string[]>();
for (const phrase of PHRASES.keys()) note(PHRASES_BY_FIRST, Array.from(phrase)[0] ?? '', phrase);

/** The concepts of the CJK phrases a normalised text contains; phrases are looked up by their first character. */
export function cjkPhraseConcepts(text: string): string[] {
  const found: string[] = [];
  for (const char of new Set(text)) {
    for (const phrase of PHRASES_BY_FIRST.get(char) ?? []) if (text.includes(phrase)) found.push(...(PHRASES.get(phrase) ?? []));
  }
  return found;
}
