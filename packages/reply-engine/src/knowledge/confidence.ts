import type { ConfidenceThresholds, KnowledgeEntry } from './knowledge-base.js';
import type { KnowledgeRanking } from './knowledge-index.js';

export interface ConfidenceFeatures {
  /** Score of the best entry (0 without a match). */
  score: number;
  /** (best − second) / best, 1 when only one entry matched, 0 without a match. */
  margin: number;
  /** best / the message's own term weight: how much of the message the best entry explains. */
  coverage: number;
  /** The best entry has a phrasing with exactly the message's words (KnowledgeMatch.whole). */
  whole: boolean;
}

export function confidenceFeatures(ranking: KnowledgeRanking): ConfidenceFeatures {
  const [first, second] = ranking.matches;
  if (!first) return { score: 0, margin: 0, coverage: 0, whole: false };
  return {
    score: first.score,
    margin: (first.score - (second?.score ?? 0)) / first.score,
    coverage: ranking.weight > 0 ? Math.min(1, first.score / ranking.weight) : 0,
    whole: first.whole,
  };
}

/**
 * Relevant enough, ahead of the second, covering the message. A message that is exactly one of the
 * FAQ's phrasings ("When are you open?") needs only the lead: its few words may be common ones, but
 * it asks what the FAQ author wrote (docs/knowledge-engine.md, "Confidence").
 */
export function isConfident(features: ConfidenceFeatures, thresholds: ConfidenceThresholds): boolean {
  if (features.margin < thresholds.minMargin) return false;
  return features.whole || (features.score >= thresholds.minScore && features.coverage >= thresholds.minCoverage);
}

/** The best entry when it is clearly the answer: relevant enough, ahead of the second, covering the message. */
export function confidentEntry(ranking: KnowledgeRanking, thresholds: ConfidenceThresholds): KnowledgeEntry | undefined {
  const best = ranking.matches[0];
  return best && isConfident(confidenceFeatures(ranking), thresholds) ? best.entry : undefined;
}
