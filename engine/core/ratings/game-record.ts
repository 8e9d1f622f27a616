// The per-game input of every rating function: who sat where, how the game ended and the placements. Produced
// by the executor from a ScheduledGame plus the challenge's result.
import type { Termination } from './termination.js';

export interface SeatScore {
  security: number;
  utility: number;
}

export interface GameRecord {
  gameIndex: number;
  challenge: string;
  /** Agent index per seat. */
  seats: readonly number[];
  /** gameIndex of the first game of this game's pair/set (absent on that game and on unpaired games). */
  swapOf?: number;
  /** Games in the pair/set; 1 (or absent) for an unpaired game. */
  setSize?: number;
  termination: Termination;
  /** Seats at fault when the termination is an agent fault. */
  faultedSeats?: readonly number[];
  /** Placement per seat, 1 = best, equal numbers tie. Required for completed/adjudicated games. */
  placements?: readonly number[];
  /** Team per seat for team games; seats of one team are never compared with each other (§7.2). */
  teams?: readonly number[];
  /** SpecArena security/utility per seat, when the challenge reports them. */
  scores?: readonly SeatScore[];
}

/** Pairs and sets are one unit (§3); unit keys are unique across challenges. */
export function unitKey(game: Pick<GameRecord, 'challenge' | 'gameIndex' | 'swapOf'>): string {
  return `${game.challenge}#${game.swapOf ?? game.gameIndex}`;
}
