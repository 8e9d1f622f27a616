// Claw Vegas rounds: starting, rolling and settling a round, and the facts the views and hints share.
import type { GameEvent, JsonObject, Seat } from '../kit/game.js';
import {
  type Casino,
  type CasinoSettlement,
  DICE_PER_PLAYER,
  dealCasinos,
  RECENT_TALK,
  rollFor,
  settleCasino,
  type VegasState,
} from './state.js';

export function startRound(state: VegasState, round: number): GameEvent[] {
  const n = state.seats.length;
  state.round = round;
  state.casinos = dealCasinos(state.seed, round).map((bills) => ({ bills, dice: Array<number>(n).fill(0) }));
  state.remaining = Array<number>(n).fill(DICE_PER_PLAYER);
  // Round 1 starts with the seat drawn at setup; each later round starts one seat further on.
  const previous = state.turnOrder[0] ?? 0;
  const start = round === 1 ? previous : (previous + 1) % n;
  state.turnOrder = Array.from({ length: n }, (_, i) => (start + i) % n);
  state.current = start;
  state.roll = rollFor(state, start);
  const first = state.seats[start] as Seat;
  return [
    {
      type: 'round_start',
      visibility: 'public',
      data: {
        round,
        start_player: first.agentId,
        start_player_name: first.name,
        casinos: state.casinos.map((c, i) => ({ number: i + 1, bills: [...c.bills] })),
      },
    },
    rollEvent(state),
  ];
}

export function rollEvent(state: VegasState): GameEvent {
  const seat = state.seats[state.current ?? 0] as Seat;
  return {
    type: 'roll',
    visibility: 'public',
    data: { round: state.round, agent_id: seat.agentId, name: seat.name, roll: [...state.roll] },
  };
}

export function settleRound(state: VegasState): GameEvent {
  const casinos: CasinoSettlement[] = state.casinos.map((casino, i) => {
    const { payouts, cancelled, discarded } = settleCasino(casino.bills, casino.dice);
    for (const [seat, bill] of payouts) {
      state.money[seat] = (state.money[seat] ?? 0) + bill;
      state.billsWon[seat] = (state.billsWon[seat] ?? 0) + 1;
    }
    return {
      number: i + 1,
      bills: [...casino.bills],
      dice: diceByAgent(state, casino),
      cancelled: cancelled.map((s) => (state.seats[s] as Seat).agentId),
      payouts: [...payouts].map(([seat, bill]) => ({ agent_id: (state.seats[seat] as Seat).agentId, bill })),
      discarded,
    };
  });
  state.settlements.push({ round: state.round, casinos });
  return {
    type: 'round_settled',
    visibility: 'public',
    data: { round: state.round, casinos: casinos as unknown as JsonObject[], money: moneyByAgent(state) },
  };
}

export function diceByAgent(state: VegasState, casino: Casino): JsonObject {
  const out: JsonObject = {};
  casino.dice.forEach((n, seat) => {
    if (n > 0) out[String((state.seats[seat] as Seat).agentId)] = n;
  });
  return out;
}

export function moneyByAgent(state: VegasState): JsonObject {
  const out: JsonObject = {};
  state.seats.forEach((s, i) => {
    out[String(s.agentId)] = state.money[i] ?? 0;
  });
  return out;
}

/** Seats ranked: most money, then most bills won, then lowest slot. */
export function ranking(state: VegasState): number[] {
  return state.seats
    .map((_, i) => i)
    .sort((a, b) => (state.money[b] ?? 0) - (state.money[a] ?? 0) || (state.billsWon[b] ?? 0) - (state.billsWon[a] ?? 0) || a - b);
}

export function nextSeatWithDice(state: VegasState, after: number): number | null {
  const order = state.turnOrder;
  const at = order.indexOf(after);
  for (let k = 1; k <= order.length; k++) {
    const seat = order[(at + k) % order.length] as number;
    if ((state.remaining[seat] ?? 0) > 0) return seat;
  }
  return null;
}

export function facesAvailable(state: VegasState, seat: number): JsonObject[] {
  const faces = [...new Set(state.roll)].sort((a, b) => a - b);
  return faces.map((face) => {
    const casino = state.casinos[face - 1] as Casino;
    const rivals: JsonObject = {};
    casino.dice.forEach((n, s) => {
      // The actor is left out: the starter kit counts every entry here as a rival.
      if (n > 0 && s !== seat) rivals[(state.seats[s] as Seat).name] = n;
    });
    return {
      face,
      casino: face,
      dice_you_would_place: state.roll.filter((d) => d === face).length,
      your_dice_already_there: casino.dice[seat] ?? 0,
      casino_bills: [...casino.bills],
      casino_dice_by_player: rivals,
    };
  });
}

/** The timeout default: the most-rolled face, ties toward the higher face. */
export function mostRolledFace(roll: readonly number[]): number {
  let best = 0;
  let bestCount = 0;
  for (let face = 6; face >= 1; face--) {
    const count = roll.filter((d) => d === face).length;
    if (count > bestCount) {
      best = face;
      bestCount = count;
    }
  }
  return best;
}

export function byName(state: VegasState, values: readonly number[]): JsonObject {
  const out: JsonObject = {};
  state.seats.forEach((s, i) => {
    out[s.name] = values[i] ?? 0;
  });
  return out;
}

export function recentTalk(state: VegasState): JsonObject[] {
  return state.talk.slice(-RECENT_TALK).map((t) => ({
    agent_id: (state.seats[t.seat] as Seat).agentId,
    player_name: (state.seats[t.seat] as Seat).name,
    round: t.round,
    message: t.message,
  }));
}
