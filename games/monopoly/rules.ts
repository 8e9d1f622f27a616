// Clawpoly (`monopoly`, 4 players) on the game kit (spec §11.4): the GameRules object the registry serves.
import {
  type ApplyResult,
  type DecisionWindow,
  type GameEvent,
  type GameRules,
  type JsonObject,
  type LegalActionSpec,
  reject,
} from '../kit/game.js';
import { ACTIONS, type ActionName, DESCRIPTIONS, paramsHint, paramsSchema, parseParams } from './actions.js';
import { advise } from './advice.js';
import { space } from './board.js';
import { MONOPOLY_STRATEGY, monopolyRules } from './briefs.js';
import { applyOp, type ManageOp } from './holdings.js';
import { actor, availableActions, tradeableDeeds } from './legal.js';
import { possibleCounterparties, projectFor, spectatorView, tradeOpenings } from './projection.js';
import { agentOf, cloneState, log, type MonopolyState, netWorth, seatOfAgent, setupState, type Trade } from './state.js';
import { executeTrade, MAX_TRADES_PER_TURN, tradeProblem, tradeSummary } from './trades.js';
import { charge, declareBankruptcy, doRoll, endTurn, payBail, ranking, settleDebtIfPossible } from './turn.js';

const TABLE_TALK = 'Optional. Everyone sees this. Negotiate, pressure, or mislead if useful.';
const FALLBACK_BEHAVIOR: Partial<Record<ActionName, string>> = {
  chat: 'Send a short greeting.',
  propose_trade: 'Offer cash at face value for one of a rival deed.',
  counter_trade: 'Counter with the same terms reversed.',
};

function extraHint(state: MonopolyState, seat: number, action: ActionName): JsonObject {
  if (action === 'manage_batch') {
    return {
      strategy: [
        'Use this when you intend more than one build_house / sell_house / mortgage / unmortgage operation in the same turn.',
        'The server validates the whole batch atomically in order; if any operation is illegal, none of the batch is applied.',
        'Choose real space_id values from state.your_assets; do not copy placeholder ids.',
        'You may include a final {"action":"end_turn"} only if end_turn is currently legal.',
        'Do not include roll, trade, buy_property, decline_property, or chat inside operations[].',
      ],
      shape: {
        action: 'manage_batch',
        params: {
          operations: [
            { action: 'build_house', space_id: 'owned_buildable_space_id', count: 1 },
            { action: 'mortgage', space_id: 'owned_unimproved_deed_space_id' },
          ],
        },
      },
    };
  }
  if (action === 'propose_trade') {
    return {
      strategy: [
        'Trades are the main path to full color sets; propose during your own turn, before or after rolling.',
        'Prefer deals that complete or advance a color set, unload isolated deeds, or fix cash pressure.',
        'Do not give away a near-full color set cheaply.',
      ],
      your_tradeable_assets: tradeableDeeds(state, seat).map((i) => space(i).name),
      possible_counterparties: possibleCounterparties(state, seat),
      candidate_trade_ideas: tradeOpenings(state, seat),
    };
  }
  if (action === 'buy_property' && state.pendingSpace !== null)
    return { price: space(state.pendingSpace).price, your_cash: state.cash[seat] ?? 0 };
  return {};
}

function legalActions(state: MonopolyState, seat: number): LegalActionSpec[] {
  return [...availableActions(state, seat)].map(([action, fallback]) => ({
    action,
    description: DESCRIPTIONS[action],
    params: paramsHint(action),
    params_schema: paramsSchema(action),
    hint: {
      table_talk: TABLE_TALK,
      ...extraHint(state, seat, action),
      server_fallback: { params: fallback, behavior: FALLBACK_BEHAVIOR[action] ?? `Submit ${action} with these parameters.` },
    },
  }));
}

function window(state: MonopolyState): DecisionWindow | null {
  const seat = actor(state);
  if (seat === null) return null;
  const tier = advise(state, seat)?.tier ?? 'routine';
  return { kind: 'turn', key: `s${state.step}`, actors: [seat], waiting: [seat], timeout: tier };
}

function readTrade(from: number, to: number, p: Record<string, unknown>, depth: number): Trade {
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  const ids = (v: unknown) => (Array.isArray(v) ? (v as number[]) : []);
  return {
    from,
    to,
    offerCash: num(p.offer_cash),
    offerSpaces: ids(p.offer_space_ids),
    offerJailCards: num(p.offer_jail_cards),
    requestCash: num(p.request_cash),
    requestSpaces: ids(p.request_space_ids),
    requestJailCards: num(p.request_jail_cards),
    depth,
    message: typeof p.message === 'string' ? p.message : null,
  };
}

const MANAGEMENT = new Set<ActionName>(['build_house', 'sell_house', 'mortgage', 'unmortgage', 'manage_batch']);

/**
 * Management and trade offers are open all through one's own turn (and selling / mortgaging in debt) even when no
 * example was listed, so that a wrong choice is refused with its specific reason rather than `action_not_legal`.
 */
function managementAllowed(state: MonopolyState, name: ActionName): boolean {
  if (state.phase === 'turn') return MANAGEMENT.has(name) || (name === 'propose_trade' && state.tradesThisTurn < MAX_TRADES_PER_TURN);
  if (state.phase === 'debt') return name === 'sell_house' || name === 'mortgage' || name === 'manage_batch';
  return false;
}

function finishTrade(state: MonopolyState): void {
  state.trade = null;
  state.phase = 'turn';
}

function apply(
  state0: MonopolyState,
  seat: number,
  action: string,
  params: Record<string, unknown>,
  _auto: boolean,
): ApplyResult<MonopolyState> {
  if (state0.finished) return reject('no_active_match', 'the game is over');
  const legal = availableActions(state0, seat);
  if (legal.size === 0) return reject('not_your_turn', 'you have no decision to make right now');
  if (!(ACTIONS as string[]).includes(action))
    return reject('unknown_action', `unknown action ${action}`, { allowed_values: [...legal.keys()] });
  const name = action as ActionName;
  if (!legal.has(name) && !managementAllowed(state0, name))
    return reject('action_not_legal', `${action} is not legal now`, { allowed_values: [...legal.keys()] });
  const parsed = parseParams(name, params);
  if (!parsed.ok) return parsed;
  const p = parsed.value as Record<string, unknown>;
  const state = cloneState(state0);
  const events: GameEvent[] = [];
  const who = agentOf(state, seat);
  const message = typeof p.message === 'string' && p.message.trim() ? p.message.trim() : null;
  if (message) {
    state.chat.push({ agent_id: who, name: state.seats[seat]?.name ?? '', message, turn_number: state.turnNumber });
    state.chatCount = (state.chatCount ?? state.chat.length - 1) + 1;
    if (state.chat.length > 200) state.chat.shift();
    events.push({ type: 'chat', visibility: 'public', data: { agent_id: who, message } });
  }
  state.step += 1;
  if (name === 'chat') {
    state.chatsThisWindow += 1;
    return { ok: true, state, events };
  }
  state.chatsThisWindow = 0;
  switch (name) {
    case 'roll':
      doRoll(state, events);
      break;
    case 'pay_bail':
    case 'use_jail_card':
      payBail(state, events, name === 'use_jail_card');
      break;
    case 'end_turn':
      endTurn(state, events);
      break;
    case 'buy_property':
    case 'decline_property': {
      const at = state.pendingSpace as number;
      if (name === 'buy_property') {
        charge(state, events, space(at).price ?? 0, null, `purchase:${space(at).name}`);
        state.owner[at] = seat;
        state.propertyChanges.push({ space_id: at, from: null, to: seat, how: 'purchase', turn_number: state.turnNumber });
        log(state, events, { type: 'property_bought', agent_id: who, space_id: at, space_name: space(at).name, price: space(at).price });
      } else log(state, events, { type: 'property_declined', agent_id: who, space_id: at, space_name: space(at).name });
      state.pendingSpace = null;
      state.phase = 'turn';
      break;
    }
    case 'build_house':
    case 'sell_house':
    case 'mortgage':
    case 'unmortgage':
    case 'manage_batch': {
      const ops: (ManageOp | { action: 'end_turn' })[] =
        name === 'manage_batch'
          ? ((p.operations as (ManageOp | { action: 'end_turn' })[]) ?? [])
          : [{ action: name, space_id: p.space_id as number, count: (p.count as number | undefined) ?? 1 } as ManageOp];
      for (const [k, op] of ops.entries()) {
        if (op.action === 'end_turn') {
          if (k !== ops.length - 1)
            return reject('invalid_params', 'end_turn may only be the last operation', { field: `operations.${k}` });
          if (!legal.has('end_turn')) return reject('action_not_legal', 'end_turn is not legal now', { field: `operations.${k}` });
          continue;
        }
        if (state.phase === 'debt' && (op.action === 'build_house' || op.action === 'unmortgage'))
          return reject('action_not_legal', 'only sell_house and mortgage raise cash in debt', { field: `operations.${k}` });
        const normalized = op.action === 'build_house' || op.action === 'sell_house' ? { ...op, count: op.count ?? 1 } : op;
        const problem = applyOp(state, seat, normalized);
        if (problem)
          return {
            ok: false,
            error:
              name === 'manage_batch' ? { ...problem, field: `operations.${k}`, message: `operation ${k}: ${problem.message}` } : problem,
          };
      }
      log(state, events, { type: 'management', agent_id: who, operations: JSON.parse(JSON.stringify(ops)) });
      if (state.phase === 'debt') settleDebtIfPossible(state, events);
      if (ops[ops.length - 1]?.action === 'end_turn' && state.phase === 'turn') endTurn(state, events);
      break;
    }
    case 'propose_trade': {
      const to = seatOfAgent(state, p.to_agent_id as number);
      if (to < 0) return reject('invalid_params', 'to_agent_id is not a player', { field: 'to_agent_id' });
      if (state.tradeBlocks.some((b) => b.blocker === to && b.proposer === seat))
        return reject('trade_blocked', 'that player refuses your offers until your turn ends', { field: 'to_agent_id' });
      const trade = readTrade(seat, to, p, 0);
      const problem = tradeProblem(state, trade);
      if (problem) return { ok: false, error: problem };
      state.tradesThisTurn += 1;
      state.trade = trade;
      state.phase = 'trade_response';
      log(state, events, { type: 'trade_proposed', ...tradeSummary(state, trade) });
      break;
    }
    case 'accept_trade': {
      const trade = state.trade as Trade;
      // Terms are checked again: cash may have moved since the offer.
      const problem = tradeProblem(state, trade);
      if (problem) log(state, events, { type: 'trade_failed', reason: problem.message, ...tradeSummary(state, trade) });
      else executeTrade(state, events, trade);
      finishTrade(state);
      break;
    }
    case 'reject_trade':
    case 'reject_trade_for_turn': {
      const trade = state.trade as Trade;
      if (name === 'reject_trade_for_turn') state.tradeBlocks.push({ blocker: seat, proposer: trade.from });
      log(state, events, { type: 'trade_rejected', for_turn: name === 'reject_trade_for_turn', ...tradeSummary(state, trade) });
      finishTrade(state);
      break;
    }
    case 'counter_trade': {
      const original = state.trade as Trade;
      const counter = readTrade(seat, original.from, p, original.depth + 1);
      const problem = tradeProblem(state, counter);
      if (problem) {
        log(state, events, { type: 'counter_failed', reason: problem.message, ...tradeSummary(state, counter) });
        finishTrade(state);
      } else {
        state.trade = counter;
        log(state, events, { type: 'trade_countered', ...tradeSummary(state, counter) });
      }
      break;
    }
    case 'declare_bankruptcy':
      declareBankruptcy(state, events);
      break;
  }
  return { ok: true, state, events };
}

export const monopoly: GameRules<MonopolyState> = {
  gameType: 'monopoly',
  title: 'Clawpoly',
  players: { default: 4, min: 2, max: 6 },
  timeouts: { routine: 1_000, tactical: 45_000, strategic: 60_000 },
  actions: ACTIONS,
  setup: (seats, seed, options) => setupState(seats, seed, options),
  window,
  legalActions,
  apply,
  defaultMove(state, seat) {
    const advice = advise(state, seat);
    return advice ? advice.recommended : { action: 'chat', params: { message: '...' } };
  },
  project(state, seat) {
    return projectFor(state, seat, legalActions(state, seat) as unknown as JsonObject[]);
  },
  // snapshot=slim (spec §6.6): the table talk, the recent events and the opening deal as logs, sent whole once per
  // context and then only as new entries. A state stored before the counters existed counts what it still holds.
  slimLogs(state) {
    return {
      chat_log: state.chatCount ?? state.chat.length,
      recent_events: state.eventCount ?? state.events.length,
      opening_deal_events: state.openingDeal.length,
    };
  },
  spectate: spectatorView,
  briefs: (state) => ({ rules: monopolyRules(state.maxTurns), strategy: MONOPOLY_STRATEGY }),
  outcome(state) {
    if (!state.finished) return null;
    const order = ranking(state);
    const placements = state.seats.map((_, i) => order.indexOf(i) + 1);
    return { placements, winners: [order[0] as number], reason: state.finishReason ?? 'finished' };
  },
  summary(state) {
    return {
      finish_reason: state.finishReason,
      turns_completed: state.completedTurns,
      net_worth: Object.fromEntries(state.seats.map((s, i) => [String(s.agentId), netWorth(state, i)])),
      final_cash: Object.fromEntries(state.seats.map((s, i) => [String(s.agentId), state.cash[i] ?? 0])),
      bankruptcies: state.bankruptcies.map((b) => ({ ...b })),
      property_changes: state.propertyChanges.slice(-200).map((c) => ({
        space_id: c.space_id,
        space_name: space(c.space_id).name,
        from_agent_id: c.from === null ? null : agentOf(state, c.from),
        to_agent_id: c.to === null ? null : agentOf(state, c.to),
        how: c.how,
        turn_number: c.turn_number,
      })),
    };
  },
};
