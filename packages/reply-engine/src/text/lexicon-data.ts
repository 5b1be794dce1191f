import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

/** The words of one synonym group, per language (synonyms.ts says how each kind is matched). */
export interface SynonymGroup {
  en?: readonly string[];
  zh?: readonly string[];
  ja?: readonly string[];
}

/** A lexicon as written: synonym groups by concept name, and English phrase rewrites in order. */
export interface LexiconData {
  synonyms: Readonly<Record<string, SynonymGroup>>;
  englishPhrases: ReadonlyArray<readonly [RegExp, string]>;
}

/** The lexicons shipped with the engine (packages/reply-engine/lexicons; this file is compiled to dist/src/text). */
export const LEXICONS_DIR: string = fileURLToPath(new URL('../../../lexicons/', import.meta.url));
/** The shipped file of stop words: language data every knowledge file uses, not a lexicon to choose. */
export const STOP_WORDS_FILE = 'stop-words.yaml';

const GROUP_LANGUAGES = ['en', 'zh', 'ja'];
const CONCEPT_NAME = /^[a-z][a-z0-9_-]*$/;

function fail(where: string, problem: string): never {
  throw new Error(`${where} ${problem}`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readWords(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.length === 0) fail(where, 'must be a non-empty list of words');
  return value.map((word: unknown, i) => {
    if (typeof word !== 'string' || word.trim() === '') fail(`${where}[${i}]`, 'must be a non-empty string');
    return word.trim();
  });
}

/**
 * Synonym groups: a map from a concept name (lowercase letters, digits, - and _) to its words by
 * language ({en: […], zh: […], ja: […]}), or to one list of words in any language.
 */
export function readSynonyms(value: unknown, where: string): Record<string, SynonymGroup> {
  if (!isObject(value)) fail(where, 'must be a map {concept: {en: [words], zh: [...], ja: [...]}} or {concept: [words]}');
  const groups: Record<string, SynonymGroup> = {};
  for (const [name, raw] of Object.entries(value)) {
    const at = `${where}.${name}`;
    if (!CONCEPT_NAME.test(name)) fail(at, 'has a name that is not lowercase letters, digits, - or _');
    if (Array.isArray(raw)) {
      // one list in any language: each word goes where the matcher looks for it (synonyms.ts)
      const words = readWords(raw, at);
      groups[name] = {
        en: words.filter((word) => /^[\p{Script=Latin}\s'’-]+$/u.test(word)),
        zh: words.filter((word) => !/^[\p{Script=Latin}\s'’-]+$/u.test(word)),
      };
      continue;
    }
    if (!isObject(raw)) fail(at, 'must be a map {en, zh, ja} of word lists, or a list of words');
    const group: Record<string, string[]> = {};
    for (const [language, words] of Object.entries(raw)) {
      if (!GROUP_LANGUAGES.includes(language)) fail(at, `has unknown language "${language}" (allowed: ${GROUP_LANGUAGES.join(', ')})`);
      group[language] = readWords(words, `${at}.${language}`);
    }
    groups[name] = group;
  }
  return groups;
}

function readPhrases(value: unknown, where: string): [RegExp, string][] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(where, 'must be a list of [pattern, replacement] pairs');
  return value.map((pair: unknown, i) => {
    const at = `${where}[${i}]`;
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string' || pair[0] === '') {
      fail(at, 'must be a pair [pattern, replacement] of strings');
    }
    try {
      return [new RegExp(pair[0], 'g'), pair[1]];
    } catch (error) {
      return fail(at, `is not a valid regular expression: ${(error as Error).message}`);
    }
  });
}

/** Validates a lexicon file's parsed content ({synonyms, english_phrases}); errors name `where` and the field. */
export function readLexiconData(raw: unknown, where: string): LexiconData {
  if (!isObject(raw)) fail(where, 'must be a map {synonyms, english_phrases}');
  for (const key of Object.keys(raw))
    if (key !== 'synonyms' && key !== 'english_phrases') fail(where, `has unknown field "${key}" (allowed: synonyms, english_phrases)`);
  return {
    synonyms: raw['synonyms'] === undefined ? {} : readSynonyms(raw['synonyms'], `${where}: synonyms`),
    englishPhrases: readPhrases(raw['english_phrases'], `${where}: english_phrases`),
  };
}

/** The names of the shipped lexicons (lexicons/<name>.yaml). */
export function shippedLexiconNames(): string[] {
  return readdirSync(LEXICONS_DIR)
    .filter((file) => file.endsWith('.yaml') && file !== STOP_WORDS_FILE)
    .map((file) => file.slice(0, -'.yaml'.length))
    .sort();
}

const shipped = new Map<string, LexiconData>();

/** A shipped lexicon by name, read and validated once; throws naming the lexicons there are. */
export function loadShippedLexicon(name: string): LexiconData {
  let data = shipped.get(name);
  if (data === undefined) {
    const names = shippedLexiconNames();
    if (!names.includes(name)) fail(`lexicon "${name}"`, `is not shipped with the engine (there are: ${names.join(', ')})`);
    data = readLexiconData(parseYaml(readFileSync(`${LEXICONS_DIR}${name}.yaml`, 'utf8')), `lexicons/${name}.yaml`);
    shipped.set(name, data);
  }
  return data;
}
