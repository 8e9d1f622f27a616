// Claw Diplomacy (`diplomacy`, 7 powers) on the game kit (spec §11.5): press rounds, sealed atomic order batches with
// candidates, overrides and server defaults, and the DATC adjudicator underneath.
import { createRng } from '../../engine/core/rng.js';
import {
  type ApplyResult,
  type Briefs,
  clone,
  type DecisionWindow,
  type GameEvent,
  type GameRules,
  type JsonObject,
  reject,
  shuffle,
} from '../kit/game.js';
import { readBatch } from './batches.js';
import { DIPLOMACY_STRATEGY, diplomacyRules } from './briefs.js';
import { centreCounts, DEFAULT_MAX_YEAR, type DiplomacyState, FIRST_YEAR, phaseKey, resolvePhase, setupState } from './game-state.js';
import { ACTION_OF, candidateIds, legalActions, seatsWaiting } from './legal-actions.js';
import { POWERS, type Power } from './map.js';
import { PRESS_LIMITS, readPress } from './press.js';
import { projectFor, proposalTargets, spectatorView } from './projection.js';
import { wireJson } from './wire-orders.js';

function submit(
  state: DiplomacyState,
  seat: number,
  action: string,
  params: Record<string, unknown>,
  auto: boolean,
): ApplyResult<DiplomacyState> {
  const next = clone(state);
  const power = next.powers[seat] as Power;
  const key = phaseKey(next);
  if (next.phase === 'negotiation') {
    const max = PRESS_LIMITS[(next.round ?? 1) - 1] ?? 0;
    const read = readPress(params, power, max, Object.keys(proposalTargets(next, power)), candidateIds(next, power));
    if (!read.ok) return read;
    for (const m of read.value.messages) {
      const message = {
        phase_key: key,
        round: next.round ?? 1,
        from_power: power,
        to_power: m.to_power,
        content: m.content,
        visibility: m.to_power === 'global' ? ('global' as const) : ('private' as const),
      };
      next.pendingPress.push(
        m.proposal ? { ...message, proposal: { ...m.proposal, proposal_id: `P${next.nextProposal++}`, phase_key: key } } : message,
      );
    }
    if (read.value.strategyIntent) next.intents[seat] = read.value.strategyIntent;
    next.submissions[seat] = {
      action,
      params: { messages: read.value.messages.length },
      request: clone(params) as JsonObject,
      orders: [],
      auto,
    };
  } else {
    const batch = readBatch(next, power, params);
    if (!batch.ok) return batch;
    next.submissions[seat] = {
      action,
      params: { orders: batch.wire.map(wireJson) },
      request: clone(params) as JsonObject,
      orders: batch.orders,
      auto,
    };
    if (!auto) next.gameplaySealed = true;
  }
  // The sealed batch itself stays secret until the phase resolves.
  const agent_id = next.seats[seat]?.agentId ?? null;
  const events: GameEvent[] = [{ type: 'phase_submission', visibility: 'public', data: { agent_id, power, phase_key: key, action } }];
  if (seatsWaiting(next).waiting.length === 0) events.push(...resolvePhase(next));
  return { ok: true, state: next, events };
}

/** The batch a seat sealed in the current window, exactly as sent (for exact-replay detection). */
function sealedSubmission(state: DiplomacyState, seat: number): { action: string; params: JsonObject } | null {
  const s = state.submissions[seat];
  return s ? { action: s.action, params: s.request } : null;
}

export const diplomacy: GameRules<DiplomacyState> = {
  gameType: 'diplomacy',
  title: 'Claw Diplomacy',
  players: { default: 7, min: 7, max: 7 },
  timeouts: { phase: 120_000 },
  actions: ['send_press', 'submit_orders', 'submit_retreats', 'submit_adjustments'],

  setup(seats, seed, options) {
    if (seats.length !== 7) throw new RangeError('Diplomacy needs exactly 7 players');
    const maxYear =
      typeof options.max_year === 'number' &&
      Number.isInteger(options.max_year) &&
      options.max_year >= FIRST_YEAR &&
      options.max_year <= 1950
        ? options.max_year
        : DEFAULT_MAX_YEAR;
    const powers = shuffle(POWERS, createRng(`${seed}:diplomacy:powers`).next);
    const state = setupState(seats, powers, maxYear);
    const events: GameEvent[] = state.seats.map((_, i) => ({
      type: 'power_assigned',
      visibility: [i],
      data: { power: powers[i] as Power },
    }));
    return { state, events };
  },

  window(state): DecisionWindow | null {
    if (state.phase === 'finished') return null;
    const { actors, waiting } = seatsWaiting(state);
    return { kind: 'barrier', key: `${phaseKey(state)}:${state.version}`, actors, waiting, timeout: 'phase' };
  },

  legalActions,

  apply(state, seat, action, params, auto) {
    if (state.phase === 'finished') return reject('no_active_match', 'the game is over');
    const expected = ACTION_OF[state.phase] as string;
    if (!seatsWaiting(state).actors.includes(seat)) return reject('not_your_turn', 'your power has nothing to decide in this phase');
    if (action !== expected) {
      return reject('stale_phase', `the current phase ${phaseKey(state)} takes ${expected}`, {
        field: 'action',
        invalid_value: action,
        allowed_values: [expected],
      });
    }
    if (state.submissions[seat] !== null) return reject('phase_submission_sealed', 'your batch for this phase is already sealed');
    return submit(state, seat, action, params, auto);
  },

  defaultMove(state) {
    const params: JsonObject = state.phase === 'negotiation' ? { messages: [] } : { orders: [] };
    return { action: ACTION_OF[state.phase] ?? 'send_press', params };
  },

  project(state, seat) {
    return projectFor(state, seat, false);
  },

  projectSlim(state, seat) {
    return projectFor(state, seat, true);
  },

  spectate(state) {
    return spectatorView(state);
  },

  briefs(state): Briefs {
    return { rules: diplomacyRules(state.maxYear), strategy: DIPLOMACY_STRATEGY };
  },

  outcome(state) {
    if (state.phase !== 'finished') return null;
    const counts = centreCounts(state);
    if (state.finishReason === 'no_gameplay_submissions') {
      return { placements: state.powers.map(() => 1), winners: [], reason: 'no_gameplay_submissions' };
    }
    const placements = state.powers.map((p) => 1 + state.powers.filter((q) => counts[q] > counts[p]).length);
    const winners = state.winners.map((p) => state.powers.indexOf(p)).sort((a, b) => a - b);
    return { placements, winners, reason: state.finishReason ?? 'finished' };
  },

  summary(state) {
    return {
      finish_reason: state.finishReason,
      winner_powers: state.winners,
      powers: state.powers.map((power, seat) => ({
        power,
        agent_id: state.seats[seat]?.agentId ?? null,
        name: state.seats[seat]?.name ?? '',
      })),
      supply_center_counts: centreCounts(state),
      final_year: state.year,
      phases: state.history as unknown as JsonObject[],
    };
  },

  sealedSubmission,
};
