// The heuristic advisor (`state.heuristic_advice`): a scored recommendation that is always legal, ranked alternatives,
// and the confidence tier that sets the deadline (routine ~1 s, tactical 45 s, strategic 60 s). A silent seat's
// default move is its recommended_action.
import type { JsonObject } from '../kit/game.js';
import { type ColorGroup, groupMembers, space, unmortgageCost } from './board.js';
import { buildableSpaces, buildProblem } from './holdings.js';
import { availableActions } from './legal.js';
import { cloneState, type MonopolyState, type Trade } from './state.js';

export type Tier = 'routine' | 'tactical' | 'strategic';

interface Candidate {
  action: JsonObject;
  score: number;
  rationale: string[];
}

const CASH_RESERVE = 150;
const BUILD_RESERVE = 250;

/** How many deeds of the deed's set a seat holds after a change (for set completion). */
function completesSet(state: MonopolyState, seat: number, gained: number[]): boolean {
  return gained.some((i) => {
    const g = space(i).group;
    return g !== null && groupMembers(g).every((m) => m === i || gained.includes(m) || state.owner[m] === seat);
  });
}

function deedValue(state: MonopolyState, seat: number, ids: number[], gaining: boolean): number {
  let v = ids.reduce((sum, i) => sum + (space(i).price ?? 0), 0);
  if (gaining && completesSet(state, seat, ids)) v *= 2;
  return v;
}

/** What accepting the pending trade is worth to the responder (positive = good). */
export function tradeValueFor(state: MonopolyState, trade: Trade): number {
  const me = trade.to;
  const gain = trade.offerCash + 50 * trade.offerJailCards + deedValue(state, me, trade.offerSpaces, true);
  const loss = trade.requestCash + 50 * trade.requestJailCards + deedValue(state, me, trade.requestSpaces, false);
  // Handing the proposer a full set costs extra.
  const handsSet = completesSet(state, trade.from, trade.requestSpaces) ? deedValue(state, trade.from, trade.requestSpaces, false) : 0;
  return gain - loss - handsSet;
}

/** An even build plan on the seat's full sets that keeps a cash reserve, as manage_batch operations. */
export function buildPlan(state: MonopolyState, seat: number): JsonObject[] {
  if (buildableSpaces(state, seat).length === 0) return [];
  const trial = cloneState(state);
  const ops: JsonObject[] = [];
  for (let k = 0; k < 12; k++) {
    const next = trial.owner
      .map((_, i) => i)
      .filter((i) => trial.owner[i] === seat && buildProblem(trial, seat, i) === null)
      .filter((i) => (trial.cash[seat] ?? 0) - (space(i).houseCost ?? 0) >= BUILD_RESERVE)
      .sort((a, b) => (trial.houses[a] ?? 0) - (trial.houses[b] ?? 0) || (space(b).price ?? 0) - (space(a).price ?? 0))[0];
    if (next === undefined) break;
    trial.cash[seat] = (trial.cash[seat] ?? 0) - (space(next).houseCost ?? 0);
    trial.houses[next] = (trial.houses[next] ?? 0) + 1;
    const last = ops[ops.length - 1];
    if (last && last.space_id === next) last.count = (last.count as number) + 1;
    else ops.push({ action: 'build_house', space_id: next, count: 1 });
  }
  return ops;
}

function candidates(state: MonopolyState, seat: number, legal: Map<string, JsonObject>): Candidate[] {
  const out: Candidate[] = [];
  const add = (action: string, params: JsonObject, score: number, rationale: string[]) =>
    out.push({ action: { action, ...params }, score, rationale });
  const cash = state.cash[seat] ?? 0;
  if (state.phase === 'debt') {
    const debt = state.debt?.amount ?? 0;
    if (legal.has('sell_house')) add('sell_house', legal.get('sell_house') as JsonObject, 0.9, ['emergency_liquidity', 'sell_building']);
    if (legal.has('mortgage')) add('mortgage', legal.get('mortgage') as JsonObject, 0.85, ['emergency_liquidity', 'mortgage_for_debt']);
    add('declare_bankruptcy', {}, legal.size <= 2 ? 1 : 0.05, ['no_liquidity_left', `debt_${debt}`]);
  } else if (state.phase === 'buy') {
    const at = state.pendingSpace ?? 0;
    const price = space(at).price ?? 0;
    const sets = completesSet(state, seat, [at]);
    if (legal.has('buy_property')) {
      const score = sets ? 0.95 : cash - price >= CASH_RESERVE ? 0.75 : 0.3;
      add(
        'buy_property',
        {},
        score,
        sets ? ['completes_monopoly'] : cash - price >= CASH_RESERVE ? ['affordable_purchase'] : ['thin_cash'],
      );
    }
    add('decline_property', {}, legal.has('buy_property') ? 0.4 : 1, ['cash_reserve']);
  } else if (state.phase === 'trade_response' && state.trade) {
    const value = tradeValueFor(state, state.trade);
    add('accept_trade', {}, value >= 0 ? 0.7 : 0.2, [value >= 0 ? 'trade_value_positive' : 'trade_value_negative']);
    add('reject_trade', {}, value >= 0 ? 0.3 : 0.65, ['protect_position']);
    if (legal.has('counter_trade')) add('counter_trade', legal.get('counter_trade') as JsonObject, 0.1, ['counter_probe']);
  } else if (state.phase === 'turn') {
    if (legal.has('use_jail_card')) add('use_jail_card', {}, 0.8, ['free_exit']);
    if (legal.has('pay_bail')) add('pay_bail', {}, cash >= 500 && state.turnNumber < 60 ? 0.7 : 0.2, ['leave_lockup_early']);
    const plan = buildPlan(state, seat);
    if (plan.length > 0)
      add('manage_batch', { operations: plan }, 0.8, [state.rolled ? 'post_roll_build' : 'pre_roll_build', 'even_build']);
    const lift = [...state.owner.keys()].find((i) => state.owner[i] === seat && state.mortgaged[i] && cash - unmortgageCost(i) >= 500);
    if (lift !== undefined && legal.has('unmortgage')) add('unmortgage', { space_id: lift }, 0.6, ['restore_rent']);
    if (legal.has('roll')) add('roll', {}, 0.5, ['roll', 'baseline_pre_roll']);
    if (legal.has('end_turn')) add('end_turn', {}, 0.5, ['end_turn', 'nothing_to_manage']);
    if (legal.has('propose_trade')) add('propose_trade', legal.get('propose_trade') as JsonObject, 0.1, ['probe_trade']);
  }
  return out.sort((a, b) => b.score - a.score);
}

function tierOf(
  state: MonopolyState,
  legal: Map<string, JsonObject>,
  top: Candidate | undefined,
): { tier: Tier; composite: number; forcing: number } {
  const categories = [...legal.keys()].filter((a) => a !== 'chat').length;
  if (state.phase === 'debt' || categories <= 1) return { tier: 'routine', composite: 1, forcing: 1 };
  if (state.phase === 'trade_response') return { tier: 'strategic', composite: 0.35, forcing: 0.3 };
  if (state.phase === 'buy') return { tier: 'tactical', composite: 0.6, forcing: 0.6 };
  const rationale = top?.rationale[0] ?? '';
  if (rationale === 'roll' || rationale === 'end_turn') return { tier: 'routine', composite: 0.85, forcing: 0.95 };
  return categories >= 5 && rationale !== 'free_exit'
    ? { tier: 'strategic', composite: 0.4, forcing: 0.15 }
    : { tier: 'tactical', composite: 0.6, forcing: 0.5 };
}

export interface Advice {
  recommended: { action: string; params: JsonObject };
  tier: Tier;
  json: JsonObject;
}

export function advise(state: MonopolyState, seat: number): Advice | null {
  const legal = availableActions(state, seat);
  if (legal.size === 0) return null;
  const ranked = candidates(state, seat, legal);
  const top = ranked[0];
  const { tier, composite, forcing } = tierOf(state, legal, top);
  const recommended = top ? { action: top.action.action as string, params: withoutAction(top.action) } : { action: 'chat', params: {} };
  const instruction =
    tier === 'routine'
      ? `tier=routine (composite ${composite.toFixed(2)}). Submit recommended_action verbatim; the decision is forced or trivial.`
      : tier === 'tactical'
        ? `tier=tactical (composite ${composite.toFixed(2)}). Consider the top alternatives; the server falls back to recommended_action after 45 s.`
        : `tier=strategic (composite ${composite.toFixed(2)}). Reason over the full state; the server falls back to recommended_action after 60 s.`;
  return {
    recommended,
    tier,
    json: {
      recommended_action: top ? top.action : { action: 'chat' },
      confidence: {
        composite,
        tier,
        forcing,
        stakes: state.phase === 'trade_response' || state.phase === 'debt' ? 0.8 : 0.2,
        complexity: Math.min(1, (legal.size - 1) / 8),
        phase_factor: 1,
        ensemble_agreement: 1,
        ensemble_ran: false,
      },
      rationale: top ? top.rationale : [],
      alternatives: ranked.slice(0, 4).map((c) => ({ action: c.action, score: c.score, rationale: c.rationale })),
      instruction,
    },
  };
}

function withoutAction(action: JsonObject): JsonObject {
  const { action: _, ...params } = action;
  return params;
}

export type { ColorGroup };
