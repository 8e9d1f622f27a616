// Per-challenge and combined leaderboards: W/D/L, points, Bradley–Terry with posterior intervals and honest
// ranks, SpecArena score means; plus the head-to-head block (Elo ±, nElo, LOS, pentanomial) for two agents.

import type { WeightedComparison } from './bradley-terry.js';
import { type EloEstimate, pentanomialElo, trinomialElo } from './elo.js';
import { type GameRecord, unitKey } from './game-record.js';
import { pairwiseComparisons, seatScores } from './outcomes.js';
import { partitionForRatings } from './rated-games.js';
import { type IntervalResult, posteriorMode, type RatingInterval, type RatingUnit, ratingIntervals } from './rating-intervals.js';
import { agentScoreMeans, combineMeans, type MeanInterval } from './score-means.js';
import { agentWdl, headToHeadWdl, type Pentanomial, pentanomialCounts, type Wdl } from './wdl.js';

export interface RatingsOptions {
  agentCount: number;
  /** Virtual draws of the rating prior (default 2; never below 1). */
  priorDraws?: number;
  anchor?: { agent: number; rating: number };
}

export interface AgentSummary {
  agent: number;
  games: number;
  wdl: Wdl;
  /** Sum of per-game scores (1 / ½ / 0, or the placement percentile in multiplayer games). */
  points: number;
  rating: RatingInterval;
  security: MeanInterval | null;
  utility: MeanInterval | null;
}

export interface Leaderboard {
  /** null for the combined leaderboard. */
  challenge: string | null;
  games: number;
  agents: AgentSummary[];
  converged: boolean;
  priorDraws: number;
}

export interface RatingsReport {
  perChallenge: Record<string, Leaderboard>;
  combined: Leaderboard;
  /** Games left out as void (harness, external or operator fault). */
  voidedGames: number;
  incompleteUnits: string[];
  /** With exactly two agents: agent 0 against agent 1, per challenge and combined (pooled games). */
  headToHead?: { perChallenge: Record<string, HeadToHead>; combined: HeadToHead };
}

/**
 * Rating units of the rated games: one per pair/set (or unpaired game), each comparison weighted
 * 1/(n − 1) (§7.2) times `challengeWeight(challenge)` (§7.1).
 */
export function ratingUnits(games: readonly GameRecord[], challengeWeight: (challenge: string) => number = () => 1): RatingUnit[] {
  const byUnit = new Map<string, { comparisons: WeightedComparison[] }>();
  for (const game of games) {
    const key = unitKey(game);
    const unit = byUnit.get(key) ?? { comparisons: [] };
    const w = challengeWeight(game.challenge);
    for (const c of pairwiseComparisons(game)) unit.comparisons.push({ ...c, weight: c.weight * w });
    byUnit.set(key, unit);
  }
  return [...byUnit.values()];
}

function summarise(
  games: readonly GameRecord[],
  challenge: string | null,
  fit: IntervalResult,
  means: Array<{ security: MeanInterval | null; utility: MeanInterval | null }>,
  agentCount: number,
): Leaderboard {
  const wdl = agentWdl(games, agentCount);
  const played = new Array<number>(agentCount).fill(0);
  const points = new Array<number>(agentCount).fill(0);
  for (const game of games) {
    const scores = seatScores(game);
    for (const agent of new Set(game.seats)) played[agent] = (played[agent] as number) + 1;
    game.seats.forEach((agent, seat) => {
      points[agent] = (points[agent] as number) + (scores[seat] as number);
    });
  }
  return {
    challenge,
    games: games.length,
    converged: fit.fit.converged,
    priorDraws: fit.priorDraws,
    agents: Array.from({ length: agentCount }, (_, agent) => ({
      agent,
      games: played[agent] as number,
      wdl: wdl[agent] as Wdl,
      points: points[agent] as number,
      rating: fit.agents[agent] as RatingInterval,
      security: means[agent]?.security ?? null,
      utility: means[agent]?.utility ?? null,
    })),
  };
}

/**
 * The combined board's rating units. Each challenge weighs equally (∝ 1/E_c), scaled so the total weight is Kish's
 * effective sample size: the posterior width then reflects how much data there is, not the arbitrary sum of the weights.
 */
function combinedUnits(rated: readonly GameRecord[]): RatingUnit[] {
  const gameCount = new Map<string, number>();
  for (const g of rated) gameCount.set(g.challenge, (gameCount.get(g.challenge) ?? 0) + 1);
  const inverseSum = [...gameCount.values()].reduce((a, e) => a + 1 / e, 0);
  return ratingUnits(rated, (c) => gameCount.size / ((gameCount.get(c) ?? 1) * inverseSum));
}

/**
 * The combined board's ratings alone (the posterior mode, no intervals or ranks): what the standings would show after
 * exactly these games. NaN for an agent without comparisons. The rating chart calls it once per plotted point.
 */
export function combinedRatings(games: readonly GameRecord[], agentCount: number): number[] {
  return posteriorMode(agentCount, combinedUnits(partitionForRatings(games).rated)).point;
}

/**
 * Everything the leaderboard shows. `games` may contain void games and incomplete pairs; they are filtered here
 * (countsForRatings). The combined board weighs each challenge equally (w ∝ 1/E_c, §7.1).
 */
export function ratingsReport(games: readonly GameRecord[], options: RatingsOptions): RatingsReport {
  const { rated, voided, incompleteUnits } = partitionForRatings(games);
  const { agentCount } = options;
  const challenges = [...new Set(rated.map((g) => g.challenge))];
  const boot = (units: RatingUnit[]): IntervalResult =>
    ratingIntervals(agentCount, units, {
      ...(options.priorDraws === undefined ? {} : { priorDraws: options.priorDraws }),
      ...(options.anchor === undefined ? {} : { anchor: options.anchor }),
    });
  const perChallenge: Record<string, Leaderboard> = {};
  const perChallengeMeans: Array<ReturnType<typeof agentScoreMeans>> = [];
  for (const challenge of challenges) {
    const subset = rated.filter((g) => g.challenge === challenge);
    const means = agentScoreMeans(subset, agentCount);
    perChallengeMeans.push(means);
    perChallenge[challenge] = summarise(subset, challenge, boot(ratingUnits(subset)), means, agentCount);
  }
  const combinedFit = boot(combinedUnits(rated));
  const combinedMeans = Array.from({ length: agentCount }, (_, agent) => ({
    security: combineMeans(perChallengeMeans.map((m) => m[agent]?.security ?? null)),
    utility: combineMeans(perChallengeMeans.map((m) => m[agent]?.utility ?? null)),
  }));
  const report: RatingsReport = {
    perChallenge,
    combined: summarise(rated, null, combinedFit, combinedMeans, agentCount),
    voidedGames: voided.length,
    incompleteUnits,
  };
  if (agentCount === 2) {
    report.headToHead = {
      perChallenge: Object.fromEntries(
        challenges.map((c) => [
          c,
          headToHead(
            rated.filter((g) => g.challenge === c),
            0,
            1,
          ),
        ]),
      ),
      combined: headToHead(rated, 0, 1),
    };
  }
  return report;
}

export interface HeadToHead {
  wdl: Wdl;
  pentanomial: Pentanomial;
  /** Per-game statistics; null without games. */
  trinomial: EloEstimate | null;
  /** Per-pair statistics; null without complete pairs. */
  pairs: EloEstimate | null;
}

/** Agent a against agent b over rated games (filter by challenge first for a per-challenge block). */
export function headToHead(games: readonly GameRecord[], a: number, b: number): HeadToHead {
  const wdl = headToHeadWdl(games, a, b);
  const pentanomial = pentanomialCounts(games, a, b);
  return { wdl, pentanomial, trinomial: trinomialElo(wdl), pairs: pentanomialElo(pentanomial) };
}
