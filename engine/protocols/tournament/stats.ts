// Statistics of a run from its committed games: the attempt that counts for each game, rating records, standings,
// and the GSPRT state. Always recomputed from the database in commit order, so a resumed run decides as an
// uninterrupted one would (§9).

import {
  countsForRatings,
  type GameRecord,
  headToHeadWdl,
  isRated,
  type Leaderboard,
  pentanomialCounts,
  type RatingsReport,
  ratingsReport,
  type SprtStatus,
  seatScores,
  sprtStatus,
  type Termination,
} from '../../core/ratings/index.js';
import type { TournamentSpec } from '../../core/tournament/index.js';
import type { StoredTournamentGame } from '../../db/store.js';

/** Attempts a void game may take in all: the first play plus this many replays (§8.1 maxReplays = 2). */
export const MAX_ATTEMPTS = 3;

/** The counting attempt of every game (its latest), in the order those attempts were committed. */
export function finalGames(rows: readonly StoredTournamentGame[]): StoredTournamentGame[] {
  const latest = new Map<string, StoredTournamentGame>();
  for (const row of rows) {
    const seen = latest.get(row.gameKey);
    if (!seen || row.attempt > seen.attempt) latest.set(row.gameKey, row);
  }
  return [...latest.values()].sort((a, b) => a.seq - b.seq);
}

/** A game is settled when it has a rated result or used up its replays. */
export function isSettled(row: Pick<StoredTournamentGame, 'termination' | 'attempt'>): boolean {
  return isRated(row.termination as Termination) || row.attempt >= MAX_ATTEMPTS;
}

export function gameRecord(row: StoredTournamentGame): GameRecord {
  const record: GameRecord = {
    gameIndex: row.gameIndex,
    challenge: row.challenge,
    seats: row.seats,
    setSize: row.setSize,
    termination: row.termination as Termination,
  };
  if (row.swapOf !== null) record.swapOf = row.swapOf;
  if (row.faultedSeats.length > 0) record.faultedSeats = row.faultedSeats;
  if (row.placements) record.placements = row.placements;
  if (row.scores) record.scores = row.scores;
  return record;
}

/** Score per seat for swiss/knockout points: 1 / ½ / 0, and ½ each for a game that stayed void. */
export function seatPoints(row: StoredTournamentGame): number[] {
  const record = gameRecord(row);
  return isRated(record.termination) ? seatScores(record) : row.seats.map(() => 0.5);
}

export function sprtOf(spec: TournamentSpec, rows: readonly StoredTournamentGame[]): SprtStatus | null {
  if (spec.stop.kind !== 'sprt') return null;
  const rated = countsForRatings(finalGames(rows).map(gameRecord));
  const params = { elo0: spec.stop.elo0, elo1: spec.stop.elo1, alpha: spec.stop.alpha, beta: spec.stop.beta, model: spec.stop.model };
  // Pairs are the unit when the games are seat-swapped pairs (§3.1); otherwise per-game counts.
  const paired = spec.games_per_pairing % 2 === 0;
  return sprtStatus(paired ? pentanomialCounts(rated, 0, 1) : headToHeadWdl(rated, 0, 1), params);
}

export interface StandingRow {
  rank: number;
  rank_range: [number, number];
  agent: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  points: number;
  score_pct: number | null;
  rating: number | null;
  rating_lower: number | null;
  rating_upper: number | null;
  security: number | null;
  utility: number | null;
}

const finite = (x: number | undefined | null): number | null => (x === undefined || x === null || !Number.isFinite(x) ? null : x);

/** Leaderboard rows, best first (honest rank, then points). */
export function standingRows(board: Leaderboard, agentIds: readonly string[]): StandingRow[] {
  return board.agents
    .map((a) => ({
      rank: a.rating.rank,
      rank_range: a.rating.rankRange,
      agent: agentIds[a.agent] ?? String(a.agent),
      games: a.games,
      wins: a.wdl.wins,
      draws: a.wdl.draws,
      losses: a.wdl.losses,
      points: a.points,
      score_pct: a.games > 0 ? (100 * a.points) / a.games : null,
      rating: finite(a.rating.median),
      rating_lower: finite(a.rating.lower),
      rating_upper: finite(a.rating.upper),
      security: finite(a.security?.mean),
      utility: finite(a.utility?.mean),
    }))
    .sort((x, y) => x.rank - y.rank || y.points - x.points || (y.rating ?? 0) - (x.rating ?? 0) || x.agent.localeCompare(y.agent));
}

export interface RunStatistics {
  ratings: RatingsReport;
  standings: { combined: StandingRow[]; per_challenge: Record<string, StandingRow[]> };
  sprt: SprtStatus | null;
  terminations: Record<string, number>;
}

export function runStatistics(
  spec: TournamentSpec,
  agentIds: readonly string[],
  rows: readonly StoredTournamentGame[],
  seed: string,
  bootstrapRounds?: number,
): RunStatistics {
  const finals = finalGames(rows);
  const ratings = ratingsReport(finals.map(gameRecord), {
    agentCount: agentIds.length,
    seed,
    ...(bootstrapRounds === undefined ? {} : { bootstrapRounds }),
  });
  const perChallenge: Record<string, StandingRow[]> = {};
  for (const [challenge, board] of Object.entries(ratings.perChallenge)) perChallenge[challenge] = standingRows(board, agentIds);
  const terminations: Record<string, number> = {};
  for (const row of rows) terminations[row.termination] = (terminations[row.termination] ?? 0) + 1;
  return {
    ratings,
    standings: { combined: standingRows(ratings.combined, agentIds), per_challenge: perChallenge },
    sprt: sprtOf(spec, rows),
    terminations,
  };
}
