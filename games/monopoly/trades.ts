// Trades: cash, deeds and lockup cards between two players; deeds in a color set with buildings cannot move.
import type { ActionRejection, GameEvent, JsonObject } from '../kit/game.js';
import { isDeed, space } from './board.js';
import { agentOf, groupHasBuildings, log, type MonopolyState, type Trade, transfer } from './state.js';

export const MAX_TRADES_PER_TURN = 3;

const fail = (code: string, message: string, field?: string): ActionRejection => ({ code, message, ...(field ? { field } : {}) });

function deedProblem(state: MonopolyState, seat: number, ids: number[], field: string): ActionRejection | null {
  if (new Set(ids).size !== ids.length) return fail('invalid_params', `${field} has duplicates`, field);
  for (const id of ids) {
    if (!isDeed(id)) return fail('invalid_space', `space ${id} is not a deed`, field);
    if (state.owner[id] !== seat) return fail('not_owned', `${space(id).name} does not belong to that player`, field);
    if (groupHasBuildings(state, id)) return fail('has_buildings', `${space(id).name}'s set carries buildings; sell them first`, field);
  }
  return null;
}

/** Why `trade` cannot execute in the current state, or null. */
export function tradeProblem(state: MonopolyState, trade: Trade): ActionRejection | null {
  const { from, to } = trade;
  if (from === to) return fail('invalid_trade', 'you cannot trade with yourself', 'to_agent_id');
  if (to < 0 || to >= state.seats.length || state.bankrupt[to]) return fail('invalid_trade', 'no such active player', 'to_agent_id');
  const amounts = [trade.offerCash, trade.requestCash, trade.offerJailCards, trade.requestJailCards];
  if (amounts.some((a) => !Number.isInteger(a) || a < 0)) return fail('invalid_params', 'cash and card counts must be integers >= 0');
  const empty = amounts.every((a) => a === 0) && trade.offerSpaces.length === 0 && trade.requestSpaces.length === 0;
  if (empty) return fail('empty_trade', 'a trade must move something');
  if (trade.offerCash > (state.cash[from] ?? 0)) return fail('insufficient_cash', 'the offering side lacks that cash', 'offer_cash');
  if (trade.requestCash > (state.cash[to] ?? 0)) return fail('insufficient_cash', 'the other side lacks that cash', 'request_cash');
  if (trade.offerJailCards > (state.jailCards[from] ?? 0))
    return fail('insufficient_cards', 'not enough lockup cards to offer', 'offer_jail_cards');
  if (trade.requestJailCards > (state.jailCards[to] ?? 0))
    return fail('insufficient_cards', 'they hold fewer lockup cards', 'request_jail_cards');
  return deedProblem(state, from, trade.offerSpaces, 'offer_space_ids') ?? deedProblem(state, to, trade.requestSpaces, 'request_space_ids');
}

export function executeTrade(state: MonopolyState, events: GameEvent[], trade: Trade): void {
  const { from, to } = trade;
  transfer(state, from, to, trade.offerCash);
  transfer(state, to, from, trade.requestCash);
  for (const id of trade.offerSpaces) {
    state.owner[id] = to;
    state.propertyChanges.push({ space_id: id, from, to, how: 'trade', turn_number: state.turnNumber });
  }
  for (const id of trade.requestSpaces) {
    state.owner[id] = from;
    state.propertyChanges.push({ space_id: id, from: to, to: from, how: 'trade', turn_number: state.turnNumber });
  }
  state.jailCards[from] = (state.jailCards[from] ?? 0) - trade.offerJailCards + trade.requestJailCards;
  state.jailCards[to] = (state.jailCards[to] ?? 0) + trade.offerJailCards - trade.requestJailCards;
  log(state, events, { type: 'trade_accepted', ...tradeSummary(state, trade) });
}

export function tradeSummary(state: MonopolyState, trade: Trade): JsonObject {
  return {
    from_agent_id: agentOf(state, trade.from),
    to_agent_id: agentOf(state, trade.to),
    offer_cash: trade.offerCash,
    offer_space_ids: [...trade.offerSpaces],
    offer_spaces: trade.offerSpaces.map((i) => space(i).name),
    offer_jail_cards: trade.offerJailCards,
    request_cash: trade.requestCash,
    request_space_ids: [...trade.requestSpaces],
    request_spaces: trade.requestSpaces.map((i) => space(i).name),
    request_jail_cards: trade.requestJailCards,
    is_counter: trade.depth > 0,
    message: trade.message,
  };
}

export function isBlocked(state: MonopolyState, proposer: number, target: number): boolean {
  return state.tradeBlocks.some((b) => b.blocker === target && b.proposer === proposer);
}
