// Which finished games enter the statistics (§3, §8), decided in one place: void games (harness, external or operator
// fault) never do, and a pair/set counts only when all of its seat orders have a rated game, so a replay completes it
// and a set whose replays ran out drops out whole. The tally (tally.ts) applies the rule as games arrive and keeps
// the incomplete units; every other reading (the standings' note, report.md, report.json, games.csv, `arena verify`)
// is derived from that tally through the functions below.
import { type GameRecord, unitKey } from './game-record.js';
import { addRatedGame, emptyRatingsTally, type RatingsTally } from './tally.js';
import { isRated } from './termination.js';

/** Why a finished game is not rated. */
export const UNRATED_REASONS = ['void', 'incomplete_set', 'repeated_seat_order'] as const;
export type UnratedReason = (typeof UNRATED_REASONS)[number];

/** The rule in words, printed beside every count of rated games. */
export const RATED_GAMES_RULE =
  'A seat-swapped pair or seat-rotation set is rated only once every one of its games has finished, so no agent gains from a seat order the others did not get; void games (a harness, network or operator fault) are never rated.';

/**
 * Reads, game by game in commit order, why each is or is not rated, given the units the tally left incomplete. One
 * game per seat order of a unit counts (a second game of an order already seen is not counted twice).
 */
export class RatedGameJudge {
  private readonly incomplete: ReadonlySet<string>;
  private readonly seen = new Set<string>();

  constructor(incompleteUnits: Iterable<string>) {
    this.incomplete = new Set(incompleteUnits);
  }

  /** null: rated. */
  reason(game: Pick<GameRecord, 'challenge' | 'gameIndex' | 'swapOf' | 'seats' | 'termination'>): UnratedReason | null {
    if (!isRated(game.termination)) return 'void';
    const key = unitKey(game);
    const order = `${key}|${game.seats.join(',')}`;
    if (this.seen.has(order)) return 'repeated_seat_order';
    this.seen.add(order);
    return this.incomplete.has(key) ? 'incomplete_set' : null;
  }
}

/** Rated games and the finished games left out, by reason. */
export interface RatedGameCounts {
  /** Finished games: rated ones and every one left out below. */
  finished: number;
  rated: number;
  unrated: Record<UnratedReason, number>;
  /** Pairs/sets still missing a game (their finished games are counted in unrated.incomplete_set). */
  incomplete_sets: number;
  /** "12 of 13 finished games rated (1 incomplete set)". */
  text: string;
  /** RATED_GAMES_RULE. */
  rule: string;
}

/** The counts a tally holds; `finishedVoid` is the number of finished (no replay left) void games, kept by the caller. */
export function ratedGameCounts(t: RatingsTally, finishedVoid: number): RatedGameCounts {
  const rated = t.challenges.reduce((a, c) => a + c.games, 0);
  const pending = Object.values(t.pending);
  const held = pending.reduce((a, u) => a + u.games.length, 0);
  const unrated = { void: finishedVoid, incomplete_set: held, repeated_seat_order: t.added - rated - held };
  const counts = { finished: rated + unrated.void + held + unrated.repeated_seat_order, rated, unrated, incomplete_sets: pending.length };
  return { ...counts, text: ratedGamesText(counts), rule: RATED_GAMES_RULE };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** "13 of 13 finished games rated", "12 of 13 finished games rated (1 incomplete set)", "9 of 14 … (2 void, 3 in 1 incomplete set)". */
export function ratedGamesText(c: Omit<RatedGameCounts, 'text' | 'rule'>): string {
  const why: string[] = [];
  if (c.unrated.void > 0) why.push(`${c.unrated.void} void`);
  if (c.unrated.incomplete_set > 0)
    why.push(
      c.unrated.incomplete_set === c.incomplete_sets
        ? plural(c.incomplete_sets, 'incomplete set')
        : `${c.unrated.incomplete_set} in ${plural(c.incomplete_sets, 'incomplete set')}`,
    );
  if (c.unrated.repeated_seat_order > 0) why.push(`${c.unrated.repeated_seat_order} repeating a seat order`);
  const head = `${c.rated} of ${plural(c.finished, 'finished game')} rated`;
  return why.length > 0 ? `${head} (${why.join(', ')})` : head;
}

export interface RatingPartition<T extends GameRecord> {
  /** Games that enter the statistics, in input order. */
  rated: T[];
  /** Games with a harness, external or operator fault. */
  voided: T[];
  /** Unit keys of pairs/sets left incomplete (their rated games are held back). */
  incompleteUnits: string[];
}

/** The same rule over a list of games: the tally of the rated ones, then each game judged against it. */
export function partitionForRatings<T extends GameRecord>(games: readonly T[]): RatingPartition<T> {
  const agents = 1 + Math.max(0, ...games.flatMap((g) => g.seats));
  const t = emptyRatingsTally(agents);
  for (const game of games) if (isRated(game.termination)) addRatedGame(t, game);
  const incompleteUnits = Object.keys(t.pending);
  const judge = new RatedGameJudge(incompleteUnits);
  const rated = games.filter((g) => judge.reason(g) === null);
  return { rated, voided: games.filter((g) => !isRated(g.termination)), incompleteUnits };
}

/** The games statistics may use: harness-faulted (void) games and incomplete pairs/sets removed. */
export function countsForRatings<T extends GameRecord>(games: readonly T[]): T[] {
  return partitionForRatings(games).rated;
}
