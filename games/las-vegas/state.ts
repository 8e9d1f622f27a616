// Claw Vegas state: casinos, dice and bills, dealing and settling a casino.
import { createRng } from '../../engine/core/rng.js';
import { type JsonObject, type Seat, shuffle } from '../kit/game.js';

export const DICE_PER_PLAYER = 8;
export const CASINO_FILL_MIN = 50_000;
export const DEFAULT_ROUNDS = 4;
export const RECENT_TALK = 8;

/** Project decision: the classic 54-bill deck. */
export const BILL_DECK: readonly number[] = [
  ...Array<number>(6).fill(10_000),
  ...Array<number>(8).fill(20_000),
  ...Array<number>(8).fill(30_000),
  ...Array<number>(6).fill(40_000),
  ...Array<number>(6).fill(50_000),
  ...Array<number>(5).fill(60_000),
  ...Array<number>(5).fill(70_000),
  ...Array<number>(5).fill(80_000),
  ...Array<number>(5).fill(90_000),
];

export interface Casino {
  bills: number[];
  /** Dice per seat. */
  dice: number[];
}

export interface CasinoSettlement {
  number: number;
  bills: number[];
  dice: JsonObject;
  cancelled: number[];
  payouts: { agent_id: number; bill: number }[];
  discarded: number[];
}

export interface VegasState {
  seats: Seat[];
  seed: string;
  rounds: number;
  round: number;
  casinos: Casino[];
  remaining: number[];
  money: number[];
  billsWon: number[];
  turnOrder: number[];
  /** Seat whose turn it is (null once the game is over). */
  current: number | null;
  roll: number[];
  step: number;
  talk: { seat: number; round: number; message: string }[];
  settlements: { round: number; casinos: CasinoSettlement[] }[];
  finished: boolean;
}

export function dealCasinos(seed: string, round: number): number[][] {
  const rng = createRng(`${seed}:las_vegas:deck:${round}`);
  const deck = shuffle(BILL_DECK, rng.next);
  const casinos: number[][] = [];
  for (let c = 0; c < 6; c++) {
    const bills: number[] = [];
    while (bills.reduce((a, b) => a + b, 0) < CASINO_FILL_MIN) {
      const bill = deck.pop();
      if (bill === undefined) break;
      bills.push(bill);
    }
    casinos.push(bills.sort((a, b) => b - a));
  }
  return casinos;
}

export function rollFor(state: VegasState, seat: number): number[] {
  const rng = createRng(`${state.seed}:las_vegas:roll:${state.round}:${state.step}:${seat}`);
  return Array.from({ length: state.remaining[seat] ?? 0 }, () => rng.nextInt(1, 6)).sort((a, b) => a - b);
}

/** Equal counts cancel; survivors take bills largest first by count, descending. */
export function settleCasino(
  bills: readonly number[],
  dice: readonly number[],
): { payouts: Map<number, number>; cancelled: number[]; discarded: number[] } {
  const counts = new Map<number, number>();
  for (const n of dice) if (n > 0) counts.set(n, (counts.get(n) ?? 0) + 1);
  const cancelled: number[] = [];
  const survivors: number[] = [];
  dice.forEach((n, seat) => {
    if (n <= 0) return;
    if ((counts.get(n) ?? 0) > 1) cancelled.push(seat);
    else survivors.push(seat);
  });
  survivors.sort((a, b) => (dice[b] ?? 0) - (dice[a] ?? 0));
  const sorted = [...bills].sort((a, b) => b - a);
  const payouts = new Map<number, number>();
  survivors.forEach((seat, i) => {
    const bill = sorted[i];
    if (bill !== undefined) payouts.set(seat, bill);
  });
  return { payouts, cancelled, discarded: sorted.slice(survivors.length) };
}
