import type { ConfidenceThresholds, KnowledgeEntry } from './knowledge-base.js';
import type { KnowledgeRanking } from './knowledge-index.js';

export interface ConfidenceFeatures {
  /** Score of the best entry (0 without a match). */
  score: number;
  /** (best − second) / best, 1 when only one entry matched, 0 without a match. */
  margin: number;
  /** best / the message's own term weight: how much of the message the best entry explains. */
  coverage: number;
  /** The best entry has a phrasing with exactly the message's words (KnowledgeMatch.whole), and the second has none. */
  whole: boolean;
}

export function confidenceFeatures(ranking: KnowledgeRanking): ConfidenceFeatures {
  const [first, second] = ranking.matches;
  if (!first) return { score: 0, margin: 0, coverage: 0, whole: false };
  return {
    score: first.score,
    margin: (first.score - (second?.score ?? 0)) / first.score,
    coverage: ranking.weight > 0 ? Math.min(1, first.score / ranking.weight) : 0,
    whole: first.whole && second?.whole !== true,
  };
}

/**
 * Relevant enough, ahead of the second, covering the message. A message that says exactly what one
 * of the FAQ's phrasings says ("When are you open?", "How do I return an item?") needs none of it,
 * unless the second entry has such a phrasing too: its few words may be common ones, and a
 * neighbouring entry may share most of them, but it asks what the FAQ author wrote
 * (docs/knowledge-engine.md, "Confidence").
 */
export function isConfident(features: ConfidenceFeatures, thresholds: ConfidenceThresholds): boolean {
  if (features.whole) return true;
  if (features.margin < thresholds.minMargin) return false;
  return features.score >= thresholds.minScore && features.coverage >= thresholds.minCoverage;
}

/**
 * The entry that answers: the one whose phrasing the message is, letter for letter; else the best
 * entry when it is clearly the answer (isConfident).
 */
export function confidentEntry(ranking: KnowledgeRanking, thresholds: ConfidenceThresholds): KnowledgeEntry | undefined {
  if (ranking.verbatim) return ranking.verbatim;
  const best = ranking.matches[0];
  return best && isConfident(confidenceFeatures(ranking), thresholds) ? best.entry : undefined;
}
