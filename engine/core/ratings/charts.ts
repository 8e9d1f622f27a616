// Chart data for the tournament view: an incremental Elo trace over settled games and the pairwise score matrix.
// Deliberately simpler than the reported ratings (Bradley–Terry with posterior intervals): a fixed-K Elo shows how the field
// moved game by game, which the final fit cannot.
import type { GameRecord } from './game-record.js';
import { pairwiseComparisons } from './outcomes.js';
import { isRated } from './termination.js';

/** The reported scale's mean (bradley-terry.ts), so the trace and the standings share an axis. */
export const CHART_ELO_START = 1000;
export const CHART_ELO_K = 16;
export const CHART_MAX_POINTS = 400;

export interface RatingPoint {
  /** Settled games counted so far. */
  games: number;
  /** One rating per agent, in agent order. */
  ratings: number[];
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
 * Elo after each game, in the order given. Each opposed seat pair of a game is one comparison weighted 1/(n − 1)
 * (so a player's comparisons in one game weigh K in all); every update of a game uses the ratings from before it.
 * Void games are skipped: they have no result.
 */
export function ratingHistory(
  games: readonly GameRecord[],
  agentCount: number,
  options: { k?: number; start?: number; maxPoints?: number } = {},
): RatingPoint[] {
  const k = options.k ?? CHART_ELO_K;
  const ratings = Array.from({ length: agentCount }, () => options.start ?? CHART_ELO_START);
  const points: RatingPoint[] = [{ games: 0, ratings: [...ratings] }];
  let played = 0;
  for (const game of games) {
    if (!isRated(game.termination)) continue;
    const delta = ratings.map(() => 0);
    for (const c of pairwiseComparisons(game)) {
      const ra = ratings[c.a] as number;
      const rb = ratings[c.b] as number;
      const expected = 1 / (1 + 10 ** ((rb - ra) / 400));
      const change = k * c.weight * (c.y - expected);
      delta[c.a] = (delta[c.a] as number) + change;
      delta[c.b] = (delta[c.b] as number) - change;
    }
    delta.forEach((d, i) => {
      ratings[i] = (ratings[i] as number) + d;
    });
    played++;
    points.push({ games: played, ratings: ratings.map((r) => Math.round(r * 10) / 10) });
  }
  return sampleIndices(points.length, options.maxPoints ?? CHART_MAX_POINTS).map((i) => points[i] as RatingPoint);
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
