// Chart data for the tournament view: the standings' own Bradley–Terry ratings traced over the settled games, and
// the pairwise score matrix. One rating model per page (issue 16): each point of the trace is what the standings
// read after that many settled games, and the trace ends at the standings' rating.
import type { GameRecord } from './game-record.js';
import { pairwiseComparisons } from './outcomes.js';
import { combinedRatingsOf } from './report.js';
import { addRatedGame, emptyRatingsTally, type RatingsTally } from './tally.js';
import { isRated } from './termination.js';

/** At most this many points; each sampled point is one refit, so the bound also bounds the work. */
export const CHART_MAX_POINTS = 120;

export interface RatingPoint {
  /** Settled games counted so far. */
  games: number;
  /** One rating per agent, in agent order; null while an agent has no rated comparison. */
  ratings: Array<number | null>;
}

/**
 * The chart state of a run, filled one game at a time: the trace sampled at every `stride`-th rated game (the stride
 * doubles whenever the trace would pass its bound, so it stays evenly spaced and bounded at any length), and the
 * pairwise totals. Plain JSON, kept beside the games so the charts never need a pass over them.
 */
export interface ChartTally {
  played: number;
  stride: number;
  trace: RatingPoint[];
  /** count[i·K + j], score[i·K + j]: comparisons of i against j and i's score in them. */
  count: number[];
  score: number[];
}

export function emptyChartTally(agentCount: number): ChartTally {
  return {
    played: 0,
    stride: 1,
    trace: [{ games: 0, ratings: new Array<null>(agentCount).fill(null) }],
    count: new Array<number>(agentCount * agentCount).fill(0),
    score: new Array<number>(agentCount * agentCount).fill(0),
  };
}

/** The standings' combined ratings now, rounded to 0.1, null for an agent without comparisons. */
function pointOf(ratings: RatingsTally): Array<number | null> {
  return combinedRatingsOf(ratings).map((r) => (Number.isFinite(r) ? Math.round(r * 10) / 10 : null));
}

/** Adds one game's opposed seat pairs to the pairwise totals (void games have no result and are skipped). */
function addPairwise(t: ChartTally, game: GameRecord): void {
  const n = Math.round(Math.sqrt(t.count.length));
  for (const c of pairwiseComparisons(game)) {
    t.count[c.a * n + c.b] = (t.count[c.a * n + c.b] as number) + 1;
    t.count[c.b * n + c.a] = (t.count[c.b * n + c.a] as number) + 1;
    t.score[c.a * n + c.b] = (t.score[c.a * n + c.b] as number) + c.y;
    t.score[c.b * n + c.a] = (t.score[c.b * n + c.a] as number) + (1 - c.y);
  }
}

/**
 * Adds one rated game (void games are skipped). `ratings` is the run's ratings tally with this game already added:
 * a sampled point reads the standings from it.
 */
export function addChartGame(t: ChartTally, game: GameRecord, ratings: RatingsTally, options: { maxPoints?: number } = {}): void {
  if (!isRated(game.termination)) return;
  addPairwise(t, game);
  t.played++;
  if (t.played % t.stride !== 0) return;
  t.trace.push({ games: t.played, ratings: pointOf(ratings) });
  // One place stays free for the latest point, which chartHistory() adds when it falls between samples.
  if (t.trace.length > (options.maxPoints ?? CHART_MAX_POINTS) - 1) {
    t.stride *= 2;
    t.trace = t.trace.filter((p) => p.games % t.stride === 0);
  }
}

/** The trace: the samples and the latest point (the standings now), first and last always present. */
export function chartHistory(t: ChartTally, ratings: RatingsTally): RatingPoint[] {
  const last = t.trace[t.trace.length - 1];
  return last && last.games === t.played ? [...t.trace] : [...t.trace, { games: t.played, ratings: pointOf(ratings) }];
}

/** cells[i][j]: see pairwiseMatrix. */
export function chartPairwise(t: ChartTally): Array<Array<PairwiseCell | null>> {
  const n = Math.round(Math.sqrt(t.count.length));
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => {
      const games = t.count[i * n + j] as number;
      return games === 0 ? null : { games, score_pct: (100 * (t.score[i * n + j] as number)) / games };
    }),
  );
}

/** The trace of a list of games, in the order given (see addChartGame), sampled to at most `maxPoints` points. */
export function ratingHistory(games: readonly GameRecord[], agentCount: number, options: { maxPoints?: number } = {}): RatingPoint[] {
  const ratings = emptyRatingsTally(agentCount);
  const t = emptyChartTally(agentCount);
  for (const game of games) {
    if (!isRated(game.termination)) continue;
    addRatedGame(ratings, game);
    addChartGame(t, game, ratings, options);
  }
  return chartHistory(t, ratings);
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
  for (const game of games) if (isRated(game.termination)) addPairwise(t, game);
  return chartPairwise(t);
}
