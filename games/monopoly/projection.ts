// What a seat sees (everything in Clawpoly is public, so the spectator view is the same board), in the wire shape of
// the published monopoly_turn fixture.
import type { JsonObject, Seat } from '../kit/game.js';
import { advise } from './advice.js';
import { DESCRIPTIONS, groupKey, isDeed, JAIL_BAIL, mortgageValue, PASS_GO_CASH, SPACES, space } from './board.js';
import { counterparties, tradeableDeeds } from './legal.js';
import { agentOf, deedsOf, type MonopolyState, netWorth } from './state.js';
import { tradeSummary } from './trades.js';
import { rentFor } from './turn.js';

function spaceJson(index: number): JsonObject {
  const s = space(index);
  return {
    index,
    name: s.name,
    space_type: s.type,
    color_group: s.group,
    price: s.price,
    rent: s.rents ? (s.rents[0] ?? null) : null,
    house_cost: s.houseCost,
    mortgage_value: s.price === null ? null : mortgageValue(index),
    tax_amount: s.tax,
    description: DESCRIPTIONS[s.type],
  };
}

function assetJson(state: MonopolyState, index: number): JsonObject {
  const s = space(index);
  const h = state.houses[index] ?? 0;
  return {
    space_id: index,
    name: s.name,
    space_type: s.type,
    color_group: s.group,
    mortgaged: state.mortgaged[index] ?? false,
    houses: h === 5 ? 0 : h,
    hotel: h === 5,
  };
}

/** Every landing of the next roll with its probability and what it would cost (spec fixture `roll_outlook`). */
function rollOutlook(state: MonopolyState, seat: number): JsonObject {
  const at = state.position[seat] ?? 0;
  const cash = state.cash[seat] ?? 0;
  const landings: JsonObject[] = [];
  const purchases: JsonObject[] = [];
  const risky: JsonObject[] = [];
  let maxPay = 0;
  for (let total = 2; total <= 12; total++) {
    const ways = 6 - Math.abs(7 - total);
    const pos = (at + total) % 40;
    const s = space(pos);
    const entry: JsonObject = { roll_total: total, probability: `${ways}/36`, position: pos, name: s.name, space_type: s.type };
    if (s.group) entry.color_group = s.group;
    if (s.type === 'chance' || s.type === 'community_chest') entry.draw_card = true;
    let due = 0;
    if (s.type === 'tax') {
      due = s.tax ?? 0;
      entry.tax_due = due;
    } else if (isDeed(pos)) {
      const owner = state.owner[pos];
      if (owner === null || owner === undefined) {
        entry.purchase_price = s.price;
        purchases.push({ roll_total: total, position: pos, name: s.name, price: s.price });
      } else {
        entry.owner_id = agentOf(state, owner);
        entry.owner_name = (state.seats[owner] as Seat).name;
        entry.mortgaged = state.mortgaged[pos] ?? false;
        if (owner === seat) entry.owned_by_you = true;
        else {
          due = rentFor(state, pos, total);
          entry.rent_due = due;
        }
      }
    }
    if (due > 0) {
      entry.cash_after_forced_payment = cash - due;
      if (due > cash) risky.push({ roll_total: total, position: pos, name: s.name, amount_due: due });
    }
    maxPay = Math.max(maxPay, due);
    landings.push(entry);
  }
  return {
    current_position: at,
    current_space: { position: at, name: space(at).name, space_type: space(at).type },
    probability_denominator: 36,
    possible_landings: landings,
    risk_summary: { max_forced_payment: maxPay, bankruptcy_risk_landings: risky, unowned_purchase_options: purchases },
  };
}

function players(state: MonopolyState): JsonObject[] {
  return state.seats.map((s, i) => ({
    agent_id: s.agentId,
    name: s.name,
    cash: state.cash[i] ?? 0,
    position: state.position[i] ?? 0,
    in_jail: state.inJail[i] ?? false,
    bankrupt: state.bankrupt[i] ?? false,
    get_out_of_jail_cards: state.jailCards[i] ?? 0,
    net_worth: netWorth(state, i),
  }));
}

/** The board as a viewer draws it: owners, buildings and mortgages per space. */
export function boardJson(state: MonopolyState): JsonObject[] {
  return SPACES.map((s) => {
    const owner = state.owner[s.index];
    return {
      index: s.index,
      name: s.name,
      space_type: s.type,
      color_group: s.group,
      price: s.price,
      owner_id: owner === null || owner === undefined ? null : agentOf(state, owner),
      houses: state.houses[s.index] ?? 0,
      mortgaged: state.mortgaged[s.index] ?? false,
    };
  });
}

export function tradeOpenings(state: MonopolyState, seat: number): JsonObject[] {
  const ideas: JsonObject[] = [];
  const mine = tradeableDeeds(state, seat);
  for (const other of counterparties(state, seat)) {
    const theirs = tradeableDeeds(state, other);
    for (const d of mine) {
      const g = space(d).group;
      if (!g) continue;
      const match = theirs.filter((t) => space(t).group === g);
      if (match.length === 0) continue;
      ideas.push({
        to_agent_id: agentOf(state, other),
        name: (state.seats[other] as Seat).name,
        focus_group: g,
        you_hold: [space(d).name],
        they_hold: match.map((t) => space(t).name),
        they_hold_space_ids: match,
        reason: `You both hold ${g} pieces; a swap here could push toward a full color set.`,
      });
    }
  }
  return ideas.slice(0, 6);
}

export function possibleCounterparties(state: MonopolyState, seat: number): JsonObject[] {
  return counterparties(state, seat).map((o) => {
    const deeds = deedsOf(state, o);
    const groups: Record<string, number> = {};
    for (const d of deeds) groups[groupKey(d)] = (groups[groupKey(d)] ?? 0) + 1;
    return {
      agent_id: agentOf(state, o),
      name: (state.seats[o] as Seat).name,
      asset_count: deeds.length,
      groups,
      sample_assets: deeds.slice(0, 3).map((d) => space(d).name),
    };
  });
}

export function projectFor(state: MonopolyState, seat: number, legal: JsonObject[]): JsonObject {
  const advice = advise(state, seat);
  const cur = state.current;
  const pendingSpace = state.pendingSpace;
  return {
    game_type: 'monopoly',
    turn_phase: state.phase,
    current_turn: agentOf(state, cur),
    turn_number: state.turnNumber,
    completed_turns: state.completedTurns,
    max_turns: state.maxTurns,
    is_trade_response_turn: state.phase === 'trade_response' && state.trade?.to === seat,
    pass_go_cash: PASS_GO_CASH,
    jail_bail: JAIL_BAIL,
    has_rolled_this_turn: state.rolled,
    players: players(state),
    your_agent_id: agentOf(state, seat),
    your_cash: state.cash[seat] ?? 0,
    your_position: state.position[seat] ?? 0,
    your_space: spaceJson(state.position[seat] ?? 0),
    roll_outlook: rollOutlook(state, seat),
    your_owned_space_ids: deedsOf(state, seat),
    your_assets: deedsOf(state, seat).map((i) => assetJson(state, i)),
    your_get_out_of_jail_cards: state.jailCards[seat] ?? 0,
    asset_summary: state.seats.map((s, i) => ({
      agent_id: s.agentId,
      name: s.name,
      owned_assets: deedsOf(state, i).map((d) => assetJson(state, d)),
    })),
    board: boardJson(state),
    pending_space: pendingSpace === null ? null : spaceJson(pendingSpace),
    pending_rent: null,
    pending_debt: state.debt
      ? {
          amount: state.debt.amount,
          to_agent_id: state.debt.creditor === null ? null : agentOf(state, state.debt.creditor),
          reason: state.debt.reason,
        }
      : null,
    pending_trade: state.trade ? tradeSummary(state, state.trade) : null,
    pending_trade_summary: state.trade ? tradeText(state) : null,
    trade_blocks_this_turn: state.tradeBlocks.map((b) => ({
      blocker_id: agentOf(state, b.blocker),
      proposer_id: agentOf(state, b.proposer),
    })),
    trade_openings: state.phase === 'turn' && seat === cur ? tradeOpenings(state, seat) : [],
    auction_state: null,
    auction_space: null,
    last_roll: state.lastRoll ? [...state.lastRoll] : null,
    extra_roll_pending: state.extraRoll,
    recent_events: state.events.map((e) => JSON.parse(JSON.stringify(e))),
    opening_deal_events: state.openingDeal.map((e) => JSON.parse(JSON.stringify(e))),
    chat_log: state.chat.slice(-20).map((c) => ({ ...c })),
    legal_actions: legal.map((a) => ({ action: a.action ?? null, params: a.params ?? null, description: a.description ?? null })),
    heuristic_advice: advice ? advice.json : null,
    finished: state.finished,
    finish_reason: state.finishReason,
    winner_id: state.winner === null ? null : agentOf(state, state.winner),
  };
}

function tradeText(state: MonopolyState): string {
  const t = state.trade;
  if (!t) return '';
  const from = (state.seats[t.from] as Seat).name;
  const part = (cash: number, ids: number[], cards: number) =>
    [cash > 0 ? `$${cash}` : '', ...ids.map((i) => space(i).name), cards > 0 ? `${cards} lockup card(s)` : ''].filter(Boolean).join(', ') ||
    'nothing';
  return `${from} offers ${part(t.offerCash, t.offerSpaces, t.offerJailCards)} for ${part(t.requestCash, t.requestSpaces, t.requestJailCards)}.`;
}

export function spectatorView(state: MonopolyState): JsonObject {
  return {
    game_type: 'monopoly',
    turn_phase: state.phase,
    current_turn: agentOf(state, state.current),
    turn_number: state.turnNumber,
    completed_turns: state.completedTurns,
    max_turns: state.maxTurns,
    players: players(state),
    board: boardJson(state),
    pending_trade: state.trade ? tradeSummary(state, state.trade) : null,
    last_roll: state.lastRoll ? [...state.lastRoll] : null,
    recent_events: state.events.map((e) => JSON.parse(JSON.stringify(e))),
    chat_log: state.chat.slice(-20).map((c) => ({ ...c })),
    finished: state.finished,
    finish_reason: state.finishReason,
    winner_id: state.winner === null ? null : agentOf(state, state.winner),
  };
}
