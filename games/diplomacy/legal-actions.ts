// Claw Diplomacy's legal actions: per phase, the batch action with its params (from params.ts) and the hints an
// agent plans with (legal orders, shared candidates, order schema, timeout defaults).
import type { JsonObject, LegalActionSpec } from '../kit/game.js';
import { paramsHint, paramsSchema } from '../kit/params.js';
import { activePowers, type DiplomacyState } from './game-state.js';
import { POWERS, type Power, provinceOf } from './map.js';
import { BATCH_PARAMS, pressParams } from './params.js';
import { PRESS_LIMITS } from './press.js';
import { defaultOnTimeout, proposalTargets } from './projection.js';
import { type PhaseKind, VALID_LOCATION_IDS } from './wire-orders.js';

export const ACTION_OF: Record<string, string> = {
  negotiation: 'send_press',
  movement: 'submit_orders',
  retreat: 'submit_retreats',
  adjustment: 'submit_adjustments',
};
export function seatsWaiting(state: DiplomacyState): { actors: number[]; waiting: number[] } {
  const actors = activePowers(state)
    .map((p) => state.powers.indexOf(p))
    .sort((a, b) => a - b);
  return { actors, waiting: actors.filter((s) => state.submissions[s] === null) };
}

export function candidateIds(state: DiplomacyState, power: Power): string[] {
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

const BATCH_HINT = paramsHint(BATCH_PARAMS);
const BATCH_SCHEMA = paramsSchema(BATCH_PARAMS);

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

export function legalActions(state: DiplomacyState, seat: number): LegalActionSpec[] {
  if (!seatsWaiting(state).waiting.includes(seat)) return [];
  const power = state.powers[seat] as Power;
  if (state.phase === 'negotiation') {
    const max = PRESS_LIMITS[(state.round ?? 1) - 1] ?? 0;
    return [
      {
        action: 'send_press',
        description: "Submit this negotiation round's complete message batch. Use an empty messages array to pass.",
        params: paramsHint(pressParams(max)),
        params_schema: paramsSchema(pressParams(max)),
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
      params: BATCH_HINT,
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
