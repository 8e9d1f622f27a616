// Which actions a seat may take now, each with a concrete legal example (the wire's hint.server_fallback).
import type { JsonObject } from '../kit/game.js';
import type { ActionName } from './actions.js';
import { DEED_INDEXES, JAIL_BAIL, space } from './board.js';
import { buildableSpaces, mortgageableSpaces, sellableSpaces, unmortgageableSpaces } from './holdings.js';
import { activeSeats, agentOf, deedsOf, groupHasBuildings, type MonopolyState } from './state.js';
import { isBlocked, MAX_TRADES_PER_TURN } from './trades.js';

export const MAX_CHATS_PER_TURN = 3;

/** The seat that must act now, or null when the game is over. */
export function actor(state: MonopolyState): number | null {
  if (state.finished) return null;
  if (state.phase === 'trade_response') return state.trade?.to ?? null;
  return state.current;
}

export function tradeableDeeds(state: MonopolyState, seat: number): number[] {
  return deedsOf(state, seat).filter((i) => !groupHasBuildings(state, i));
}

export function counterparties(state: MonopolyState, seat: number): number[] {
  return activeSeats(state).filter((s) => s !== seat && !isBlocked(state, seat, s));
}

/** A trade the seat could send: ask a rival for one deed at its price (or for nothing but a probe if short of cash). */
export function probeTrade(state: MonopolyState, seat: number): JsonObject | null {
  for (const other of counterparties(state, seat)) {
    const deed = tradeableDeeds(state, other)[0];
    if (deed === undefined) continue;
    const offer = Math.min(state.cash[seat] ?? 0, space(deed).price ?? 0);
    return { to_agent_id: agentOf(state, other), offer_cash: offer, offer_space_ids: [], request_cash: 0, request_space_ids: [deed] };
  }
  return null;
}

/** Every action legal for `seat` now, with a legal parameter example each. */
export function availableActions(state: MonopolyState, seat: number): Map<ActionName, JsonObject> {
  const out = new Map<ActionName, JsonObject>();
  if (actor(state) !== seat) return out;
  if (state.phase === 'trade_response') {
    const trade = state.trade;
    if (!trade) return out;
    out.set('accept_trade', {});
    out.set('reject_trade', {});
    out.set('reject_trade_for_turn', {});
    if (trade.depth === 0)
      out.set('counter_trade', {
        offer_cash: trade.requestCash,
        offer_space_ids: [...trade.requestSpaces],
        offer_jail_cards: trade.requestJailCards,
        request_cash: trade.offerCash,
        request_space_ids: [...trade.offerSpaces],
        request_jail_cards: trade.offerJailCards,
      });
  } else if (state.phase === 'buy') {
    const at = state.pendingSpace ?? 0;
    if ((state.cash[seat] ?? 0) >= (space(at).price ?? 0)) out.set('buy_property', {});
    out.set('decline_property', {});
  } else if (state.phase === 'debt') {
    const sell = sellableSpaces(state, seat)[0];
    const mortgage = mortgageableSpaces(state, seat)[0];
    if (sell !== undefined) out.set('sell_house', { space_id: sell, count: 1 });
    if (mortgage !== undefined) out.set('mortgage', { space_id: mortgage });
    if (sell !== undefined) out.set('manage_batch', { operations: [{ action: 'sell_house', space_id: sell, count: 1 }] });
    else if (mortgage !== undefined) out.set('manage_batch', { operations: [{ action: 'mortgage', space_id: mortgage }] });
    out.set('declare_bankruptcy', {});
  } else if (state.phase === 'turn') {
    if (!state.rolled) {
      out.set('roll', {});
      if (state.inJail[seat] && (state.cash[seat] ?? 0) >= JAIL_BAIL) out.set('pay_bail', {});
      if (state.inJail[seat] && (state.jailCards[seat] ?? 0) > 0) out.set('use_jail_card', {});
    } else {
      out.set('end_turn', {});
    }
    const ops: [ActionName, JsonObject][] = [];
    const build = buildableSpaces(state, seat)[0];
    const sell = sellableSpaces(state, seat)[0];
    const mortgage = mortgageableSpaces(state, seat)[0];
    const unmortgage = unmortgageableSpaces(state, seat)[0];
    if (build !== undefined) ops.push(['build_house', { space_id: build, count: 1 }]);
    if (sell !== undefined) ops.push(['sell_house', { space_id: sell, count: 1 }]);
    if (mortgage !== undefined) ops.push(['mortgage', { space_id: mortgage }]);
    if (unmortgage !== undefined) ops.push(['unmortgage', { space_id: unmortgage }]);
    for (const [name, params] of ops) out.set(name, params);
    const first = ops[0];
    if (first) out.set('manage_batch', { operations: [{ action: first[0], ...first[1] }] });
    const probe = state.tradesThisTurn < MAX_TRADES_PER_TURN ? probeTrade(state, seat) : null;
    if (probe) out.set('propose_trade', probe);
  }
  if (out.size > 0 && state.chatsThisWindow < MAX_CHATS_PER_TURN) out.set('chat', { message: 'Good luck, table.' });
  return out;
}

export { DEED_INDEXES };
