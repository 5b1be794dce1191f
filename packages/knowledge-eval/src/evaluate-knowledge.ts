import { detectLanguage, type KnowledgeResponder } from '@dialog-relay/reply-engine';
import type { EvalCase } from './eval-cases.js';

export interface LanguageCounts {
  /** Answerable messages (with an expected entry). */
  answerable: number;
  correct: number;
  /** Answered with another entry. */
  wrong: number;
  /** Answered with the fallback. */
  fallback: number;
  /** Out-of-scope messages, and how many of them got the fallback. */
  outOfScope: number;
  outOfScopeFallback: number;
}

export interface Confusion {
  expected: string;
  /** The entry that answered instead; undefined: the fallback. */
  got: string | undefined;
  count: number;
  example: string;
}

export interface EvalReport {
  cases: number;
  byLanguage: Record<string, LanguageCounts>;
  total: LanguageCounts;
  /** correct / answerable; null when there are no answerable messages */
  accuracy: number | null;
  /** wrong answers (a wrong entry for an answerable message, any entry for an out-of-scope one) / all messages; null when none */
  wrongRate: number | null;
  /** out-of-scope messages answered with the fallback / out-of-scope messages; null when the set has none */
  outOfScopeFallbackRate: number | null;
  /** Most frequent mistakes first; "got: undefined" is a fallback where an entry was expected. */
  confusions: Confusion[];
  /** Expected ids that are not in the FAQ; their cases are left out of every count. */
  unknownIds: string[];
}

function emptyCounts(): LanguageCounts {
  return { answerable: 0, correct: 0, wrong: 0, fallback: 0, outOfScope: 0, outOfScopeFallback: 0 };
}

function addTo(target: LanguageCounts, source: LanguageCounts): void {
  for (const key of Object.keys(source) as (keyof LanguageCounts)[]) target[key] += source[key];
}

export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

/** A rate for a report: null when there is nothing to measure (printed "n/a", not "0.0 %"). */
export function rate(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

/** A rate as a percentage for a terminal table; "n/a" when there was nothing to measure. */
export function percent(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(1)} %`;
}

/** Runs every case through the responder (each on its own, no history) and counts the outcomes. */
export function evaluateKnowledge(responder: KnowledgeResponder, cases: readonly EvalCase[]): EvalReport {
  const ids = new Set(responder.kb.entries.map((entry) => entry.id));
  const byLanguage: Record<string, LanguageCounts> = {};
  const confusions = new Map<string, Confusion>();
  const unknownIds = new Set<string>();
  let evaluated = 0;
  for (const testCase of cases) {
    const unknown = testCase.accepted.filter((id) => !ids.has(id));
    if (unknown.length > 0) {
      for (const id of unknown) unknownIds.add(id);
      continue;
    }
    evaluated += 1;
    const language = testCase.language ?? detectLanguage(testCase.text) ?? 'other';
    const counts = (byLanguage[language] ??= emptyCounts());
    const got = responder.decide(testCase.text, []).entry?.id;
    if (testCase.expected === undefined) {
      counts.outOfScope += 1;
      if (got === undefined) counts.outOfScopeFallback += 1;
    } else {
      counts.answerable += 1;
      if (got !== undefined && testCase.accepted.includes(got)) counts.correct += 1;
      else if (got === undefined) counts.fallback += 1;
      else counts.wrong += 1;
    }
    const right = got === undefined ? testCase.expected === undefined : testCase.accepted.includes(got);
    if (!right) {
      const expected = testCase.expected ?? '(out of scope)';
      const key = `${expected}\u0000${got ?? ''}`;
      const confusion = confusions.get(key) ?? { expected, got, count: 0, example: testCase.text };
      confusion.count += 1;
      confusions.set(key, confusion);
    }
  }
  const total = emptyCounts();
  for (const counts of Object.values(byLanguage)) addTo(total, counts);
  const wrongAnswers = total.wrong + (total.outOfScope - total.outOfScopeFallback);
  return {
    cases: evaluated,
    byLanguage,
    total,
    accuracy: rate(total.correct, total.answerable),
    wrongRate: rate(wrongAnswers, evaluated),
    outOfScopeFallbackRate: rate(total.outOfScopeFallback, total.outOfScope),
    confusions: [...confusions.values()].sort((a, b) => b.count - a.count || a.expected.localeCompare(b.expected)),
    unknownIds: [...unknownIds],
  };
}

/** How many timed windows measureMicrosPerReply takes the median of. */
const TIMED_WINDOWS = 5;

/**
 * Engine time per reply in microseconds, as a long-running process pays it: every case text decided
 * and its answer built, first for `minMs` of warm-up (the Chinese dictionary loads, the compiler
 * optimises the hot functions), then in TIMED_WINDOWS windows of at least `minMs / TIMED_WINDOWS`
 * each; the median window is the figure, so that a pause of a shared machine in one window does not
 * decide it. `history`: how many earlier customer messages each text comes with, the cases just
 * before it (oldest first), as the service passes a conversation's (the knowledge engine's default
 * is 2): a message the engine is not sure of alone is ranked again with each of them.
 */
export function measureMicrosPerReply(
  responder: KnowledgeResponder,
  cases: readonly EvalCase[],
  minMs = 1000,
  options: { history?: number } = {},
): number {
  const texts = cases.map((testCase) => testCase.text);
  if (texts.length === 0) return 0;
  const history = Math.max(0, Math.floor(options.history ?? 0));
  const earlier = texts.map((_, i) => texts.slice(Math.max(0, i - history), i));
  const once = (): void => {
    for (let i = 0; i < texts.length; i++) responder.partsOf(responder.decide(texts[i] ?? '', earlier[i] ?? []));
  };
  const window = (ms: number): number => {
    let replies = 0;
    const start = process.hrtime.bigint();
    let elapsedNs = 0n;
    do {
      once();
      replies += texts.length;
      elapsedNs = process.hrtime.bigint() - start;
    } while (elapsedNs < BigInt(Math.round(ms * 1_000_000)));
    return Number(elapsedNs) / 1000 / replies;
  };
  window(minMs);
  const timed = Array.from({ length: TIMED_WINDOWS }, () => window(minMs / TIMED_WINDOWS)).sort((a, b) => a - b);
  return timed[Math.floor(TIMED_WINDOWS / 2)] ?? 0;
}
