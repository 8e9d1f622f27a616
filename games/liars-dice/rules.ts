// Liar's Dice ("Sai Jong Dice"), 2 players, one hand: the first challenge ends the match (spec §11.1).
import { createRng } from '../../engine/core/rng.js';
import {
  type ApplyResult,
  type Briefs,
  clone,
  type DecisionWindow,
  type GameRules,
  type JsonObject,
  type LegalActionSpec,
  reject,
  type Seat,
} from '../kit/game.js';
import { paramsHint, paramsSchema, spoken } from '../kit/params.js';
import { LIARS_DICE_RULES, LIARS_DICE_STRATEGY, TABLE_TALK_HINT } from './briefs.js';
import { bidParams, challengeParams, parseBid, parseChallenge } from './params.js';

export const DICE_PER_PLAYER = 5;
const RECENT_TALK = 6;

interface Bid {
  seat: number;
  quantity: number;
  face: number;
  message: string | null;
  auto: boolean;
}

interface Challenge {
  challenger: number;
  bidder: number;
  quantity: number;
  face: number;
  actual: number;
  bidWasTrue: boolean;
  winner: number;
  loser: number;
  message: string | null;
  auto: boolean;
}

export interface LiarsDiceState {
  seats: Seat[];
  dice: number[][];
  firstPlayer: number;
  turn: number;
  /** Accepted actions so far; each one opens a new turn window. */
  step: number;
  bids: Bid[];
  talk: { seat: number; message: string }[];
  challenge: Challenge | null;
}

/** Bidding order 2 < 3 < 4 < 5 < 6 < 1. */
export function faceRank(face: number): number {
  return face === 1 ? 6 : face - 1;
}

export function isHigherBid(quantity: number, face: number, last: { quantity: number; face: number } | null): boolean {
  if (!last) return true;
  return quantity > last.quantity || (quantity === last.quantity && faceRank(face) > faceRank(last.face));
}

/** The smallest bid that beats `last`, or null when nothing does (last was total × 1). */
export function minimumRaise(last: { quantity: number; face: number } | null, total: number): { quantity: number; face: number } | null {
  if (!last) return { quantity: 1, face: 2 };
  if (last.face !== 1) return { quantity: last.quantity, face: last.face === 6 ? 1 : last.face + 1 };
  return last.quantity < total ? { quantity: last.quantity + 1, face: 2 } : null;
}

/** Ones are wild for faces 2–6; a bid on 1 counts only real ones. */
export function countMatching(dice: readonly number[][], face: number): number {
  let n = 0;
  for (const hand of dice) for (const d of hand) if (d === face || (face !== 1 && d === 1)) n++;
  return n;
}

function totalDice(state: LiarsDiceState): number {
  return state.dice.reduce((sum, hand) => sum + hand.length, 0);
}

function lastBid(state: LiarsDiceState): Bid | null {
  return state.bids.at(-1) ?? null;
}

function other(seat: number): number {
  return seat === 0 ? 1 : 0;
}

function recentTalk(state: LiarsDiceState): JsonObject[] {
  return state.talk.slice(-RECENT_TALK).map((t) => ({
    agent_id: state.seats[t.seat]?.agentId ?? null,
    player_name: state.seats[t.seat]?.name ?? '',
    message: t.message,
  }));
}

function bidEntry(state: LiarsDiceState, bid: Bid): JsonObject {
  const seat = state.seats[bid.seat] as Seat;
  const entry: JsonObject = { agent_id: seat.agentId, player_name: seat.name, quantity: bid.quantity, face_value: bid.face };
  if (bid.message) entry.message = bid.message;
  return entry;
}

function legalActions(state: LiarsDiceState, seat: number): LegalActionSpec[] {
  if (state.challenge || state.turn !== seat) return [];
  const total = totalDice(state);
  const last = lastBid(state);
  const talk = recentTalk(state);
  const out: LegalActionSpec[] = [];
  if (last) {
    out.push({
      action: 'challenge',
      description: 'Call LIAR on the standing bid: the dice are revealed and the match is decided.',
      params: paramsHint(challengeParams()),
      params_schema: paramsSchema(challengeParams()),
      hint: {
        table_talk: TABLE_TALK_HINT,
        recent_table_talk: talk,
        server_fallback: { params: {}, behavior: 'Challenge the standing bid.' },
      },
    });
  }
  const raise = minimumRaise(last, total);
  if (raise) {
    const hint: LegalActionSpec['hint'] = {
      same_quantity_raise: 'You may keep the quantity only by naming a higher face in the order 2 < 3 < 4 < 5 < 6 < 1.',
      table_talk: TABLE_TALK_HINT,
      recent_table_talk: talk,
      server_fallback: {
        params: { quantity: raise.quantity, face: raise.face },
        behavior: last ? 'Make the smallest legal raise over the standing bid.' : 'Open with the smallest legal bid.',
      },
    };
    if (!last) hint.min = { quantity: 1, face: 2 };
    else if (last.quantity + 1 <= total) hint.same_face_raise = { quantity: last.quantity + 1, face: last.face };
    out.push({
      action: 'bid',
      description: 'Bid a strictly higher claim about all dice on the table. Face order is 2 < 3 < 4 < 5 < 6 < 1 (1 is highest).',
      params: paramsHint(bidParams(total)),
      params_schema: paramsSchema(bidParams(total)),
      hint,
    });
  }
  return out;
}

function applyBid(state: LiarsDiceState, seat: number, params: Record<string, unknown>, auto: boolean): ApplyResult<LiarsDiceState> {
  const total = totalDice(state);
  const read = parseBid(params, total);
  if (!read.ok) return read;
  const quantity = { value: read.value.quantity };
  const face = { value: read.value.face };
  const message = { message: spoken(read.value.message) };
  const last = lastBid(state);
  if (!isHigherBid(quantity.value, face.value, last)) {
    const min = minimumRaise(last, total);
    return reject(
      'bid_not_higher',
      min
        ? `a bid must beat ${last?.quantity} x ${last?.face}; the smallest legal raise is ${min.quantity} x ${min.face}`
        : 'no bid can beat the standing bid; challenge instead',
      { field: 'quantity', invalid_value: { quantity: quantity.value, face: face.value } },
    );
  }
  const next = clone(state);
  const bid: Bid = { seat, quantity: quantity.value, face: face.value, message: message.message, auto };
  next.bids.push(bid);
  if (message.message) next.talk.push({ seat, message: message.message });
  next.turn = other(seat);
  next.step++;
  return { ok: true, state: next, events: [{ type: 'bid', visibility: 'public', data: bidEntry(next, bid) }] };
}

function applyChallenge(state: LiarsDiceState, seat: number, params: Record<string, unknown>, auto: boolean): ApplyResult<LiarsDiceState> {
  const last = lastBid(state);
  if (!last) return reject('nothing_to_challenge', 'there is no bid to challenge yet; open with a bid');
  const read = parseChallenge(params);
  if (!read.ok) return read;
  const message = { message: spoken(read.value.message) };
  const actual = countMatching(state.dice, last.face);
  const bidWasTrue = actual >= last.quantity;
  const loser = bidWasTrue ? seat : last.seat;
  const next = clone(state);
  next.challenge = {
    challenger: seat,
    bidder: last.seat,
    quantity: last.quantity,
    face: last.face,
    actual,
    bidWasTrue,
    loser,
    winner: other(loser),
    message: message.message,
    auto,
  };
  if (message.message) next.talk.push({ seat, message: message.message });
  next.step++;
  const s = (i: number) => next.seats[i] as Seat;
  const data: JsonObject = {
    challenger_id: s(seat).agentId,
    challenger_name: s(seat).name,
    bidder_id: s(last.seat).agentId,
    bidder_name: s(last.seat).name,
    bid_quantity: last.quantity,
    bid_face: last.face,
    actual_count: actual,
    bid_was_true: bidWasTrue,
    winner_id: s(other(loser)).agentId,
    loser_id: s(loser).agentId,
    all_dice: revealed(next),
  };
  if (message.message) data.message = message.message;
  return {
    ok: true,
    state: next,
    events: [
      { type: 'challenge', visibility: 'public', data },
      { type: 'game_over', visibility: 'public', data: { winner_id: s(other(loser)).agentId, loser_id: s(loser).agentId } },
    ],
  };
}

function revealed(state: LiarsDiceState): JsonObject {
  const out: JsonObject = {};
  state.seats.forEach((seat, i) => {
    out[String(seat.agentId)] = [...(state.dice[i] ?? [])];
  });
  return out;
}

function project(state: LiarsDiceState, seat: number): JsonObject {
  const me = state.seats[seat] as Seat;
  const opp = state.seats[other(seat)] as Seat;
  const last = lastBid(state);
  const lastBidder = last ? (state.seats[last.seat] as Seat) : null;
  const finished = state.challenge !== null;
  const view: JsonObject = {
    game_type: 'liars_dice',
    round: 1,
    round_number: 1,
    my_agent_id: me.agentId,
    my_name: me.name,
    current_turn: finished ? null : (state.seats[state.turn] as Seat).agentId,
    last_bid: last ? { quantity: last.quantity, face: last.face } : null,
    last_bidder_id: lastBidder?.agentId ?? null,
    last_bidder_name: lastBidder?.name ?? null,
    bid_history: state.bids.map((b) => bidEntry(state, b)),
    your_dice: [...(state.dice[seat] ?? [])],
    your_dice_count: state.dice[seat]?.length ?? 0,
    opponent_dice_count: state.dice[other(seat)]?.length ?? 0,
    opponent_agent_id: opp.agentId,
    opponent_name: opp.name,
    total_dice_count: totalDice(state),
    first_player_id: (state.seats[state.firstPlayer] as Seat).agentId,
    recent_table_talk: recentTalk(state),
    finished,
    winner_id: state.challenge ? (state.seats[state.challenge.winner] as Seat).agentId : null,
  };
  if (state.challenge) {
    view.revealed_dice = revealed(state);
    view.challenge_result = challengeResult(state);
  }
  return view;
}

function challengeResult(state: LiarsDiceState): JsonObject | null {
  const c = state.challenge;
  if (!c) return null;
  const s = (i: number) => state.seats[i] as Seat;
  return {
    challenger_id: s(c.challenger).agentId,
    bidder_id: s(c.bidder).agentId,
    bid: { quantity: c.quantity, face: c.face },
    actual_count: c.actual,
    bid_was_true: c.bidWasTrue,
    winner_id: s(c.winner).agentId,
    loser_id: s(c.loser).agentId,
    is_auto: c.auto,
  };
}

export const liarsDice: GameRules<LiarsDiceState> = {
  gameType: 'liars_dice',
  title: "Liar's Dice",
  players: { default: 2, min: 2, max: 2 },
  timeouts: { turn: 60_000 },
  actions: ['bid', 'challenge'],

  setup(seats, seed) {
    if (seats.length !== 2) throw new RangeError("Liar's Dice needs exactly 2 players");
    const rng = createRng(`${seed}:liars_dice:setup`);
    const dice = seats.map(() => Array.from({ length: DICE_PER_PLAYER }, () => rng.nextInt(1, 6)));
    const firstPlayer = rng.nextInt(0, 1);
    const state: LiarsDiceState = {
      seats: seats.map((s) => ({ ...s })),
      dice,
      firstPlayer,
      turn: firstPlayer,
      step: 0,
      bids: [],
      talk: [],
      challenge: null,
    };
    const first = seats[firstPlayer] as Seat;
    return {
      state,
      events: [
        { type: 'hand_start', visibility: 'public', data: { round: 1, first_player: first.agentId, first_player_name: first.name } },
      ],
    };
  },

  window(state): DecisionWindow | null {
    if (state.challenge) return null;
    return { kind: 'turn', key: `turn:${state.step}`, actors: [state.turn], waiting: [state.turn], timeout: 'turn' };
  },

  legalActions,

  apply(state, seat, action, params, auto) {
    if (state.challenge) return reject('no_active_match', 'the hand is over');
    if (seat !== state.turn) return reject('not_your_turn', 'it is not your turn');
    if (action === 'bid') return applyBid(state, seat, params, auto);
    if (action === 'challenge') return applyChallenge(state, seat, params, auto);
    return reject('unknown_action', `unknown action ${action}`, {
      field: 'action',
      allowed_values: legalActions(state, seat).map((a) => a.action),
    });
  },

  defaultMove(state): { action: string; params: JsonObject } {
    return lastBid(state) ? { action: 'challenge', params: {} } : { action: 'bid', params: { quantity: 1, face: 2 } };
  },

  project,

  spectate(state) {
    const view: JsonObject = {
      game_type: 'liars_dice',
      players: state.seats.map((s, i) => ({ agent_id: s.agentId, name: s.name, dice_count: state.dice[i]?.length ?? 0 })),
      current_turn: state.challenge ? null : (state.seats[state.turn] as Seat).agentId,
      bid_history: state.bids.map((b) => bidEntry(state, b)),
      finished: state.challenge !== null,
      winner_id: state.challenge ? (state.seats[state.challenge.winner] as Seat).agentId : null,
    };
    if (state.challenge) {
      view.revealed_dice = revealed(state);
      view.challenge_result = challengeResult(state);
    }
    return view;
  },

  briefs(): Briefs {
    return { rules: LIARS_DICE_RULES, strategy: LIARS_DICE_STRATEGY };
  },

  outcome(state) {
    const c = state.challenge;
    if (!c) return null;
    const placements = [0, 0];
    placements[c.winner] = 1;
    placements[c.loser] = 2;
    return { placements, winners: [c.winner], reason: 'challenge_resolved' };
  },

  summary(state) {
    const last = lastBid(state);
    return {
      game_type: 'liars_dice',
      agents: state.seats.map((s, i) => ({ agent_id: s.agentId, name: s.name, slot: i })),
      first_player_id: (state.seats[state.firstPlayer] as Seat).agentId,
      bids: state.bids.map((b) => ({ ...bidEntry(state, b), is_auto: b.auto })),
      final_bid: last ? { quantity: last.quantity, face: last.face } : null,
      challenge: challengeResult(state),
      revealed_dice: revealed(state),
    };
  },
};
