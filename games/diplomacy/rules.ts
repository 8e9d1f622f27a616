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
  type LegalActionSpec,
  reject,
  shuffle,
} from '../kit/game.js';
import { adjudicateAdjustments } from './adjustments.js';
import type { Unit } from './board.js';
import { indexUnits } from './board.js';
import { DIPLOMACY_STRATEGY, diplomacyRules } from './briefs.js';
import {
  activePowers,
  centreCounts,
  DEFAULT_MAX_YEAR,
  type DiplomacyState,
  FIRST_YEAR,
  phaseKey,
  resolvePhase,
  setupState,
} from './game-state.js';
import { POWERS, type Power, provinceOf } from './map.js';
import { checkMovementOrder } from './movement-orders.js';
import type { Order } from './orders.js';
import { PRESS_LIMITS, readPress } from './press.js';
import { defaultOnTimeout, projectFor, proposalTargets, spectatorView } from './projection.js';
import { type PhaseKind, readWireOrder, VALID_LOCATION_IDS, type WireOrder, wireJson } from './wire-orders.js';

const ACTION_OF: Record<string, string> = {
  negotiation: 'send_press',
  movement: 'submit_orders',
  retreat: 'submit_retreats',
  adjustment: 'submit_adjustments',
};
const MAX_OVERRIDES = 2;

function seatsWaiting(state: DiplomacyState): { actors: number[]; waiting: number[] } {
  const actors = activePowers(state)
    .map((p) => state.powers.indexOf(p))
    .sort((a, b) => a - b);
  return { actors, waiting: actors.filter((s) => state.submissions[s] === null) };
}

function candidateIds(state: DiplomacyState, power: Power): string[] {
  return (state.advice[power] ?? []).map((c) => c.candidate_id);
}

const ORDER_SCHEMA: Record<PhaseKind, JsonObject> = {
  movement: {
    hold: { type: 'HOLD', origin: 'province' },
    move: { type: 'MOVE', origin: 'province', destination: 'province', via_convoy: 'bool optional' },
    support: { type: 'SUPPORT', origin: 'province', target: 'province', destination: 'province (omit to support a hold)' },
    convoy: { type: 'CONVOY', origin: 'fleet province', target: 'army province', destination: 'province' },
  },
  retreat: {
    retreat: { type: 'RETREAT', origin: 'province', destination: 'province' },
    disband: { type: 'DISBAND', origin: 'province' },
  },
  adjustment: {
    build: { type: 'BUILD', unit_type: 'A|F', destination: 'home center (a coast such as STP/NC for a fleet there)' },
    disband: { type: 'DISBAND', origin: 'province' },
    waive: { type: 'WAIVE' },
  },
};

const BATCH_PARAMS = {
  orders: 'optional legacy/direct array of structured orders',
  candidate_id: 'optional recommended candidate id; use instead of orders',
  order_overrides: `optional array replacing at most ${MAX_OVERRIDES} candidate orders by origin`,
  use_server_default:
    'optional boolean; true asks the server to seal its current top heuristic candidate or deterministic phase default; mutually exclusive with all other params',
};

const BATCH_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    orders: { type: 'array', items: { type: 'object' } },
    candidate_id: { type: 'string' },
    order_overrides: { type: 'array', maxItems: MAX_OVERRIDES, items: { type: 'object' } },
    use_server_default: { type: 'boolean' },
  },
  additionalProperties: false,
};

function commonHint(state: DiplomacyState, power: Power): JsonObject {
  const targets = proposalTargets(state, power);
  return {
    your_power: power,
    valid_province_ids: [...VALID_LOCATION_IDS],
    valid_power_ids: POWERS.filter((p) => p !== power),
    valid_proposal_ids: Object.keys(targets),
    proposal_reply_targets: targets,
    valid_candidate_ids: candidateIds(state, power),
    contract_version: 2,
    strict_validation: true,
    heuristic_advice_path: 'state.heuristic_advice',
  };
}

function legalActions(state: DiplomacyState, seat: number): LegalActionSpec[] {
  if (!seatsWaiting(state).waiting.includes(seat)) return [];
  const power = state.powers[seat] as Power;
  if (state.phase === 'negotiation') {
    const max = PRESS_LIMITS[(state.round ?? 1) - 1] ?? 0;
    return [
      {
        action: 'send_press',
        description: "Submit this negotiation round's complete message batch. Use an empty messages array to pass.",
        params: {
          messages: `array of {to_power: one of recipient_powers or 'global', content: string (1-600 chars), proposal: optional structured proposal}; max ${max} messages this round`,
          strategy_intent:
            'optional private object with objective, risk_posture (exactly conservative, balanced, or aggressive), priority_targets, avoid_provinces, dmz_provinces, trusted_powers, threat_powers, accepted_proposal_ids, rejected_proposal_ids, and planned_candidate_id',
        },
        params_schema: {
          type: 'object',
          properties: { messages: { type: 'array', maxItems: max }, strategy_intent: { type: 'object' } },
          additionalProperties: false,
        },
        hint: {
          ...commonHint(state, power),
          recipient_powers: POWERS.filter((p) => p !== power),
          round: state.round ?? 1,
          max_messages: max,
          visibility:
            'Private messages are delivered only to the named power; global is public to all powers. Press is delivered when the round closes.',
          proposal_schema: {
            kind: 'support|dmz|non_aggression|coordinated_move|convoy|information',
            status: 'open|accept|reject|counter',
            reply_to: 'server-assigned proposal_id; required for accept, reject, or counter',
            provinces: 'array of province ids, max 8',
            offers: 'array of movement-order objects, never strings; max 4',
            requests: 'array of movement-order objects, never strings; max 4',
            order_object: '{type: HOLD|MOVE|SUPPORT|CONVOY, origin, and when required destination, target, or via_convoy}',
            terms: 'string optional, max 400 chars',
            server_fields: 'proposal_id and phase_key are added by the server',
          },
          strategy_intent_schema: {
            risk_posture: 'conservative|balanced|aggressive only',
            valid_risk_postures: ['conservative', 'balanced', 'aggressive'],
            province_fields: 'priority_targets|avoid_provinces|dmz_provinces; exact ids from valid_province_ids',
            power_fields: 'trusted_powers|threat_powers; exact ids from valid_power_ids',
            proposal_id_fields: 'accepted_proposal_ids|rejected_proposal_ids; exact ids from valid_proposal_ids',
            candidate_field: 'planned_candidate_id; exact id from valid_candidate_ids or omit it',
            optional_fields_rule: 'Omit an optional field instead of guessing an identifier.',
          },
          server_fallback: { params: { messages: [] }, behavior: 'Submit no press and no strategy intent for this round.' },
          agreements_are_non_binding: true,
          efficiency_rule: 'Send only concrete, position-relevant requests or replies. An empty batch is preferred to low-value diplomacy.',
        },
      },
    ];
  }
  const kind = state.phase as PhaseKind;
  const options = state.options[power] ?? [];
  const shared: JsonObject =
    kind === 'movement'
      ? {
          convoy_destinations: [...new Set(options.flatMap((o) => (o.convoy_destinations as string[]) ?? []))].sort(),
          convoy_army_origins: state.units
            .filter((u) => u.type === 'A')
            .map((u) => provinceOf(u.at))
            .sort(),
        }
      : {};
  const guidance: JsonObject =
    kind === 'movement'
      ? {
          direct_move: "Choose destination from that origin's move_destinations.",
          convoyed_move: 'For an origin with can_move_via_convoy=true, choose from its convoy_destinations with via_convoy=true.',
          support: 'Choose an exact target/destination pair from support_options (destination equal to target supports a hold).',
          convoy: 'For a fleet with can_convoy=true, choose a target and destination from its convoy_options.',
        }
      : kind === 'retreat'
        ? { retreat: 'Choose destination from retreat_destinations, or DISBAND the origin.' }
        : {
            build: 'Choose a build_sites destination and one of its unit_types; a fleet uses a listed fleet_destinations coast.',
            defaults: 'Omitted builds become WAIVE; omitted forced disbands are selected deterministically.',
          };
  const descriptions: Record<PhaseKind, string> = {
    movement: 'Submit one sealed order batch. Any omitted unit holds.',
    retreat: 'Submit retreats or disbands as one batch. Any omitted dislodged unit disbands.',
    adjustment: 'Submit build, disband, or waive choices as one batch; omitted choices use the stated default.',
  };
  return [
    {
      action: ACTION_OF[kind] as string,
      description: descriptions[kind],
      params: BATCH_PARAMS,
      params_schema: BATCH_SCHEMA,
      hint: {
        ...commonHint(state, power),
        order_schema: ORDER_SCHEMA[kind],
        legal_orders: options,
        shared_candidates: shared,
        candidate_guidance: guidance,
        default_on_timeout: defaultOnTimeout(state),
        server_fallback: {
          params: { use_server_default: true },
          behavior:
            "The server selects its current top heuristic candidate; if unavailable, the phase's deterministic omission default is sealed.",
        },
        candidate_selection:
          'Prefer candidate_id after strategic judgment. Patch at most two origins with order_overrides, or submit orders directly for a fully custom plan.',
        atomic_batch: true,
        partial_batch_allowed: true,
      },
    },
  ];
}

type Batch = { ok: true; orders: Order[]; wire: WireOrder[] } | { ok: false; error: ReturnType<typeof reject>['error'] };

/** The units a batch may order in this phase, by province. */
function orderable(state: DiplomacyState, power: Power): Map<string, Unit> {
  if (state.phase === 'retreat')
    return new Map(state.dislodged.filter((d) => d.unit.power === power).map((d) => [provinceOf(d.unit.at), d.unit]));
  return new Map(state.units.filter((u) => u.power === power).map((u) => [provinceOf(u.at), u]));
}

function checkOne(state: DiplomacyState, power: Power, order: Order, field: string): ReturnType<typeof reject> | null {
  if (state.phase === 'movement') {
    const check = checkMovementOrder(indexUnits(state.units), { power, order });
    return check.ok ? null : reject('invalid_params', `${field}: ${check.reason}`, { field });
  }
  if (state.phase === 'retreat' && order.kind === 'move') {
    const d = state.dislodged.find((x) => provinceOf(x.unit.at) === provinceOf(order.unit.at));
    const to = d?.retreats.find(
      (loc) => loc === order.to || (provinceOf(loc) === order.to && d.retreats.filter((l) => provinceOf(l) === order.to).length === 1),
    );
    if (!d || !to) {
      return reject('invalid_params', `${field}: ${provinceOf(order.unit.at)} cannot retreat to ${order.to}`, {
        field: `${field}.destination`,
        invalid_value: order.to,
        allowed_values: d?.retreats ?? [],
      });
    }
  }
  return null;
}

function readOrders(state: DiplomacyState, power: Power, raw: unknown, field: string): Batch {
  if (!Array.isArray(raw)) return reject('invalid_params', `${field} must be an array of order objects`, { field });
  if (raw.length > 40) return reject('invalid_params', `${field} has too many orders`, { field });
  const kind = state.phase as PhaseKind;
  const units = orderable(state, power);
  const orders: Order[] = [];
  const wire: WireOrder[] = [];
  const seen = new Set<string>();
  for (const [i, item] of raw.entries()) {
    const read = readWireOrder(item, `${field}[${i}]`, kind, units);
    if (!read.ok) return read;
    const key = read.value.origin ?? (read.value.order.kind === 'build' ? `build:${provinceOf(read.value.order.unit.at)}` : `waive:${i}`);
    if (read.value.origin && seen.has(key)) {
      return reject('invalid_params', `${field}[${i}]: a second order for ${read.value.origin}`, {
        field: `${field}[${i}].origin`,
        invalid_value: read.value.origin,
      });
    }
    seen.add(key);
    const bad = checkOne(state, power, read.value.order, `${field}[${i}]`);
    if (bad) return bad;
    orders.push(read.value.order);
    wire.push(read.value.wire);
  }
  if (kind === 'adjustment') {
    const dry = adjudicateAdjustments(
      state.units,
      state.owners,
      orders.map((order) => ({ power, order })),
    );
    const first = dry.rejected[0];
    if (first) return reject('invalid_params', `${first.text}: ${first.reason}`, { field, invalid_value: first.text });
  }
  return { ok: true, orders, wire };
}

function readBatch(state: DiplomacyState, power: Power, raw: Record<string, unknown>): Batch {
  // Clients (language models in particular) send null or false for the alternatives they did not choose.
  const params = Object.fromEntries(Object.entries(raw).filter(([k, v]) => v !== null && !(k === 'use_server_default' && v === false)));
  const known = ['orders', 'candidate_id', 'order_overrides', 'use_server_default'];
  for (const k of Object.keys(params)) {
    if (!known.includes(k)) return reject('invalid_params', `${k} is not a parameter of this action`, { field: k, allowed_values: known });
  }
  const chosen = ['orders', 'candidate_id', 'use_server_default'].filter((k) => params[k] !== undefined);
  if (chosen.length !== 1) {
    return reject('invalid_params', 'give exactly one of orders, candidate_id (with optional order_overrides) or use_server_default', {
      field: chosen[1] ?? 'orders',
    });
  }
  if (params.order_overrides !== undefined && params.candidate_id === undefined) {
    return reject('invalid_params', 'order_overrides needs candidate_id', { field: 'order_overrides' });
  }
  const advice = state.advice[power] ?? [];
  if (params.use_server_default !== undefined) {
    if (params.use_server_default !== true)
      return reject('invalid_params', 'use_server_default must be true', { field: 'use_server_default' });
    return readOrders(state, power, (advice[0]?.orders ?? []).map(wireJson), 'orders');
  }
  if (params.candidate_id !== undefined) {
    const candidate = advice.find((c) => c.candidate_id === params.candidate_id);
    if (!candidate) {
      return reject('invalid_params', 'unknown candidate_id', {
        field: 'candidate_id',
        invalid_value: typeof params.candidate_id === 'string' ? params.candidate_id : null,
        allowed_values: advice.map((c) => c.candidate_id),
      });
    }
    const overrides = params.order_overrides ?? [];
    if (!Array.isArray(overrides) || overrides.length > MAX_OVERRIDES) {
      return reject('invalid_params', `order_overrides must be an array of at most ${MAX_OVERRIDES} orders`, { field: 'order_overrides' });
    }
    const patched = readOrders(state, power, overrides, 'order_overrides');
    if (!patched.ok) return patched;
    const replaced = new Set(patched.wire.map((w) => w.origin).filter((o) => o !== undefined));
    const merged = [...candidate.orders.filter((w) => w.origin === undefined || !replaced.has(w.origin)), ...patched.wire];
    return readOrders(state, power, merged.map(wireJson), 'orders');
  }
  return readOrders(state, power, params.orders, 'orders');
}

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
