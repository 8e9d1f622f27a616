// The Clawpoly match state (plain JSON), its setup from the seed, money movement through one ledger, and net worth.
import { createRng } from '../../engine/core/rng.js';
import type { GameEvent, Seat } from '../kit/game.js';
import { shuffle } from '../kit/game.js';
import { BOARD_SIZE, type ColorGroup, DEED_INDEXES, groupMembers, HOTEL, isDeed, mortgageValue, START_CASH, space } from './board.js';
import { DECKS, type DeckName } from './cards.js';

export type Phase = 'turn' | 'buy' | 'trade_response' | 'debt' | 'finished';

export interface Trade {
  from: number;
  to: number;
  offerCash: number;
  offerSpaces: number[];
  offerJailCards: number;
  requestCash: number;
  requestSpaces: number[];
  requestJailCards: number;
  /** 0 for a fresh proposal, 1 for a counter. */
  depth: number;
  message: string | null;
}

export interface Debt {
  /** Creditor seat, or null for the bank. */
  creditor: number | null;
  amount: number;
  reason: string;
}

export interface MonopolyState {
  seats: Seat[];
  seed: string;
  maxTurns: number;
  cash: number[];
  /** What the bank has paid out minus what it received: sum(cash) - bankFlow is constant. */
  bankFlow: number;
  position: number[];
  inJail: boolean[];
  jailRolls: number[];
  jailCards: number[];
  bankrupt: boolean[];
  owner: (number | null)[];
  /** Improvement units per space (5 = hotel). */
  houses: number[];
  mortgaged: boolean[];
  decks: Record<DeckName, number[]>;
  current: number;
  phase: Phase;
  rolled: boolean;
  doubles: number;
  extraRoll: boolean;
  lastRoll: [number, number] | null;
  pendingSpace: number | null;
  debt: Debt | null;
  /** A move still owed after a forced lockup bail was settled. */
  pendingMove: number | null;
  trade: Trade | null;
  tradeBlocks: { blocker: number; proposer: number }[];
  tradesThisTurn: number;
  chatsThisWindow: number;
  completedTurns: number;
  turnNumber: number;
  /** Counts every applied action: the decision-window key and the dice stream. */
  step: number;
  events: { type: string; [key: string]: unknown }[];
  openingDeal: { type: string; [key: string]: unknown }[];
  chat: { agent_id: number; name: string; message: string; turn_number: number }[];
  /** Entries ever appended to `events` and `chat` (both keep only the latest): the cursors of snapshot=slim. */
  eventCount?: number;
  chatCount?: number;
  finished: boolean;
  finishReason: string | null;
  winner: number | null;
  bankruptcies: { agent_id: number; creditor_id: number | null; turn_number: number }[];
  propertyChanges: { space_id: number; from: number | null; to: number | null; how: string; turn_number: number }[];
}

export const DEFAULT_MAX_TURNS = 150;
export const OPENING_DEEDS = 3;
export const RECENT_EVENTS = 20;

export function setupState(
  seats: readonly Seat[],
  seed: string,
  options: Record<string, unknown>,
): { state: MonopolyState; events: GameEvent[] } {
  const n = seats.length;
  const rng = createRng(`${seed}:monopoly:setup`);
  const maxTurns = typeof options.max_turns === 'number' && options.max_turns >= 1 ? Math.floor(options.max_turns) : DEFAULT_MAX_TURNS;
  const opening = typeof options.opening_deeds === 'number' ? Math.max(0, Math.min(5, Math.floor(options.opening_deeds))) : OPENING_DEEDS;
  const state: MonopolyState = {
    seats: seats.map((s) => ({ ...s })),
    seed,
    maxTurns,
    cash: Array<number>(n).fill(START_CASH),
    bankFlow: 0,
    position: Array<number>(n).fill(0),
    inJail: Array<boolean>(n).fill(false),
    jailRolls: Array<number>(n).fill(0),
    jailCards: Array<number>(n).fill(0),
    bankrupt: Array<boolean>(n).fill(false),
    owner: Array<number | null>(BOARD_SIZE).fill(null),
    houses: Array<number>(BOARD_SIZE).fill(0),
    mortgaged: Array<boolean>(BOARD_SIZE).fill(false),
    decks: {
      chance: shuffle([...DECKS.chance.keys()], rng.next),
      community_chest: shuffle([...DECKS.community_chest.keys()], rng.next),
    },
    current: 0,
    phase: 'turn',
    rolled: false,
    doubles: 0,
    extraRoll: false,
    lastRoll: null,
    pendingSpace: null,
    debt: null,
    pendingMove: null,
    trade: null,
    tradeBlocks: [],
    tradesThisTurn: 0,
    chatsThisWindow: 0,
    completedTurns: 0,
    turnNumber: 1,
    step: 0,
    events: [],
    openingDeal: [],
    chat: [],
    eventCount: 0,
    chatCount: 0,
    finished: false,
    finishReason: null,
    winner: null,
    bankruptcies: [],
    propertyChanges: [],
  };
  const events: GameEvent[] = [];
  log(state, events, { type: 'game_start', players: state.seats.map((s) => ({ agent_id: s.agentId, name: s.name })) });
  // Project decision (as upstream's fixture shows): each player is dealt a few free deeds so trades matter early.
  const deck = shuffle(DEED_INDEXES, rng.next);
  for (let seat = 0; seat < n; seat++) {
    const deeds = deck.splice(0, opening);
    for (const d of deeds) {
      state.owner[d] = seat;
      state.propertyChanges.push({ space_id: d, from: null, to: seat, how: 'opening_deal', turn_number: 0 });
    }
    const seatInfo = state.seats[seat] as Seat;
    const event = {
      type: 'opening_deal',
      agent_id: seatInfo.agentId,
      player_name: seatInfo.name,
      deeds: deeds.map((d) => ({
        space_id: d,
        space_name: space(d).name,
        space_type: space(d).type,
        color_group: space(d).group,
        price: space(d).price,
      })),
    };
    state.openingDeal.push(event);
    log(state, events, event);
  }
  log(state, events, { type: 'opening_deal_complete', turn_number: 1 });
  return { state, events };
}

/**
 * The copy `apply` changes (the kit's JSON round trip was most of a move's cost). Every array and record the rules
 * change is copied; log entries and seat records are shared, as nothing changes them once written.
 */
export function cloneState(s: MonopolyState): MonopolyState {
  return {
    ...s,
    seats: s.seats.slice(),
    cash: s.cash.slice(),
    position: s.position.slice(),
    inJail: s.inJail.slice(),
    jailRolls: s.jailRolls.slice(),
    jailCards: s.jailCards.slice(),
    bankrupt: s.bankrupt.slice(),
    owner: s.owner.slice(),
    houses: s.houses.slice(),
    mortgaged: s.mortgaged.slice(),
    decks: { chance: s.decks.chance.slice(), community_chest: s.decks.community_chest.slice() },
    lastRoll: s.lastRoll ? [s.lastRoll[0], s.lastRoll[1]] : null,
    debt: s.debt ? { ...s.debt } : null,
    trade: s.trade ? { ...s.trade, offerSpaces: s.trade.offerSpaces.slice(), requestSpaces: s.trade.requestSpaces.slice() } : null,
    tradeBlocks: s.tradeBlocks.slice(),
    events: s.events.slice(),
    openingDeal: s.openingDeal.slice(),
    chat: s.chat.slice(),
    bankruptcies: s.bankruptcies.slice(),
    propertyChanges: s.propertyChanges.slice(),
  };
}

/** Records an event in the recent list and as a public game event. */
export function log(state: MonopolyState, events: GameEvent[], data: { type: string; [key: string]: unknown }): void {
  state.events.push(data);
  state.eventCount = (state.eventCount ?? state.events.length - 1) + 1;
  if (state.events.length > RECENT_EVENTS) state.events.splice(0, state.events.length - RECENT_EVENTS);
  const { type, ...rest } = data;
  events.push({ type, visibility: 'public', data: JSON.parse(JSON.stringify(rest)) });
}

export function agentOf(state: MonopolyState, seat: number): number {
  return (state.seats[seat] as Seat).agentId;
}

export function seatOfAgent(state: MonopolyState, agentId: number): number {
  return state.seats.findIndex((s) => s.agentId === agentId);
}

/** Moves money between seats or the bank (null); the only place cash changes. */
export function transfer(state: MonopolyState, from: number | null, to: number | null, amount: number): void {
  if (amount <= 0) return;
  if (from === null) state.bankFlow += amount;
  else state.cash[from] = (state.cash[from] ?? 0) - amount;
  if (to === null) state.bankFlow -= amount;
  else state.cash[to] = (state.cash[to] ?? 0) + amount;
}

export function ownsFullSet(state: MonopolyState, seat: number, group: ColorGroup): boolean {
  return groupMembers(group).every((i) => state.owner[i] === seat);
}

export function groupHasBuildings(state: MonopolyState, index: number): boolean {
  const g = space(index).group;
  return g !== null && groupMembers(g).some((i) => (state.houses[i] ?? 0) > 0);
}

export function deedsOf(state: MonopolyState, seat: number): number[] {
  return state.owner.flatMap((o, i) => (o === seat ? [i] : []));
}

export function activeSeats(state: MonopolyState): number[] {
  return state.seats.flatMap((_, i) => (state.bankrupt[i] ? [] : [i]));
}

/** Spec §11.4: cash + price of unmortgaged deeds + mortgage value of mortgaged ones + half the house cost per unit. */
export function netWorth(state: MonopolyState, seat: number): number {
  let worth = state.cash[seat] ?? 0;
  for (const i of deedsOf(state, seat)) {
    const s = space(i);
    worth += state.mortgaged[i] ? mortgageValue(i) : (s.price ?? 0);
    worth += Math.floor(((s.houseCost ?? 0) * (state.houses[i] ?? 0)) / 2);
  }
  return worth;
}

export function isHotel(state: MonopolyState, index: number): boolean {
  return (state.houses[index] ?? 0) === HOTEL;
}

export { isDeed };
