import type { ContextMessage } from '@dialog-relay/contracts';
import { detectLanguage, type ReplyEngine } from '@dialog-relay/reply-engine';
import type { EvalCase } from './eval-cases.js';
import { percent, rate } from './evaluate-knowledge.js';

/**
 * `npm run eval:knowledge -- --engine openai`: the cases through a grounded model engine (its
 * configured endpoint), judged by the reply's first source (docs/service-rules.md §17).
 */
export interface ModelCounts {
  /** Messages with an expected entry: answered right (sources[0] is one of its ids), handed off, or answered wrongly. */
  answerable: number;
  right: number;
  handoff: number;
  wrong: number;
  /** Out-of-scope messages, and how many of them were handed off (the right outcome). */
  outOfScope: number;
  outOfScopeHandoff: number;
  /** Replies whose engine call failed (counted as handoffs above too). */
  errors: number;
}

export interface ModelEvalReport {
  cases: number;
  byLanguage: Record<string, ModelCounts>;
  total: ModelCounts;
  /** right / answerable; null when there are no answerable messages */
  accuracy: number | null;
  /** wrong answers (an answerable message answered from another entry or none, an out-of-scope one answered at all) / all messages; null when none */
  wrongRate: number | null;
  /** out-of-scope messages handed off / out-of-scope messages; null when the set has none */
  outOfScopeHandoffRate: number | null;
  /** Expected ids that are not in the knowledge file; their cases are left out. */
  unknownIds: string[];
}

const emptyCounts = (): ModelCounts => ({ answerable: 0, right: 0, handoff: 0, wrong: 0, outOfScope: 0, outOfScopeHandoff: 0, errors: 0 });

const messageOf = (text: string, index: number): ContextMessage => ({
  msg_id: `eval-${index}`,
  role: 'customer',
  from_user_id: 'eval-customer',
  content: [{ type: 'text', content: text }],
  event_type: 'assist_dialog',
  create_timestamp: 0,
});

/**
 * Asks `engine` every case (each on its own, no history), `concurrency` at a time, and counts the
 * outcomes. `ids`: the entry ids of the knowledge file the engine answers from.
 */
export async function evaluateModel(
  engine: ReplyEngine,
  ids: ReadonlySet<string>,
  cases: readonly EvalCase[],
  concurrency = 4,
): Promise<ModelEvalReport> {
  const unknownIds = new Set<string>();
  const known = cases.filter((testCase) => {
    const unknown = testCase.accepted.filter((id) => !ids.has(id));
    for (const id of unknown) unknownIds.add(id);
    return unknown.length === 0;
  });
  const byLanguage: Record<string, ModelCounts> = {};
  let next = 0;
  const work = async (): Promise<void> => {
    for (let index = next++; index < known.length; index = next++) {
      const testCase = known[index]!;
      const reply = await engine.reply({ conversationId: `eval-${index}`, message: messageOf(testCase.text, index), context: [] });
      const counts = (byLanguage[testCase.language ?? detectLanguage(testCase.text) ?? 'other'] ??= emptyCounts());
      if (reply.outcome === 'error') counts.errors += 1;
      if (testCase.expected === undefined) {
        counts.outOfScope += 1;
        if (reply.handoff) counts.outOfScopeHandoff += 1;
      } else {
        counts.answerable += 1;
        if (reply.handoff) counts.handoff += 1;
        else if (testCase.accepted.includes(reply.sources[0] ?? '')) counts.right += 1;
        else counts.wrong += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, work));
  const total = emptyCounts();
  for (const counts of Object.values(byLanguage)) for (const key of Object.keys(total) as (keyof ModelCounts)[]) total[key] += counts[key];
  return {
    cases: known.length,
    byLanguage,
    total,
    accuracy: rate(total.right, total.answerable),
    wrongRate: rate(total.wrong + total.outOfScope - total.outOfScopeHandoff, known.length),
    outOfScopeHandoffRate: rate(total.outOfScopeHandoff, total.outOfScope),
    unknownIds: [...unknownIds],
  };
}

/** The model evaluation as a plain-text table for a terminal. */
export function formatModelReport(report: ModelEvalReport, model: string): string {
  const lines = [
    `${report.cases} messages through model ${model}`,
    'language  answerable  answered right  handoff  wrong  out-of-scope  handoff on out-of-scope  errors',
  ];
  const row = (name: string, c: ModelCounts): string =>
    `${name.padEnd(9)} ${String(c.answerable).padStart(10)}  ${percent(rate(c.right, c.answerable)).padStart(14)}  ${String(c.handoff).padStart(7)}  ${String(c.wrong).padStart(5)}  ${String(c.outOfScope).padStart(12)}  ${percent(rate(c.outOfScopeHandoff, c.outOfScope)).padStart(23)}  ${String(c.errors).padStart(6)}`;
  for (const [language, counts] of Object.entries(report.byLanguage).sort(([a], [b]) => a.localeCompare(b)))
    lines.push(row(language, counts));
  lines.push(row('all', report.total), '');
  lines.push(`answered right (by sources[0]):       ${percent(report.accuracy)}`);
  lines.push(`wrong answers (of all messages):      ${percent(report.wrongRate)}`);
  lines.push(`handoff on out-of-scope messages:     ${percent(report.outOfScopeHandoffRate)}`);
  if (report.total.errors > 0) lines.push(`model calls that failed (handed off): ${report.total.errors}`);
  if (report.unknownIds.length > 0) lines.push(`cases skipped, their entry ids are not in the FAQ: ${report.unknownIds.join(', ')}`);
  return lines.join('\n');
}
