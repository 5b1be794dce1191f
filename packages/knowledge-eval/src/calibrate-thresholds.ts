import {
  confidenceFeatures,
  isConfident,
  type ConfidenceFeatures,
  type ConfidenceThresholds,
  type KnowledgeResponder,
} from '@dialog-relay/reply-engine';
import type { EvalCase } from './eval-cases.js';

export interface Calibration {
  thresholds: ConfidenceThresholds;
  correct: number;
  wrong: number;
  answerable: number;
  messages: number;
}

interface Observation {
  features: ConfidenceFeatures;
  /** The best entry is the expected one. */
  bestIsRight: boolean;
  answerable: boolean;
}

const range = (from: number, to: number, step: number): number[] => {
  const values: number[] = [];
  for (let i = 0; from + i * step <= to + 1e-9; i++) values.push(Math.round((from + i * step) * 1000) / 1000);
  return values;
};

/**
 * Finds the confidence thresholds that serve a case set best: the most correct answers minus
 * `wrongCost` times the wrong ones (a wrong entry for an answerable message, any entry for an
 * out-of-scope one); in customer service a wrong answer is worse than "a colleague will get back
 * to you". A grid search over score, margin and coverage; ties go to the stricter thresholds.
 */
export function calibrateThresholds(responder: KnowledgeResponder, cases: readonly EvalCase[], wrongCost = 2): Calibration {
  const ids = new Set(responder.kb.entries.map((entry) => entry.id));
  const observations: Observation[] = cases
    .filter((testCase) => testCase.accepted.every((id) => ids.has(id)))
    .map((testCase) => {
      const { ranking } = responder.decide(testCase.text, []);
      return {
        features: confidenceFeatures(ranking),
        bestIsRight: testCase.accepted.includes(ranking.matches[0]?.entry.id ?? ''),
        answerable: testCase.expected !== undefined,
      };
    });
  let best: Calibration | undefined;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const minScore of range(0.2, 3, 0.05)) {
    for (const minMargin of range(0, 0.7, 0.05)) {
      for (const minCoverage of range(0, 0.9, 0.05)) {
        const thresholds = { minScore, minMargin, minCoverage };
        let correct = 0;
        let wrong = 0;
        for (const observation of observations) {
          if (!isConfident(observation.features, thresholds)) continue;
          if (observation.bestIsRight) correct += 1;
          else wrong += 1;
        }
        const value = correct - wrongCost * wrong;
        if (value > bestValue) {
          bestValue = value;
          best = { thresholds, correct, wrong, answerable: observations.filter((o) => o.answerable).length, messages: observations.length };
        }
      }
    }
  }
  if (!best) throw new Error('no cases to calibrate on');
  return best;
}
