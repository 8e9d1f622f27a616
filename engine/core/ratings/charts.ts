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

/**
 * The chart state of a run, filled one game at a time: current Elo, the trace sampled at every `stride`-th game
 * (the stride doubles whenever the trace would pass its bound, so it stays evenly spaced and bounded at any length),
 * and the pairwise totals. Plain JSON, kept beside the games so the charts never need a pass over them.
 */
export interface ChartTally {
  ratings: number[];
  played: number;
  stride: number;
  trace: RatingPoint[];
  /** count[i·K + j], score[i·K + j]: comparisons of i against j and i's score in them. */
  count: number[];
  score: number[];
}

export function emptyChartTally(agentCount: number, start = CHART_ELO_START): ChartTally {
  const ratings = Array.from({ length: agentCount }, () => start);
  return {
    ratings,
    played: 0,
    stride: 1,
    trace: [{ games: 0, ratings: [...ratings] }],
    count: new Array<number>(agentCount * agentCount).fill(0),
    score: new Array<number>(agentCount * agentCount).fill(0),
  };
}

const rounded = (ratings: readonly number[]): number[] => ratings.map((r) => Math.round(r * 10) / 10);

/**
 * Adds one game (void games are skipped: they have no result). Each opposed seat pair of a game is one comparison
 * weighted 1/(n − 1) (so a player's comparisons in one game weigh K in all); every update of a game uses the
 * ratings from before it.
 */
export function addChartGame(t: ChartTally, game: GameRecord, options: { k?: number; maxPoints?: number } = {}): void {
  if (!isRated(game.termination)) return;
  const k = options.k ?? CHART_ELO_K;
  const n = t.ratings.length;
  const delta = t.ratings.map(() => 0);
  for (const c of pairwiseComparisons(game)) {
    const ra = t.ratings[c.a] as number;
    const rb = t.ratings[c.b] as number;
    const expected = 1 / (1 + 10 ** ((rb - ra) / 400));
    const change = k * c.weight * (c.y - expected);
    delta[c.a] = (delta[c.a] as number) + change;
    delta[c.b] = (delta[c.b] as number) - change;
    t.count[c.a * n + c.b] = (t.count[c.a * n + c.b] as number) + 1;
    t.count[c.b * n + c.a] = (t.count[c.b * n + c.a] as number) + 1;
    t.score[c.a * n + c.b] = (t.score[c.a * n + c.b] as number) + c.y;
    t.score[c.b * n + c.a] = (t.score[c.b * n + c.a] as number) + (1 - c.y);
  }
  delta.forEach((d, i) => {
    t.ratings[i] = (t.ratings[i] as number) + d;
  });
  t.played++;
  if (t.played % t.stride !== 0) return;
  t.trace.push({ games: t.played, ratings: rounded(t.ratings) });
  // One place stays free for the latest point, which history() adds when it falls between samples.
  if (t.trace.length > (options.maxPoints ?? CHART_MAX_POINTS) - 1) {
    t.stride *= 2;
    t.trace = t.trace.filter((p) => p.games % t.stride === 0);
  }
}

/** The trace: the samples and the latest point, first and last always present, at most CHART_MAX_POINTS. */
export function chartHistory(t: ChartTally): RatingPoint[] {
  const last = t.trace[t.trace.length - 1];
  return last && last.games === t.played ? [...t.trace] : [...t.trace, { games: t.played, ratings: rounded(t.ratings) }];
}

/** cells[i][j]: see pairwiseMatrix. */
export function chartPairwise(t: ChartTally): Array<Array<PairwiseCell | null>> {
  const n = t.ratings.length;
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => {
      const games = t.count[i * n + j] as number;
      return games === 0 ? null : { games, score_pct: (100 * (t.score[i * n + j] as number)) / games };
    }),
  );
}

/** Elo after each game, in the order given (see addChartGame), sampled to at most `maxPoints` points. */
export function ratingHistory(
  games: readonly GameRecord[],
  agentCount: number,
  options: { k?: number; start?: number; maxPoints?: number } = {},
): RatingPoint[] {
  const t = emptyChartTally(agentCount, options.start);
  for (const game of games) addChartGame(t, game, options);
  return chartHistory(t);
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
  const t = emptyChartTally(agentCount);
  for (const game of games) addChartGame(t, game);
  return chartPairwise(t);
}
