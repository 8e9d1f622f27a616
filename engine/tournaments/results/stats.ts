// Statistics of a run: the attempt that counts for each game, rating records, standings and the GSPRT state, all
// derived from the run tally (run-tally.ts), which folds the committed attempts in commit order, so a resumed run
// decides as an uninterrupted one would (§9) and the numbers never need a pass over the games.

import {
  emptyWdl,
  INTERVAL_METHOD,
  isForfeit,
  isRated,
  type Leaderboard,
  type Pentanomial,
  type RatedGameCounts,
  RatedGameJudge,
  type RatingsReport,
  ratedGameCounts,
  ratingIntervalText,
  reportFromTally,
  type SprtStatus,
  seatScores,
  sprtStatus,
  type Termination,
  withoutNonFinite,
} from '../../core/ratings/index.js';
import type { TournamentSpec } from '../../core/tournament/index.js';
import type { StoredTournamentGame } from '../../db/store.js';
import { type AgentUsage, agentUsageOf } from './model-usage.js';
import { gameRecord, isSettled, MAX_ATTEMPTS, type RunTally, tallyOfRows } from './run-tally.js';

export { gameRecord, isSettled, MAX_ATTEMPTS };

/** The counting attempt of every game (its latest), in the order those attempts were committed. */
export function finalGames(rows: readonly StoredTournamentGame[]): StoredTournamentGame[] {
  const latest = new Map<string, StoredTournamentGame>();
  for (const row of rows) {
    const seen = latest.get(row.gameKey);
    if (!seen || row.attempt > seen.attempt) latest.set(row.gameKey, row);
  }
  return [...latest.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * The placements a game counts with, the one reading of a result every view and export uses: the reported
 * placements of a normal end, or for a forfeit the faulted seats last and every other seat first (as the standings
 * score it); null for a void game. `forfeit` marks the second case.
 */
export function countedResult(row: Pick<StoredTournamentGame, 'termination' | 'faultedSeats' | 'placements' | 'seats'>): {
  placements: number[] | null;
  forfeit: boolean;
} {
  const termination = row.termination as Termination;
  if (!isRated(termination)) return { placements: null, forfeit: false };
  if (isForfeit(termination) && row.faultedSeats.length > 0) {
    const faulted = new Set(row.faultedSeats);
    return { placements: row.seats.map((_, seat) => (faulted.has(seat) ? 2 : 1)), forfeit: true };
  }
  return { placements: row.placements, forfeit: false };
}

/** A stored game as the API and the exports give it: seat agents named, the counted result in `placements`. */
export function gameView<T extends StoredTournamentGame>(row: T, agentNames: readonly string[]) {
  const result = countedResult(row);
  return {
    ...row,
    seat_agents: row.seats.map((a) => agentNames[a] ?? String(a)),
    placements: result.placements,
    forfeit: result.forfeit,
    reported_placements: row.placements,
  };
}

/** Score per seat for swiss/knockout points: 1 / ½ / 0, and ½ each for a game that stayed void. */
export function seatPoints(row: Parameters<typeof gameRecord>[0]): number[] {
  const record = gameRecord(row);
  return isRated(record.termination) ? seatScores(record) : row.seats.map(() => 0.5);
}

export function sprtOf(spec: TournamentSpec, rows: readonly StoredTournamentGame[]): SprtStatus | null {
  return sprtOfTally(spec, tallyOfRows(rows, 2));
}

/** The GSPRT state from the tally's head-to-head counts of agents 0 and 1 (complete pairs only, as the ratings). */
export function sprtOfTally(spec: TournamentSpec, tally: RunTally): SprtStatus | null {
  if (spec.stop.kind !== 'sprt') return null;
  const params = { elo0: spec.stop.elo0, elo1: spec.stop.elo1, alpha: spec.stop.alpha, beta: spec.stop.beta, model: spec.stop.model };
  const wdl = emptyWdl();
  const pentanomial: Pentanomial = [0, 0, 0, 0, 0];
  for (const c of tally.ratings.challenges) {
    wdl.wins += c.h2h.wdl.wins;
    wdl.draws += c.h2h.wdl.draws;
    wdl.losses += c.h2h.wdl.losses;
    c.h2h.pentanomial.forEach((v, bin) => {
      pentanomial[bin] = (pentanomial[bin] as number) + v;
    });
  }
  // Pairs are the unit when the games are seat-swapped pairs (§3.1); otherwise per-game counts.
  const paired = spec.games_per_pairing % 2 === 0;
  return paired ? sprtStatus(pentanomial, params, wdl) : sprtStatus(wdl, params);
}

export interface StandingRow {
  rank: number;
  rank_range: [number, number];
  /** The agent's id in this run: the manifest id (plus "@hash" for two versions of one id), or the spec's own id. */
  agent: string;
  /** The manifest's name. */
  agent_name: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  points: number;
  score_pct: number | null;
  rating: number | null;
  /** null with a rating: no bound on that side (a perfect record); see rating_interval. */
  rating_lower: number | null;
  rating_upper: number | null;
  /** The interval as printed everywhere: "1183 [1012, 1354]", "1183 [> 1012]", "817 [< 988]". */
  rating_interval: string | null;
  security: number | null;
  utility: number | null;
  /** Model calls' prompt + completion tokens over every attempt the agent sat in; null: no model usage recorded. */
  tokens: number | null;
  /** USD spent on model calls over every attempt (void ones too: they were paid for); null: no model usage. */
  cost_usd: number | null;
  cost_per_game_usd: number | null;
  /** See costPerRatingPoint. */
  cost_per_rating_point: number | null;
}

const finite = (x: number | undefined | null): number | null => (x === undefined || x === null || !Number.isFinite(x) ? null : x);

/**
 * Cost per rating point: the agent's average model spend per game (USD) divided by the Elo points it stands above
 * the weakest-rated agent of the same table. It reads "what one game costs for each point of strength bought over the
 * floor of the field", so it does not grow with the length of the tournament, and a scripted baseline (the usual
 * weakest agent) is the natural zero. Ratings are only meaningful as differences (the fit centres them), hence the
 * floor rather than the raw rating. Null when undefined: no model usage recorded, no finite rating (for the agent or
 * fewer than two rated agents in the table), or a non-positive difference (the weakest agent itself). A local model
 * with a positive difference costs 0 per point.
 */
export function costPerRatingPoint(costPerGameUsd: number | null, rating: number | null, floor: number | null): number | null {
  if (costPerGameUsd === null || rating === null || floor === null) return null;
  const above = rating - floor;
  return above > 0 ? costPerGameUsd / above : null;
}

/** Leaderboard rows, best first (honest rank, then points); `usage` per agent index adds the cost columns. */
export function standingRows(
  board: Leaderboard,
  agentIds: readonly string[],
  usage: ReadonlyArray<AgentUsage | null> = [],
  agentNames: readonly string[] = agentIds,
): StandingRow[] {
  const rated = board.agents.map((a) => finite(a.rating.rating)).filter((r): r is number => r !== null);
  const floor = rated.length >= 2 ? Math.min(...rated) : null;
  return (
    board.agents
      .map((a) => {
        const u = usage[a.agent] ?? null;
        const rating = finite(a.rating.rating);
        return {
          rank: a.rating.rank,
          rank_range: a.rating.rankRange,
          agent: agentIds[a.agent] ?? String(a.agent),
          agent_name: agentNames[a.agent] ?? agentIds[a.agent] ?? String(a.agent),
          games: a.games,
          wins: a.wdl.wins,
          draws: a.wdl.draws,
          losses: a.wdl.losses,
          points: a.points,
          score_pct: a.games > 0 ? (100 * a.points) / a.games : null,
          rating,
          rating_lower: finite(a.rating.lower),
          rating_upper: finite(a.rating.upper),
          rating_interval: ratingIntervalText(a.rating),
          security: finite(a.security?.mean),
          utility: finite(a.utility?.mean),
          tokens: u ? u.prompt_tokens + u.completion_tokens : null,
          cost_usd: u ? u.cost_usd : null,
          cost_per_game_usd: u ? u.cost_per_game_usd : null,
          cost_per_rating_point: costPerRatingPoint(u ? u.cost_per_game_usd : null, rating, floor),
        };
      })
      // Unranked agents (rank 0: no rated game yet) go last.
      .sort(
        (x, y) =>
          (x.rank || Infinity) - (y.rank || Infinity) ||
          y.points - x.points ||
          (y.rating ?? 0) - (x.rating ?? 0) ||
          x.agent.localeCompare(y.agent),
      )
  );
}

export interface RunStatistics {
  ratings: RatingsReport;
  /** Finished games, how many are rated, and why the others are not (rated-games.ts): every view prints these. */
  rated_games: RatedGameCounts;
  standings: { combined: StandingRow[]; per_challenge: Record<string, StandingRow[]> };
  sprt: SprtStatus | null;
  terminations: Record<string, number>;
  /** Reasons not to take the numbers at face value (harness faults, agents that mostly forfeit); empty when none. */
  warnings: string[];
}

/** Share of game attempts ending in a harness fault above which a run is flagged (§8.1). */
export const HARNESS_FAULT_WARN_SHARE = 0.01;

/**
 * The audit warnings of §8.1 and issue 15: harness faults above 1% of game attempts, and every agent most of whose
 * counted games ended in its own fault (its standing then says more about its set-up than about its play).
 */
export function runWarnings(agentIds: readonly string[], rows: readonly StoredTournamentGame[]): string[] {
  return warningsOfTally(agentIds, tallyOfRows(rows, agentIds.length));
}

export function warningsOfTally(agentIds: readonly string[], t: RunTally): string[] {
  const out: string[] = [];
  const harness = t.harnessFaults;
  if (t.attempts > 0 && harness / t.attempts > HARNESS_FAULT_WARN_SHARE)
    out.push(
      `${harness} of ${t.attempts} game attempts (${((100 * harness) / t.attempts).toFixed(1)}%) ended in a harness fault (engine, runner or built-in adapter); they are replayed and not rated, but check the set-up before trusting this run.`,
    );
  agentIds.forEach((id, agent) => {
    const mine = t.counted[agent] ?? 0;
    const own = t.ownFaults[agent] ?? 0;
    if (mine > 0 && own * 2 > mine) {
      const list = Object.entries(t.ownCauses[agent] ?? {})
        .map(([termination, n]) => `${termination} ${n}`)
        .join(', ');
      out.push(`${id}: ${own} of its ${mine} games ended in its own fault (${list}); its results are forfeits, not play.`);
    }
  });
  return out;
}

export function runStatistics(
  spec: TournamentSpec,
  agentIds: readonly string[],
  rows: readonly StoredTournamentGame[],
  agentNames: readonly string[] = agentIds,
): RunStatistics {
  return statisticsOfTally(spec, agentIds, tallyOfRows(rows, agentIds.length), agentNames);
}

/** Everything the standings show, from the tally alone: one Bradley–Terry fit per table, no pass over the games. */
export function statisticsOfTally(
  spec: TournamentSpec,
  agentIds: readonly string[],
  tally: RunTally,
  agentNames: readonly string[] = agentIds,
): RunStatistics {
  const ratings = reportFromTally(tally.ratings, { agentCount: agentIds.length });
  // Spend per table: every attempt counts (void ones were paid for), restricted to the table's challenge.
  const perChallenge: Record<string, StandingRow[]> = {};
  for (const [challenge, board] of Object.entries(ratings.perChallenge)) {
    const usage = agentUsageOf(tally.usageByChallenge[challenge] ?? []);
    perChallenge[challenge] = standingRows(board, agentIds, usage, agentNames);
  }
  return {
    ratings,
    rated_games: ratedGameCounts(tally.ratings, tally.finishedVoid),
    standings: {
      combined: standingRows(ratings.combined, agentIds, agentUsageOf(tally.usage), agentNames),
      per_challenge: perChallenge,
    },
    sprt: sprtOfTally(spec, tally),
    terminations: { ...tally.terminations },
    warnings: warningsOfTally(agentIds, tally),
  };
}

/**
 * Why each attempt of a streamed pass (commit order) is not rated, null when it is: the run's one rule (rated-games.ts)
 * read against the units the statistics left incomplete. One judge per pass.
 */
export function ratedJudge(stats: Pick<RunStatistics, 'ratings'>): (row: StoredTournamentGame) => string | null {
  const judge = new RatedGameJudge(stats.ratings.incompleteUnits);
  return (row) => judge.reason({ ...row, swapOf: row.swapOf ?? undefined, termination: row.termination as Termination });
}

/** The ratings report as report.json and the API give it: the interval method named, open bounds as null. */
export function ratingsForExport(ratings: RatingsReport): Record<string, unknown> {
  return withoutNonFinite({ method: INTERVAL_METHOD, ...ratings });
}
