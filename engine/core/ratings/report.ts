// Per-challenge and combined leaderboards: W/D/L, points, Bradley–Terry with posterior intervals and honest
// ranks, SpecArena score means; plus the head-to-head block (Elo ±, nElo, LOS, pentanomial) for two agents.

import { type BtData, emptyBtData, type WeightedComparison } from './bradley-terry.js';
import { type EloEstimate, pentanomialElo, trinomialElo } from './elo.js';
import { type GameRecord, unitKey } from './game-record.js';
import { pairwiseComparisons } from './outcomes.js';
import { type IntervalResult, posteriorModeOf, type RatingInterval, type RatingUnit, ratingIntervalsOf } from './rating-intervals.js';
import { combineMeans, type MeanInterval, type Moments, momentsInterval, type ScoreMeans } from './score-means.js';
import { addRatedGame, btDataOf, type ChallengeTally, emptyRatingsTally, type RatingsTally, tallyChallenges } from './tally.js';
import { isRated } from './termination.js';
import { emptyWdl, headToHeadWdl, type Pentanomial, pentanomialCounts, type Wdl } from './wdl.js';

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
  challenge: string | null,
  parts: readonly ChallengeTally[],
  fit: IntervalResult,
  means: Array<{ security: MeanInterval | null; utility: MeanInterval | null }>,
  agentCount: number,
): Leaderboard {
  const sum = (pick: (c: ChallengeTally) => readonly number[], agent: number): number =>
    parts.reduce((acc, c) => acc + (pick(c)[agent] as number), 0);
  return {
    challenge,
    games: parts.reduce((acc, c) => acc + c.games, 0),
    converged: fit.fit.converged,
    priorDraws: fit.priorDraws,
    agents: Array.from({ length: agentCount }, (_, agent) => {
      const wdl = emptyWdl();
      for (const c of parts) {
        const w = c.wdl[agent] as Wdl;
        wdl.wins += w.wins;
        wdl.draws += w.draws;
        wdl.losses += w.losses;
      }
      return {
        agent,
        games: sum((c) => c.played, agent),
        wdl,
        points: sum((c) => c.points, agent),
        rating: fit.agents[agent] as RatingInterval,
        security: means[agent]?.security ?? null,
        utility: means[agent]?.utility ?? null,
      };
    }),
  };
}

/**
 * Everything the leaderboard shows. `games` may contain void games and incomplete pairs; they are filtered here
 * (countsForRatings). The combined board weighs each challenge equally (w ∝ 1/E_c, §7.1).
 */
export function ratingsReport(games: readonly GameRecord[], options: RatingsOptions): RatingsReport {
  const t = emptyRatingsTally(options.agentCount);
  for (const game of games) {
    if (isRated(game.termination)) addRatedGame(t, game);
    else t.voided++;
  }
  return reportFromTally(t, options);
}

/**
 * The combined board's comparison totals. Each challenge weighs equally (∝ 1/E_c), scaled so the total weight is
 * Kish's effective sample size: the posterior width then reflects how much data there is, not the arbitrary sum of
 * the weights. `meanWeight` is the prior's weight (a virtual draw weighs like one real comparison).
 */
function combinedData(t: RatingsTally): { data: BtData; meanWeight: number } {
  const challenges = tallyChallenges(t);
  const inverseSum = challenges.reduce((a, c) => a + 1 / c.games, 0);
  const data = emptyBtData(t.agentCount);
  let weight = 0;
  let count = 0;
  for (const c of challenges) {
    const w = challenges.length / (c.games * inverseSum);
    c.n.forEach((v, i) => {
      data.n[i] = (data.n[i] as number) + v * w;
    });
    c.s.forEach((v, i) => {
      data.s[i] = (data.s[i] as number) + v * w;
    });
    weight += c.weightSum * w;
    count += c.comparisons;
  }
  return { data, meanWeight: count === 0 ? 1 : weight / count };
}

/**
 * The combined board's ratings alone (the posterior mode, no intervals or ranks): what the standings show for the
 * games in the tally. NaN for an agent without comparisons. The rating chart takes one per plotted point.
 */
export function combinedRatingsOf(t: RatingsTally, options: Pick<RatingsOptions, 'priorDraws'> = {}): number[] {
  const { data, meanWeight } = combinedData(t);
  return posteriorModeOf(data, { priorWeight: meanWeight, ...(options.priorDraws === undefined ? {} : { priorDraws: options.priorDraws }) })
    .point;
}

/** The report of what a tally holds: one Bradley–Terry posterior per challenge and one combined. */
export function reportFromTally(t: RatingsTally, options: RatingsOptions): RatingsReport {
  const { agentCount } = options;
  const boot = (data: BtData, meanWeight: number): IntervalResult =>
    ratingIntervalsOf(data, {
      priorWeight: meanWeight,
      ...(options.priorDraws === undefined ? {} : { priorDraws: options.priorDraws }),
      ...(options.anchor === undefined ? {} : { anchor: options.anchor }),
    });
  const meanWeight = (weight: number, count: number): number => (count === 0 ? 1 : weight / count);
  const challenges = tallyChallenges(t);
  const perChallenge: Record<string, Leaderboard> = {};
  const perChallengeMeans: ScoreMeans[][] = [];
  for (const c of challenges) {
    const means = c.security.map((s, agent) => ({ security: momentsInterval(s), utility: momentsInterval(c.utility[agent] as Moments) }));
    perChallengeMeans.push(means);
    const fit = boot(btDataOf(agentCount, c.n, c.s), meanWeight(c.weightSum, c.comparisons));
    perChallenge[c.challenge] = summarise(c.challenge, [c], fit, means, agentCount);
  }
  const combined = combinedData(t);
  const combinedFit = boot(combined.data, combined.meanWeight);
  const combinedMeans = Array.from({ length: agentCount }, (_, agent) => ({
    security: combineMeans(perChallengeMeans.map((m) => m[agent]?.security ?? null)),
    utility: combineMeans(perChallengeMeans.map((m) => m[agent]?.utility ?? null)),
  }));
  const report: RatingsReport = {
    perChallenge,
    combined: summarise(null, challenges, combinedFit, combinedMeans, agentCount),
    voidedGames: t.voided,
    incompleteUnits: Object.keys(t.pending),
  };
  if (agentCount === 2) {
    const h2h = (wdl: Wdl, pentanomial: Pentanomial): HeadToHead => ({
      wdl,
      pentanomial,
      trinomial: trinomialElo(wdl),
      pairs: pentanomialElo(pentanomial),
    });
    const total = emptyWdl();
    const penta: Pentanomial = [0, 0, 0, 0, 0];
    for (const c of challenges) {
      total.wins += c.h2h.wdl.wins;
      total.draws += c.h2h.wdl.draws;
      total.losses += c.h2h.wdl.losses;
      c.h2h.pentanomial.forEach((v, bin) => {
        penta[bin] = (penta[bin] as number) + v;
      });
    }
    report.headToHead = {
      perChallenge: Object.fromEntries(challenges.map((c) => [c.challenge, h2h({ ...c.h2h.wdl }, [...c.h2h.pentanomial])])),
      combined: h2h(total, penta),
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
