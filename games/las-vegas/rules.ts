// Claw Vegas (`las_vegas`): 3–5 players (4 by default), fully public dice placement over casinos 1–6 (spec §11.2).
import { createRng } from '../../engine/core/rng.js';
import {
  type ApplyResult,
  clone,
  type DecisionWindow,
  type GameEvent,
  type GameRules,
  type JsonObject,
  type LegalActionSpec,
  readInt,
  readMessage,
  reject,
  type Seat,
  shuffle,
  TABLE_TALK_MAX,
} from '../kit/game.js';
import { VEGAS_STRATEGY, VEGAS_TABLE_TALK_HINT, VEGAS_TIE_RULE, vegasRules } from './briefs.js';

export const DICE_PER_PLAYER = 8;
export const CASINO_FILL_MIN = 50_000;
export const DEFAULT_ROUNDS = 4;
const RECENT_TALK = 8;

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

interface Casino {
  bills: number[];
  /** Dice per seat. */
  dice: number[];
}

interface CasinoSettlement {
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

function rollFor(state: VegasState, seat: number): number[] {
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

function startRound(state: VegasState, round: number): GameEvent[] {
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

function rollEvent(state: VegasState): GameEvent {
  const seat = state.seats[state.current ?? 0] as Seat;
  return {
    type: 'roll',
    visibility: 'public',
    data: { round: state.round, agent_id: seat.agentId, name: seat.name, roll: [...state.roll] },
  };
}

function settleRound(state: VegasState): GameEvent {
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

function diceByAgent(state: VegasState, casino: Casino): JsonObject {
  const out: JsonObject = {};
  casino.dice.forEach((n, seat) => {
    if (n > 0) out[String((state.seats[seat] as Seat).agentId)] = n;
  });
  return out;
}

function moneyByAgent(state: VegasState): JsonObject {
  const out: JsonObject = {};
  state.seats.forEach((s, i) => {
    out[String(s.agentId)] = state.money[i] ?? 0;
  });
  return out;
}

/** Seats ranked: most money, then most bills won, then lowest slot. */
function ranking(state: VegasState): number[] {
  return state.seats
    .map((_, i) => i)
    .sort((a, b) => (state.money[b] ?? 0) - (state.money[a] ?? 0) || (state.billsWon[b] ?? 0) - (state.billsWon[a] ?? 0) || a - b);
}

function nextSeatWithDice(state: VegasState, after: number): number | null {
  const order = state.turnOrder;
  const at = order.indexOf(after);
  for (let k = 1; k <= order.length; k++) {
    const seat = order[(at + k) % order.length] as number;
    if ((state.remaining[seat] ?? 0) > 0) return seat;
  }
  return null;
}

function facesAvailable(state: VegasState, seat: number): JsonObject[] {
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

function byName(state: VegasState, values: readonly number[]): JsonObject {
  const out: JsonObject = {};
  state.seats.forEach((s, i) => {
    out[s.name] = values[i] ?? 0;
  });
  return out;
}

function recentTalk(state: VegasState): JsonObject[] {
  return state.talk.slice(-RECENT_TALK).map((t) => ({
    agent_id: (state.seats[t.seat] as Seat).agentId,
    player_name: (state.seats[t.seat] as Seat).name,
    round: t.round,
    message: t.message,
  }));
}

function legalActions(state: VegasState, seat: number): LegalActionSpec[] {
  if (state.finished || state.current !== seat) return [];
  const faces = [...new Set(state.roll)].sort((a, b) => a - b);
  const fallback = mostRolledFace(state.roll);
  return [
    {
      action: 'place',
      description: 'Choose one face from your roll: all your dice showing it go to the casino with that number for the rest of the round.',
      params: { face: 'int (must be one of faces_available)', message: `string (optional table talk, max ${TABLE_TALK_MAX} chars)` },
      params_schema: {
        type: 'object',
        required: ['face'],
        properties: { face: { type: 'integer', enum: faces }, message: { type: 'string', maxLength: TABLE_TALK_MAX } },
        additionalProperties: true,
      },
      hint: {
        your_roll: [...state.roll],
        faces_available: facesAvailable(state, seat),
        tie_rule: VEGAS_TIE_RULE,
        dice_remaining_by_player: byName(state, state.remaining),
        money_by_player: byName(state, state.money),
        table_talk: VEGAS_TABLE_TALK_HINT,
        recent_table_talk: recentTalk(state),
        server_fallback: { params: { face: fallback }, behavior: 'Place the face you rolled most often (ties: the higher face).' },
      },
    },
  ];
}

function applyPlace(state: VegasState, seat: number, params: Record<string, unknown>): ApplyResult<VegasState> {
  const face = readInt(params, 'face');
  if (!face.ok) return face;
  const message = readMessage(params, TABLE_TALK_MAX);
  if (!message.ok) return message;
  const faces = [...new Set(state.roll)].sort((a, b) => a - b);
  if (!faces.includes(face.value)) {
    return reject('invalid_params', `face ${face.value} is not in your roll`, {
      field: 'face',
      invalid_value: face.value,
      allowed_values: faces,
    });
  }
  const next = clone(state);
  const count = next.roll.filter((d) => d === face.value).length;
  const casino = next.casinos[face.value - 1] as Casino;
  casino.dice[seat] = (casino.dice[seat] ?? 0) + count;
  next.remaining[seat] = (next.remaining[seat] ?? 0) - count;
  if (message.message) next.talk.push({ seat, round: next.round, message: message.message });
  next.step++;
  const me = next.seats[seat] as Seat;
  const placed: JsonObject = { round: next.round, agent_id: me.agentId, name: me.name, face: face.value, casino: face.value, dice: count };
  if (message.message) placed.message = message.message;
  const events: GameEvent[] = [{ type: 'place', visibility: 'public', data: placed }];
  const following = nextSeatWithDice(next, seat);
  if (following !== null) {
    next.current = following;
    next.roll = rollFor(next, following);
    events.push(rollEvent(next));
    return { ok: true, state: next, events };
  }
  events.push(settleRound(next));
  if (next.round < next.rounds) {
    events.push(...startRound(next, next.round + 1));
  } else {
    next.finished = true;
    next.current = null;
    next.roll = [];
    const order = ranking(next);
    events.push({
      type: 'game_over',
      visibility: 'public',
      data: {
        winner_id: (next.seats[order[0] as number] as Seat).agentId,
        standings: order.map((s, i) => ({
          agent_id: (next.seats[s] as Seat).agentId,
          name: (next.seats[s] as Seat).name,
          placement: i + 1,
          money: next.money[s] ?? 0,
          bills_won: next.billsWon[s] ?? 0,
        })),
      },
    });
  }
  return { ok: true, state: next, events };
}

function players(state: VegasState): JsonObject {
  const out: JsonObject = {};
  state.seats.forEach((s, i) => {
    out[String(s.agentId)] = {
      agent_id: s.agentId,
      name: s.name,
      slot: i,
      dice_remaining: state.remaining[i] ?? 0,
      money: state.money[i] ?? 0,
      bills_won: state.billsWon[i] ?? 0,
    };
  });
  return out;
}

function publicView(state: VegasState): JsonObject {
  const winner = state.finished ? (state.seats[ranking(state)[0] as number] as Seat).agentId : null;
  return {
    game_type: 'las_vegas',
    round: state.round,
    total_rounds: state.rounds,
    dice_per_player: DICE_PER_PLAYER,
    casino_fill_min: CASINO_FILL_MIN,
    casinos: state.casinos.map((c, i) => ({ number: i + 1, bills: [...c.bills], dice: diceByAgent(state, c) })),
    players: players(state),
    turn_order: state.turnOrder.map((s) => (state.seats[s] as Seat).agentId),
    current_turn: state.current === null ? null : (state.seats[state.current] as Seat).agentId,
    current_roll: [...state.roll],
    recent_table_talk: recentTalk(state),
    last_round_settlement: (state.settlements.at(-1) ?? null) as unknown as JsonObject | null,
    finished: state.finished,
    winner_id: winner,
  };
}

export const lasVegas: GameRules<VegasState> = {
  gameType: 'las_vegas',
  title: 'Claw Vegas',
  players: { default: 4, min: 3, max: 5 },
  timeouts: { turn: 90_000 },
  actions: ['place'],

  setup(seats, seed, options) {
    if (seats.length < 3 || seats.length > 5) throw new RangeError('Claw Vegas needs 3 to 5 players');
    const rounds =
      typeof options.rounds === 'number' && Number.isInteger(options.rounds) && options.rounds >= 1 && options.rounds <= 4
        ? options.rounds
        : DEFAULT_ROUNDS;
    const n = seats.length;
    const first = createRng(`${seed}:las_vegas:start`).nextInt(0, n - 1);
    const state: VegasState = {
      seats: seats.map((s) => ({ ...s })),
      seed,
      rounds,
      round: 0,
      casinos: [],
      remaining: Array<number>(n).fill(0),
      money: Array<number>(n).fill(0),
      billsWon: Array<number>(n).fill(0),
      turnOrder: [first],
      current: null,
      roll: [],
      step: 0,
      talk: [],
      settlements: [],
      finished: false,
    };
    const events = startRound(state, 1);
    return { state, events };
  },

  window(state): DecisionWindow | null {
    if (state.finished || state.current === null) return null;
    return { kind: 'turn', key: `turn:${state.step}`, actors: [state.current], waiting: [state.current], timeout: 'turn' };
  },

  legalActions,

  apply(state, seat, action, params) {
    if (state.finished) return reject('no_active_match', 'the game is over');
    if (state.current !== seat) return reject('not_your_turn', 'it is not your turn');
    if (action === 'place') return applyPlace(state, seat, params);
    return reject('unknown_action', `unknown action ${action}`, { field: 'action', allowed_values: ['place'] });
  },

  defaultMove(state) {
    return { action: 'place', params: { face: mostRolledFace(state.roll) } };
  },

  project(state, seat) {
    const me = state.seats[seat] as Seat;
    const mine = state.current === seat;
    return {
      ...publicView(state),
      my_agent_id: me.agentId,
      my_name: me.name,
      your_roll: mine ? [...state.roll] : [],
      your_dice_remaining: state.remaining[seat] ?? 0,
      your_money: state.money[seat] ?? 0,
      your_bills_won: state.billsWon[seat] ?? 0,
    };
  },

  spectate: publicView,

  briefs(state) {
    return { rules: vegasRules(state.seats.length, state.rounds), strategy: VEGAS_STRATEGY };
  },

  outcome(state) {
    if (!state.finished) return null;
    const order = ranking(state);
    const placements = Array<number>(state.seats.length).fill(0);
    order.forEach((seat, i) => {
      placements[seat] = i + 1;
    });
    return { placements, winners: [order[0] as number], reason: 'rounds_complete' };
  },

  summary(state) {
    const order = ranking(state);
    return {
      game_type: 'las_vegas',
      rounds: state.rounds,
      settlements: state.settlements as unknown as JsonObject[],
      final_money: moneyByAgent(state),
      standings: order.map((s, i) => ({
        agent_id: (state.seats[s] as Seat).agentId,
        name: (state.seats[s] as Seat).name,
        slot: s,
        placement: i + 1,
        money: state.money[s] ?? 0,
        bills_won: state.billsWon[s] ?? 0,
      })),
    };
  },
};
