import { englishStem } from './english-stem.js';
import { withinOneEdit } from './one-edit.js';
import { SHOP_SYNONYM_GROUPS } from './shop-synonym-groups.js';

/*
 * The machinery of the shop synonyms: the groups themselves (words of en/zh/ja that yield a concept
 * term such as `~refund`) are data, in shop-synonym-groups.ts. Here they become a lookup by term,
 * CJK phrases found by substring, English concept words forgiven one typo, and the English phrases
 * rewritten before tokenizing.
 */

/** English phrases rewritten before tokenizing, so their words do not stand alone ("money back"). */
export const ENGLISH_PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bmoney back\b/g, 'moneyback'],
  [/\bsend (it |them |this |something )?back\b/g, 'sendback'],
  [/\bsign(ing)? ?up\b/g, 'signup'],
  [/\blog ?in\b/g, 'login'],
  [/\bsold ?out\b/g, 'soldout'],
  [/\bnext[- ]day\b/g, 'nextday'],
  [/\bpre[- ]?order(s|ed|ing)?\b/g, 'preorder'],
  [/\bpick ?up\b/g, 'pickup'],
  [/\bgift ?card(s)?\b/g, 'giftcard'],
  [/\bapple ?pay\b/g, 'applepay'],
  [/\bamerican express\b/g, 'amex'],
  [/\bmix[- ]?up\b/g, 'mixup'],
  [/\bblack friday\b/g, 'blackfriday'],
  [/\bshow(ed|s)? up\b/g, 'arrived'],
  [/\bget here\b/g, 'arrive'],
  [/\bcash back\b/g, 'moneyback'],
  [/\bpayment plans?\b/g, 'instalments'],
];

/** Chinese and Japanese words the tokenizer does not yield as one term: found by substring instead. */
const ONE_RUN = /^(\p{Script=Han}{1,2}|[\p{Script=Katakana}\u30FC]+|[a-z]+)$/u;

const CONCEPTS = new Map<string, string[]>();
const PHRASES = new Map<string, string[]>();
const note = (map: Map<string, string[]>, key: string, concept: string): void => {
  const list = map.get(key);
  if (!list) map.set(key, [concept]);
  else if (!list.includes(concept)) list.push(concept);
};
for (const [name, words] of Object.entries(SHOP_SYNONYM_GROUPS)) {
  const concept = `~${name}`;
  for (const word of words.en ?? []) note(CONCEPTS, englishStem(word.toLowerCase()), concept);
  for (const word of [...(words.zh ?? []), ...(words.ja ?? [])].map((w) => w.toLowerCase())) {
    note(CONCEPTS, word, concept);
    if (!ONE_RUN.test(word)) note(PHRASES, word, concept);
  }
}

/** English concept words by each one-letter deletion, to forgive one typo ("refnud", "cancle", "adress"). */
const BY_DELETION = new Map<string, string[]>();
const LATIN_WORD = /^[a-z]{5,}$/;
const LATIN_CONCEPT_WORD = /^[a-z]{4,}$/;
const deletions = (word: string): string[] => Array.from({ length: word.length }, (_, i) => word.slice(0, i) + word.slice(i + 1));
for (const word of CONCEPTS.keys()) {
  if (!LATIN_CONCEPT_WORD.test(word)) continue;
  for (const key of [word, ...deletions(word)]) note(BY_DELETION, key, word);
}

/** The concept terms of a search term ("refund" → ["~refund"], 退钱 → ["~refund"]); [] for most terms. */
export function conceptsOf(term: string): readonly string[] {
  return CONCEPTS.get(term) ?? [];
}

/** The concepts of the English concept words one typo away from `term` (which is not one itself). */
export function conceptsNear(term: string): readonly string[] {
  if (!LATIN_WORD.test(term) || CONCEPTS.has(term)) return [];
  const found = new Set<string>();
  for (const key of [term, ...deletions(term)]) {
    for (const word of BY_DELETION.get(key) ?? []) if (withinOneEdit(term, word)) for (const concept of conceptsOf(word)) found.add(concept);
  }
  return [...found];
}

/** Chinese and Japanese phrases with their concepts, to look for in a message's normalised text. */
export const CJK_PHRASES: ReadonlyArray<readonly [string, readonly string[]]> = [...PHRASES];
