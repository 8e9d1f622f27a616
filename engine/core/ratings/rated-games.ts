// Which games enter the statistics (§3, §8): void games (harness, external or operator fault) never do, and a
// pair/set counts only when all of its seat orders have a rated game, so a replay completes it and a set whose
// replays ran out drops out whole.
import { type GameRecord, unitKey } from './game-record.js';
import { isRated } from './termination.js';

export interface RatingPartition<T extends GameRecord> {
  /** Games that enter the statistics, in input order. */
  rated: T[];
  /** Games with a harness, external or operator fault. */
  voided: T[];
  /** Unit keys of pairs/sets left incomplete (their rated games are held back). */
  incompleteUnits: string[];
}

export function partitionForRatings<T extends GameRecord>(games: readonly T[]): RatingPartition<T> {
  const voided: T[] = [];
  const byUnit = new Map<string, { size: number; orders: Map<string, T> }>();
  for (const game of games) {
    if (!isRated(game.termination)) {
      voided.push(game);
      continue;
    }
    const key = unitKey(game);
    const unit = byUnit.get(key) ?? { size: 1, orders: new Map<string, T>() };
    unit.size = Math.max(unit.size, game.setSize ?? 1);
    // One game per seat order: a duplicate commit of the same order is not counted twice.
    const order = game.seats.join(',');
    if (!unit.orders.has(order)) unit.orders.set(order, game);
    byUnit.set(key, unit);
  }
  const keep = new Set<T>();
  const incompleteUnits: string[] = [];
  for (const [key, unit] of byUnit) {
    if (unit.orders.size >= unit.size) for (const game of unit.orders.values()) keep.add(game);
    else incompleteUnits.push(key);
  }
  return { rated: games.filter((g) => keep.has(g)), voided, incompleteUnits };
}

/** The games statistics may use: harness-faulted (void) games and incomplete pairs/sets removed. */
export function countsForRatings<T extends GameRecord>(games: readonly T[]): T[] {
  return partitionForRatings(games).rated;
}
