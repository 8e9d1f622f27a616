// The running totals of a run, folded one committed attempt at a time: the ratings tally (standings, head to head,
// SPRT counts), the chart state, terminations, the audit-warning counts and model spend per agent. Committed with
// each game (game-commit.ts) so standings, SPRT and charts cost the same at game 10 and game 100,000; runStatistics()
// of a list of rows is the same fold, so a report recomputed from its games reads exactly like the live one.
import { addUsageUnit, type UsageSum, type UsageTotals } from '../../contract/usage-line.js';
import {
  addChartGame,
  addRatedGame,
  type ChartTally,
  emptyChartTally,
  emptyRatingsTally,
  type GameRecord,
  isRated,
  type RatingsTally,
  type Termination,
} from '../../core/ratings/index.js';
import type { StoredTournamentGame } from '../../db/store.js';

/** The rating functions' view of a stored attempt. */
export function gameRecord(
  row: Pick<
    StoredTournamentGame,
    'gameIndex' | 'challenge' | 'seats' | 'setSize' | 'termination' | 'swapOf' | 'faultedSeats' | 'placements' | 'scores'
  >,
): GameRecord {
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

/** Attempts a void game may take in all: the first play plus this many replays (§8.1 maxReplays = 2). */
export const MAX_ATTEMPTS = 3;

/** A game is finished (settled) when it has a rated result or used up its replays. */
export function isSettled(row: Pick<StoredTournamentGame, 'termination' | 'attempt'>): boolean {
  return isRated(row.termination as Termination) || row.attempt >= MAX_ATTEMPTS;
}

/** Bumped when the shape or the meaning of the tally changes: a stored tally of another version is rebuilt. */
export const RUN_TALLY_VERSION = 3;

export interface RunTally {
  version: number;
  agentCount: number;
  /** Attempts folded in. */
  attempts: number;
  ratings: RatingsTally;
  chart: ChartTally;
  /** Attempts per termination, in order of first appearance. */
  terminations: Record<string, number>;
  harnessFaults: number;
  /** Finished void games: void on their last allowed attempt (never rated, never replayed). */
  finishedVoid: number;
  /** Per agent: counted (rated) games it sat in, those that ended in its own fault, and those by termination. */
  counted: number[];
  ownFaults: number[];
  ownCauses: Array<Record<string, number>>;
  /** Model spend per agent over every attempt, and per challenge. */
  usage: Array<UsageSum | null>;
  usageByChallenge: Record<string, Array<UsageSum | null>>;
}

export function emptyRunTally(agentCount: number): RunTally {
  return {
    version: RUN_TALLY_VERSION,
    agentCount,
    attempts: 0,
    ratings: emptyRatingsTally(agentCount),
    chart: emptyChartTally(agentCount),
    terminations: {},
    harnessFaults: 0,
    finishedVoid: 0,
    counted: new Array<number>(agentCount).fill(0),
    ownFaults: new Array<number>(agentCount).fill(0),
    ownCauses: Array.from({ length: agentCount }, () => ({})),
    usage: new Array<UsageSum | null>(agentCount).fill(null),
    usageByChallenge: {},
  };
}

type FoldedRow = Pick<
  StoredTournamentGame,
  | 'gameIndex'
  | 'attempt'
  | 'challenge'
  | 'seats'
  | 'setSize'
  | 'swapOf'
  | 'termination'
  | 'fault'
  | 'faultedSeats'
  | 'placements'
  | 'scores'
  | 'usage'
>;

/**
 * Folds one committed attempt in; `previous` is the termination of the attempt it supersedes (a replay of a void
 * game), null for a game's first attempt. Only a game's latest attempt counts, and a rated attempt is always the
 * latest (nothing is replayed after it), so a rated attempt enters the ratings once and for all.
 */
export function foldAttempt(t: RunTally, row: FoldedRow, previous: string | null): void {
  t.attempts++;
  t.terminations[row.termination] = (t.terminations[row.termination] ?? 0) + 1;
  if (row.fault === 'harness') t.harnessFaults++;
  const rated = isRated(row.termination as Termination);
  if (previous !== null && !isRated(previous as Termination)) t.ratings.voided--;
  if (!rated) {
    t.ratings.voided++;
    if (isSettled(row)) t.finishedVoid++;
  } else {
    const record = gameRecord(row);
    addRatedGame(t.ratings, record);
    addChartGame(t.chart, record, t.ratings);
    for (const agent of new Set(row.seats)) {
      if (agent >= t.agentCount) continue;
      t.counted[agent] = (t.counted[agent] as number) + 1;
      if (row.faultedSeats.some((seat) => row.seats[seat] === agent)) {
        t.ownFaults[agent] = (t.ownFaults[agent] as number) + 1;
        const causes = t.ownCauses[agent] as Record<string, number>;
        causes[row.termination] = (causes[row.termination] ?? 0) + 1;
      }
    }
  }
  if (row.usage) {
    const byChallenge = t.usageByChallenge[row.challenge] ?? new Array<UsageSum | null>(t.agentCount).fill(null);
    t.usageByChallenge[row.challenge] = byChallenge;
    row.usage.forEach((raw, seat) => {
      const agent = row.seats[seat];
      if (!raw || agent === undefined || agent >= t.agentCount) return;
      t.usage[agent] = addUsageUnit(t.usage[agent] ?? null, raw as UsageTotals);
      byChallenge[agent] = addUsageUnit(byChallenge[agent] ?? null, raw as UsageTotals);
    });
  }
}

/** The tally of a list of attempts (any order: folded in commit order), e.g. rows recovered from a report. */
export function tallyOfRows(rows: Iterable<StoredTournamentGame>, agentCount: number): RunTally {
  return tallyOfOrderedRows(
    [...rows].sort((a, b) => a.seq - b.seq),
    agentCount,
  );
}

/**
 * The same from a cursor already in commit order (a rebuild from the database, one row in memory at a time). Only
 * games whose latest attempt is void are remembered: a rated attempt is never superseded.
 */
export function tallyOfOrderedRows(rows: Iterable<StoredTournamentGame>, agentCount: number): RunTally {
  const t = emptyRunTally(agentCount);
  const voidLatest = new Map<string, string>();
  for (const row of rows) {
    foldAttempt(t, row, voidLatest.get(row.gameKey) ?? null);
    if (isRated(row.termination as Termination)) voidLatest.delete(row.gameKey);
    else voidLatest.set(row.gameKey, row.termination);
  }
  return t;
}
