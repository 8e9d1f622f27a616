// What a power sees: the bounded full state of the agent contract (at most 40 public orders, 30 press messages and 12
// resolved phases, each list with `<x>_truncated` / `<x>_omitted`), the slim variant (no public_history, 14 messages),
// and the spectator view (no private press, no sealed orders).
import type { Json, JsonObject } from '../kit/game.js';
import { adjustmentDelta } from './adjustments.js';
import { activePowers, centreCounts, type DiplomacyState, phaseId, phaseKey } from './game-state.js';
import { POWERS, type Power, PROVINCES, provinceOf } from './map.js';
import type { PressMessage } from './press.js';

export const BOUNDS = { publicOrders: 40, messages: 30, slimMessages: 14, history: 12 } as const;

/** The last `max` items, with the truncation markers under `name`. */
function bounded(name: string, items: readonly Json[], max: number): JsonObject {
  const omitted = Math.max(0, items.length - max);
  return { [name]: items.slice(omitted) as Json[], [`${name}_truncated`]: omitted > 0, [`${name}_omitted`]: omitted };
}

const DEFAULTS: Record<string, string> = {
  negotiation: 'No messages are sent.',
  movement: 'All unordered units hold.',
  retreat: 'All unordered dislodged units disband.',
  adjustment: 'Missing builds waive; missing forced disbands are deterministic.',
  finished: 'The match is over.',
};

export function defaultOnTimeout(state: DiplomacyState): string {
  return DEFAULTS[state.phase] ?? '';
}

function unitJson(u: { power: string; type: string; at: string }): JsonObject {
  return { power: u.power, unit_type: u.type, location: u.at };
}

export function visibleMessages(state: DiplomacyState, power: Power): PressMessage[] {
  return state.messages.filter((m) => m.to_power === 'global' || m.to_power === power || m.from_power === power);
}

/** Open proposals addressed to this power (or to everyone) that it may answer. */
export function proposalTargets(state: DiplomacyState, power: Power): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const m of visibleMessages(state, power)) {
    const id = m.proposal?.proposal_id;
    if (typeof id === 'string' && m.from_power !== power && m.proposal?.status === 'open') {
      out[id] = { from_power: m.from_power, kind: m.proposal.kind ?? null, phase_key: m.phase_key };
    }
  }
  return out;
}

function publicOrders(state: DiplomacyState): Json[] {
  const last = state.history.at(-1);
  return last ? (last.orders.map((o) => ({ phase_id: last.phase_id, ...o })) as Json[]) : [];
}

function common(state: DiplomacyState): JsonObject {
  const counts = centreCounts(state);
  const finished = state.phase === 'finished';
  const supplyOwners: JsonObject = {};
  for (const [id, owner] of Object.entries(state.owners).sort()) supplyOwners[id] = owner;
  const delta = adjustmentDelta(state.units, state.owners);
  return {
    game_type: 'diplomacy',
    phase: phaseKey(state),
    phase_key: phaseKey(state),
    phase_id: phaseId(state),
    phase_type: state.phase,
    decision_context_epoch: phaseId(state),
    year: state.year,
    season: state.season,
    negotiation_round: state.phase === 'negotiation' ? state.round : null,
    players: state.powers
      .map((power, seat) => ({ power, agent_id: state.seats[seat]?.agentId ?? null, name: state.seats[seat]?.name ?? '' }))
      .sort((a, b) => (a.power < b.power ? -1 : 1)),
    power_by_agent: Object.fromEntries(state.powers.map((power, seat) => [String(state.seats[seat]?.agentId), power])),
    territories: [...PROVINCES.values()].map((p) => ({
      id: p.id,
      name: p.name,
      is_supply_center: p.supplyCentre,
      owner: state.owners[p.id] ?? null,
    })),
    units: [...state.units].sort((a, b) => (a.at < b.at ? -1 : 1)).map(unitJson),
    supply_centers: Object.entries(supplyOwners).map(([territory, owner]) => ({ territory, owner })),
    supply_owners: supplyOwners,
    center_counts: counts,
    supply_center_counts: counts,
    active_powers: activePowers(state),
    submitted_count: state.submissions.filter((s) => s !== null).length,
    required_count: activePowers(state).length,
    dislodged: Object.fromEntries(
      state.dislodged.map((d) => [provinceOf(d.unit.at), { unit: unitJson(d.unit), attacker_origin: d.attackerFrom, options: d.retreats }]),
    ),
    adjustment_requirements: state.phase === 'adjustment' ? Object.fromEntries(POWERS.map((p) => [p, delta.get(p) ?? 0])) : {},
    default_on_timeout: defaultOnTimeout(state),
    finished,
    winner_powers: state.winners,
    finish_reason: state.finishReason,
    max_year: state.maxYear,
    version: state.version,
    last_resolution: (state.history.at(-1) ?? null) as Json,
  };
}

export function projectFor(state: DiplomacyState, seat: number, slim = false): JsonObject {
  const power = state.powers[seat] as Power;
  const mine = state.submissions[seat];
  const advice = state.advice[power] ?? [];
  const view: JsonObject = {
    ...common(state),
    power,
    recipient_powers: POWERS.filter((p) => p !== power),
    press_message_limit: state.phase === 'negotiation' ? (state.round === 1 ? 3 : 2) : null,
    ...bounded('public_orders', publicOrders(state), BOUNDS.publicOrders),
    ...bounded('messages_received', visibleMessages(state, power) as unknown as Json[], slim ? BOUNDS.slimMessages : BOUNDS.messages),
    heuristic_advice:
      advice.length > 0
        ? ({ phase_key: phaseKey(state), recommended_candidate_id: advice[0]?.candidate_id ?? null, candidates: advice } as unknown as Json)
        : {},
    strategy_intent: state.intents[seat] ?? {},
    your_orders: (mine?.params.orders as Json) ?? [],
    your_units: state.units
      .filter((u) => u.power === power)
      .sort((a, b) => (a.at < b.at ? -1 : 1))
      .map(unitJson),
    retreat_options: Object.fromEntries(
      state.dislodged.filter((d) => d.unit.power === power).map((d) => [provinceOf(d.unit.at), d.retreats]),
    ),
    action_pending: mine !== null && mine !== undefined && state.phase !== 'finished',
    your_submission_sealed: mine !== null && mine !== undefined,
  };
  if (!slim) Object.assign(view, bounded('public_history', state.history as unknown as Json[], BOUNDS.history));
  return view;
}

export function spectatorView(state: DiplomacyState): JsonObject {
  const global = state.messages.filter((m) => m.to_power === 'global');
  return {
    ...common(state),
    ...bounded('public_orders', publicOrders(state), BOUNDS.publicOrders),
    ...bounded('global_messages', global as unknown as Json[], BOUNDS.messages),
    ...bounded('public_history', state.history as unknown as Json[], BOUNDS.history),
    powers: state.powers.map((power, seat) => ({ power, seat, sealed: state.submissions[seat] !== null })),
  };
}
