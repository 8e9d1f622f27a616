// Chart data for the tournament view: the standings' own Bradley–Terry ratings traced over the settled games, and
// the pairwise score matrix. One rating model per page (issue 16): the trace's last point is the standings' rating.
import type { GameRecord } from './game-record.js';
import { pairwiseComparisons } from './outcomes.js';
import { combinedRatings } from './report.js';
import { isRated } from './termination.js';

/** Points of the trace: each is a full refit, so the count is bounded whatever the length of the run. */
export const CHART_MAX_POINTS = 60;

export interface RatingPoint {
  /** Settled games counted so far. */
  games: number;
  /** One rating per agent, in agent order; null while an agent has no rated comparison. */
  ratings: Array<number | null>;
}

/** Indices 0..n−1 reduced to at most `max`, evenly spaced, always keeping the first and the last. */
export function sampleIndices(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  if (max <= 1) return [n - 1];
  const out: number[] = [];
  for (let k = 0; k < max; k++) {
    const i = Math.round((k * (n - 1)) / (max - 1));
    if (out[out.length - 1] !== i) out.push(i);
  }
  return out;
}

/**
 * The combined Bradley–Terry rating (as the standings compute it: same prior, same challenge weights, incomplete
 * pairs held back) after the first g settled games, for g = 0 and evenly spaced counts up to all of them. Void games
 * are skipped: they have no result.
 */
export function ratingHistory(games: readonly GameRecord[], agentCount: number, options: { maxPoints?: number } = {}): RatingPoint[] {
  const rated = games.filter((g) => isRated(g.termination));
  return sampleIndices(rated.length + 1, options.maxPoints ?? CHART_MAX_POINTS).map((count) => ({
    games: count,
    ratings: combinedRatings(rated.slice(0, count), agentCount).map((r) => (Number.isFinite(r) ? Math.round(r * 10) / 10 : null)),
  }));
}

export interface PairwiseCell {
  games: number;
  /** 100 · (wins + draws/2) / games, from the row agent's side. */
  score_pct: number;
}

/**
 * cells[i][j]: agent i against agent j over the rated games where they sat opposite each other; a multi-seat game
 * counts once for every opposed pair, decided by their placements. Null when the two never met (and on the diagonal).
 */
export function pairwiseMatrix(games: readonly GameRecord[], agentCount: number): Array<Array<PairwiseCell | null>> {
  const count = Array.from({ length: agentCount }, () => new Array<number>(agentCount).fill(0));
  const score = Array.from({ length: agentCount }, () => new Array<number>(agentCount).fill(0));
  for (const game of games) {
    if (!isRated(game.termination)) continue;
    for (const c of pairwiseComparisons(game)) {
      (count[c.a] as number[])[c.b] = ((count[c.a] as number[])[c.b] as number) + 1;
      (count[c.b] as number[])[c.a] = ((count[c.b] as number[])[c.a] as number) + 1;
      (score[c.a] as number[])[c.b] = ((score[c.a] as number[])[c.b] as number) + c.y;
      (score[c.b] as number[])[c.a] = ((score[c.b] as number[])[c.a] as number) + (1 - c.y);
    }
  }
  return count.map((row, i) =>
    row.map((n, j) => (n === 0 ? null : { games: n, score_pct: (100 * ((score[i] as number[])[j] as number)) / n })),
  );
}
