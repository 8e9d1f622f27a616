// Expands one meeting (a table of agents in base seat order) into its games (§3). When the number of games is a
// multiple of the seat count, games come in pairs/sets: the same opening played once per cyclic seat rotation, so
// every agent takes every seat on it. Otherwise each game gets its own opening and the rotation still advances,
// spreading seats as evenly as the count allows.
import { openingSeed } from './seeds.js';
import type { ScheduledGame } from './types.js';

export interface MeetingPlan {
  challenge: string;
  round: number;
  pairingIndex: number;
  /** Agents in the seat order of the meeting's first game. */
  table: readonly number[];
  gamesPerPairing: number;
  /** First opening number to use (knockout tie-breaks continue after the regular openings). */
  firstOpening?: number;
}

/** `table` rotated left by `shift`: seat i gets table[(i + shift) mod n]. */
export function rotateSeats(table: readonly number[], shift: number): number[] {
  const n = table.length;
  return table.map((_, i) => table[(i + shift) % n] as number);
}

/** Whether a meeting of `gamesPerPairing` games on `seatCount` seats is played as pairs/sets. */
export function isPaired(gamesPerPairing: number, seatCount: number): boolean {
  return seatCount > 1 && gamesPerPairing % seatCount === 0;
}

export function* meetingGames(plan: MeetingPlan, runSeed: string, firstGameIndex: number): Generator<ScheduledGame> {
  const n = plan.table.length;
  const first = plan.firstOpening ?? 0;
  let gameIndex = firstGameIndex;
  const base = { round: plan.round, pairingIndex: plan.pairingIndex, challenge: plan.challenge };
  if (isPaired(plan.gamesPerPairing, n)) {
    const sets = plan.gamesPerPairing / n;
    for (let s = 0; s < sets; s++) {
      const opening = first + s;
      const seed = openingSeed(runSeed, plan.challenge, plan.round, plan.pairingIndex, opening);
      const head = gameIndex;
      for (let shift = 0; shift < n; shift++) {
        const game: ScheduledGame = { gameIndex, ...base, seats: rotateSeats(plan.table, shift), seed, setSize: n, opening };
        if (shift > 0) game.swapOf = head;
        yield game;
        gameIndex++;
      }
    }
    return;
  }
  for (let k = 0; k < plan.gamesPerPairing; k++) {
    const opening = first + k;
    const seed = openingSeed(runSeed, plan.challenge, plan.round, plan.pairingIndex, opening);
    yield { gameIndex, ...base, seats: rotateSeats(plan.table, k % n), seed, setSize: 1, opening };
    gameIndex++;
  }
}
