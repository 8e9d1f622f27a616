// Shapes shared by the schedule generators. Agents are referred to by their index in the tournament
// definition's `agents` list; seats are listed in seat order (seat 0 first).

/** One game as the executor receives it. */
export interface ScheduledGame {
  /** Position in the run's game sequence, from 0; stable for a given definition, seed (and, for swiss/knockout, results). */
  gameIndex: number;
  /** From 1. */
  round: number;
  /** Position of the meeting within its round, from 0 (unique across challenges of the same round). */
  pairingIndex: number;
  /** Agent index per seat. */
  seats: number[];
  /** Environment seed of the opening, derived from the run seed; shared by every game of a pair or set. */
  seed: string;
  /** gameIndex of the first game of this game's pair/set; absent on that first game and on unpaired games. */
  swapOf?: number;
  /** Games in this game's pair/set: the seat count when paired, 1 when the game stands alone. */
  setSize: number;
  /** Opening number within the meeting, from 0 (knockout tie-break pairs continue the count). */
  opening: number;
  challenge: string;
}

/** A challenge as the scheduler needs it: its id and how many seats one game has. */
export interface ChallengeSeats {
  id: string;
  seats: number;
}

/** What the result-dependent formats (swiss, knockout) need to expand a meeting into games. */
export interface MeetingGamesOptions {
  challenges: readonly ChallengeSeats[];
  gamesPerPairing: number;
  seed: string;
}

/** The resampling / rating unit of a scheduled game (§3, §6.3): the first game of its pair or set. */
export function unitOf(game: Pick<ScheduledGame, 'gameIndex' | 'swapOf'>): number {
  return game.swapOf ?? game.gameIndex;
}
