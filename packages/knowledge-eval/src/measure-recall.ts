import { detectLanguage, retrieveEntries, type KnowledgeResponder } from '@dialog-relay/reply-engine';
import { percent, rate, ratio } from './evaluate-knowledge.js';
import type { EvalCase } from './eval-cases.js';

export interface RecallCounts {
  /** Answerable messages (with an expected entry in the FAQ). */
  answerable: number;
  /** Of those, how many had a right entry among the K retrieved. */
  found: number;
}

export interface RecallReport {
  k: number;
  byLanguage: Record<string, RecallCounts>;
  total: RecallCounts;
  /** found / answerable over all languages */
  recall: number;
}

/**
 * How often a right entry is among the K that retrieveEntries gives for a message (what a model
 * prompt would hold), per language; each case on its own, without history. Out-of-scope cases and
 * cases naming ids the FAQ lacks are not counted.
 */
export function measureRecall(responder: KnowledgeResponder, cases: readonly EvalCase[], k: number): RecallReport {
  const ids = new Set(responder.kb.entries.map((entry) => entry.id));
  const byLanguage: Record<string, RecallCounts> = {};
  const total: RecallCounts = { answerable: 0, found: 0 };
  for (const testCase of cases) {
    if (testCase.expected === undefined || !testCase.accepted.every((id) => ids.has(id))) continue;
    const language = testCase.language ?? detectLanguage(testCase.text) ?? 'other';
    const counts = (byLanguage[language] ??= { answerable: 0, found: 0 });
    const found = retrieveEntries(responder, testCase.text, [], k).entries.some((entry) => testCase.accepted.includes(entry.id));
    counts.answerable += 1;
    total.answerable += 1;
    if (found) {
      counts.found += 1;
      total.found += 1;
    }
  }
  return { k, byLanguage, total, recall: ratio(total.found, total.answerable) };
}

/** The recall as a plain-text table. */
export function formatRecallReport(report: RecallReport): string {
  const lines = [`right entry among the first ${report.k} retrieved (answerable messages):`, 'language  answerable  found  recall'];
  const row = (name: string, counts: RecallCounts): string =>
    `${name.padEnd(9)} ${String(counts.answerable).padStart(10)}  ${String(counts.found).padStart(5)}  ${percent(rate(counts.found, counts.answerable)).padStart(7)}`;
  for (const [language, counts] of Object.entries(report.byLanguage).sort(([a], [b]) => a.localeCompare(b)))
    lines.push(row(language, counts));
  lines.push(row('all', report.total));
  return lines.join('\n');
}
