import type { Calibration } from './calibrate-thresholds.js';
import { percent, rate, type EvalReport } from './evaluate-knowledge.js';

/** The evaluation as a plain-text table for a terminal. */
export function formatEvalReport(
  report: EvalReport,
  options: { microsPerReply?: number; microsPerReplyInConversation?: number; confusions?: number } = {},
): string {
  const lines: string[] = [];
  lines.push(`${report.cases} messages`);
  lines.push('language  answerable  top-1 accuracy  wrong  fallback  out-of-scope  fallback on out-of-scope');
  const row = (name: string, c: EvalReport['total']): string =>
    `${name.padEnd(9)} ${String(c.answerable).padStart(10)}  ${percent(rate(c.correct, c.answerable)).padStart(14)}  ${String(c.wrong).padStart(5)}  ${String(c.fallback).padStart(8)}  ${String(c.outOfScope).padStart(12)}  ${percent(rate(c.outOfScopeFallback, c.outOfScope)).padStart(24)}`;
  for (const [language, counts] of Object.entries(report.byLanguage).sort(([a], [b]) => a.localeCompare(b)))
    lines.push(row(language, counts));
  lines.push(row('all', report.total));
  lines.push('');
  lines.push(`top-1 accuracy (answerable):          ${percent(report.accuracy)}`);
  lines.push(`wrong answers (of all messages):      ${percent(report.wrongRate)}`);
  lines.push(`fallback on out-of-scope messages:    ${percent(report.outOfScopeFallbackRate)}`);
  if (options.microsPerReply !== undefined) lines.push(`engine time per reply:                ${options.microsPerReply.toFixed(1)} µs`);
  if (options.microsPerReplyInConversation !== undefined)
    lines.push(`  with the earlier messages:          ${options.microsPerReplyInConversation.toFixed(1)} µs`);
  if (report.unknownIds.length > 0) lines.push(`cases skipped, their entry ids are not in the FAQ: ${report.unknownIds.join(', ')}`);
  const shown = report.confusions.slice(0, options.confusions ?? 15);
  if (shown.length > 0) {
    lines.push('');
    lines.push('worst confusions (expected → answered; "fallback" = no answer):');
    for (const confusion of shown) {
      lines.push(
        `  ${String(confusion.count).padStart(3)} × ${confusion.expected} → ${confusion.got ?? 'fallback'}   e.g. ${JSON.stringify(confusion.example)}`,
      );
    }
  }
  return lines.join('\n');
}

export function formatCalibration(calibration: Calibration): string {
  const { minScore, minMargin, minCoverage } = calibration.thresholds;
  return [
    `calibrated thresholds: confidence: { min_score: ${minScore}, min_margin: ${minMargin}, min_coverage: ${minCoverage} }`,
    `  on these cases: ${calibration.correct} of ${calibration.answerable} answerable messages right, ${calibration.wrong} wrong answers among ${calibration.messages} messages`,
    '  put them in the knowledge file to use them (and check them on cases you did not calibrate on)',
  ].join('\n');
}
