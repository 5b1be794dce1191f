import { FILE_TYPES, type ReplyPart, type ReplyPartType } from '@dialog-relay/contracts';
import { tokenize } from '../tokenize.js';
import type { KnowledgeBase, KnowledgeEntry } from './knowledge-base.js';

const PART_TYPES: readonly ReplyPartType[] = ['text', ...FILE_TYPES];
const TOP_LEVEL_KEYS = ['fallback', 'min_score', 'entries'];
const ENTRY_KEYS = ['id', 'questions', 'answer'];

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
  if (!Array.isArray(value)) fail(where, 'must be a string or a list of parts {type, content}');
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

function readQuestions(value: unknown, where: string): string[] {
  if (value === undefined || value === null) fail(where, 'is missing');
  if (!Array.isArray(value)) fail(where, 'must be a list of strings');
  if (value.length === 0) fail(where, 'must not be empty');
  return value.map((question: unknown, i) => {
    const at = `${where}[${i}]`;
    if (typeof question !== 'string' || question.trim() === '') fail(at, 'must be a non-empty string');
    if (tokenize(question).length === 0) fail(at, `has no searchable words: ${JSON.stringify(question)}`);
    return question.trim();
  });
}

function readEntry(value: unknown, index: number, seenIds: Set<string>): KnowledgeEntry {
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
    questions: readQuestions(value['questions'], `${label}.questions`),
    answer: readParts(value['answer'], `${label}.answer`, false),
  };
}

/** Validates the parsed content of a knowledge file; see parseKnowledgeBase. */
export function readKnowledgeBase(raw: unknown, defaultMinScore: number): KnowledgeBase {
  if (!isObject(raw)) fail('the file', 'must contain an object with fallback and entries');
  checkKeys(raw, TOP_LEVEL_KEYS, 'the file');
  const fallback = readParts(raw['fallback'], 'fallback', true);
  const minScoreRaw = raw['min_score'];
  let minScore = defaultMinScore;
  if (minScoreRaw !== undefined && minScoreRaw !== null) {
    if (typeof minScoreRaw !== 'number' || !Number.isFinite(minScoreRaw) || minScoreRaw < 0) {
      fail('min_score', 'must be a number >= 0');
    }
    minScore = minScoreRaw;
  }
  const entriesRaw = raw['entries'];
  if (entriesRaw === undefined || entriesRaw === null) fail('entries', 'is missing');
  if (!Array.isArray(entriesRaw)) fail('entries', 'must be a list');
  if (entriesRaw.length === 0) fail('entries', 'must not be empty');
  const seenIds = new Set<string>();
  const entries = entriesRaw.map((entry: unknown, i) => readEntry(entry, i, seenIds));
  return { fallback, minScore, entries };
}
