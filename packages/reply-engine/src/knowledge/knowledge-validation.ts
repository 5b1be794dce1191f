import { FILE_TYPES, type ReplyPart, type ReplyPartType } from '@dialog-relay/contracts';
import type { Localized } from '../language/localized.js';
import { loadShippedLexicon, readSynonyms } from '../text/lexicon-data.js';
import { compileLexicon, DEFAULT_LEXICONS, shippedLexicon, type Lexicon } from '../text/synonyms.js';
import { tokenize } from '../text/tokenize.js';
import type { ConfidenceThresholds, KnowledgeBase, KnowledgeEntry } from './knowledge-base.js';

const PART_TYPES: readonly ReplyPartType[] = ['text', ...FILE_TYPES];
const TOP_LEVEL_KEYS = ['default_language', 'lexicons', 'synonyms', 'fallback', 'confidence', 'entries'];
const CONFIDENCE_KEYS = ['min_score', 'min_margin', 'min_coverage'];
const ENTRY_KEYS = ['id', 'questions', 'answer'];
const LANGUAGE_CODE = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;

type Raw = Record<string, unknown>;

function fail(where: string, problem: string): never {
  throw new Error(`KNOWLEDGE_FILE: ${where} ${problem}`);
}

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkKeys(value: Raw, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(where, `has unknown field "${key}" (allowed: ${allowed.join(', ')})`);
  }
}

function readParts(value: unknown, where: string, allowEmpty: boolean): ReplyPart[] {
  if (value === undefined || value === null) fail(where, 'is missing');
  if (typeof value === 'string') {
    if (value.trim() === '') fail(where, 'must not be empty');
    return [{ type: 'text', content: value.trim() }];
  }
  if (!Array.isArray(value)) fail(where, 'must be a string, a list of parts {type, content} or a map by language');
  if (value.length === 0 && !allowEmpty) fail(where, 'must not be an empty list');
  return value.map((part: unknown, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(part)) fail(at, 'must be an object {type, content}');
    checkKeys(part, ['type', 'content'], at);
    const { type, content } = part;
    if (typeof type !== 'string' || !PART_TYPES.includes(type as ReplyPartType)) {
      fail(`${at}.type`, `has unknown part type ${JSON.stringify(type)} (allowed: ${PART_TYPES.join(', ')})`);
    }
    if (typeof content !== 'string' || content.trim() === '') fail(`${at}.content`, 'must be a non-empty string');
    return { type: type as ReplyPartType, content: content.trim() };
  });
}

/** An answer: a string or parts (in the default language), or a map {language: string or parts}. */
function readLocalized(value: unknown, where: string, allowEmpty: boolean, defaultLanguage: string): Localized {
  if (!isObject(value)) return { [defaultLanguage]: readParts(value, where, allowEmpty) };
  const languages = Object.keys(value);
  if (languages.length === 0) fail(where, 'must not be an empty map');
  const localized: Record<string, ReplyPart[]> = {};
  for (const language of languages) {
    if (!LANGUAGE_CODE.test(language)) fail(where, `has "${language}", not a language code (en, zh, ja, pt-br …)`);
    localized[language.toLowerCase()] = readParts(value[language], `${where}.${language}`, allowEmpty);
  }
  return localized;
}

function readQuestions(value: unknown, where: string, lexicon: Lexicon): string[] {
  if (value === undefined || value === null) fail(where, 'is missing');
  if (!Array.isArray(value)) fail(where, 'must be a list of strings');
  if (value.length === 0) fail(where, 'must not be empty');
  return value.map((question: unknown, i) => {
    const at = `${where}[${i}]`;
    if (typeof question !== 'string' || question.trim() === '') fail(at, 'must be a non-empty string');
    if (tokenize(question, lexicon).length === 0) fail(at, `has no searchable words: ${JSON.stringify(question)}`);
    return question.trim();
  });
}

function readEntry(value: unknown, index: number, seenIds: Set<string>, defaultLanguage: string, lexicon: Lexicon): KnowledgeEntry {
  const where = `entries[${index}]`;
  if (!isObject(value)) fail(where, 'must be an object {id, questions, answer}');
  const label = typeof value['id'] === 'string' ? `${where} (id "${value['id']}")` : where;
  checkKeys(value, ENTRY_KEYS, label);
  const id = value['id'];
  if (typeof id !== 'string' || id.trim() === '') fail(`${where}.id`, 'must be a non-empty string');
  if (seenIds.has(id)) fail(`${label}.id`, 'is a duplicate');
  seenIds.add(id);
  return {
    id,
    questions: readQuestions(value['questions'], `${label}.questions`, lexicon),
    answer: readLocalized(value['answer'], `${label}.answer`, false, defaultLanguage),
  };
}

function readThreshold(raw: Raw, key: string, fallback: number, max: number): number {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max)
    fail(`confidence.${key}`, `must be a number from 0 to ${max}`);
  return value;
}

function readThresholds(value: unknown, defaults: ConfidenceThresholds): ConfidenceThresholds {
  if (value === undefined || value === null) return { ...defaults };
  if (!isObject(value)) fail('confidence', 'must be a map {min_score, min_margin, min_coverage}');
  checkKeys(value, CONFIDENCE_KEYS, 'confidence');
  return {
    minScore: readThreshold(value, 'min_score', defaults.minScore, 1000),
    minMargin: readThreshold(value, 'min_margin', defaults.minMargin, 1),
    minCoverage: readThreshold(value, 'min_coverage', defaults.minCoverage, 1),
  };
}

/**
 * The lexicons a file chooses (`lexicons: [shop]`, names of files in lexicons/; [] for none;
 * DEFAULT_LEXICONS when the key is absent, so files written before lexicons keep their matching)
 * and its own synonym groups (`synonyms:`, added to them; a group of a lexicon's name gains words).
 */
function readLexicons(namesRaw: unknown, synonymsRaw: unknown): { names: string[]; lexicon: Lexicon } {
  let names = [...DEFAULT_LEXICONS];
  if (namesRaw !== undefined && namesRaw !== null) {
    if (!Array.isArray(namesRaw) || !namesRaw.every((name) => typeof name === 'string' && name.trim() !== ''))
      fail('lexicons', 'must be a list of lexicon names such as [shop], or []');
    names = [...new Set((namesRaw as string[]).map((name) => name.trim()))];
  }
  const data = names.map((name, i) => {
    try {
      return loadShippedLexicon(name);
    } catch (error) {
      return fail(`lexicons[${i}]`, (error as Error).message.replace(/^lexicon "[^"]*" /, `"${name}" `));
    }
  });
  if (synonymsRaw === undefined || synonymsRaw === null) return { names, lexicon: shippedLexicon(names) };
  let own;
  try {
    own = readSynonyms(synonymsRaw, 'synonyms');
  } catch (error) {
    throw new Error(`KNOWLEDGE_FILE: ${(error as Error).message}`);
  }
  return { names, lexicon: compileLexicon([...data, { synonyms: own, englishPhrases: [] }]) };
}

/** Validates the parsed content of a knowledge file; see parseKnowledgeBase. */
export function readKnowledgeBase(raw: unknown, defaults: ConfidenceThresholds): KnowledgeBase {
  if (!isObject(raw)) fail('the file', 'must contain an object with fallback and entries');
  if (raw['min_score'] !== undefined)
    fail(
      'min_score',
      `is not a top-level field: the thresholds go under confidence: (confidence: { min_score: ${JSON.stringify(raw['min_score'])} })`,
    );
  checkKeys(raw, TOP_LEVEL_KEYS, 'the file');
  const languageRaw = raw['default_language'] ?? 'en';
  if (typeof languageRaw !== 'string' || !LANGUAGE_CODE.test(languageRaw)) fail('default_language', 'must be a language code such as en');
  const defaultLanguage = languageRaw.toLowerCase();
  const fallback = readLocalized(raw['fallback'], 'fallback', true, defaultLanguage);
  const thresholds = readThresholds(raw['confidence'], defaults);
  const entriesRaw = raw['entries'];
  if (entriesRaw === undefined || entriesRaw === null) fail('entries', 'is missing');
  if (!Array.isArray(entriesRaw)) fail('entries', 'must be a list');
  if (entriesRaw.length === 0) fail('entries', 'must not be empty');
  const seenIds = new Set<string>();
  const { names: lexicons, lexicon } = readLexicons(raw['lexicons'], raw['synonyms']);
  const entries = entriesRaw.map((entry: unknown, i) => readEntry(entry, i, seenIds, defaultLanguage, lexicon));
  const languages = new Set<string>([defaultLanguage, ...Object.keys(fallback)]);
  for (const entry of entries) for (const language of Object.keys(entry.answer)) languages.add(language);
  return { defaultLanguage, languages: [...languages], fallback, thresholds, entries, lexicons, lexicon };
}
