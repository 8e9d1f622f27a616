// Negotiation: validation of a `send_press` batch (messages with optional structured proposals, and the private
// strategy_intent). Everything is checked before anything is kept: one bad nested field rejects the whole batch.
import type { ActionRejection, Json, JsonObject } from '../kit/game.js';
import { fieldIssue, unknownKey } from '../kit/params.js';
import { POWERS, type Power } from './map.js';
import { pressParams } from './params.js';
import { ORDER_TYPES, VALID_LOCATION_IDS } from './wire-orders.js';

export const PRESS_MAX_CHARS = 600;
/** Messages an agent may send per negotiation round (round 1, round 2). */
export const PRESS_LIMITS = [3, 2] as const;
const PROPOSAL_KINDS = ['support', 'dmz', 'non_aggression', 'coordinated_move', 'convoy', 'information'];
const PROPOSAL_STATUSES = ['open', 'accept', 'reject', 'counter'];
const RISK = ['conservative', 'balanced', 'aggressive'];

export interface PressMessage {
  phase_key: string;
  round: number;
  from_power: Power;
  /** A power, or "global". */
  to_power: string;
  content: string;
  visibility: 'private' | 'global';
  proposal?: JsonObject;
}

export interface PressInput {
  messages: { to_power: string; content: string; proposal: JsonObject | null }[];
  strategyIntent: JsonObject | null;
}

type Read<T> = { ok: true; value: T } | { ok: false; error: ActionRejection };
const bad = (
  message: string,
  field: string,
  extra: Omit<ActionRejection, 'code' | 'message' | 'field'> = {},
): { ok: false; error: ActionRejection } => ({
  ok: false,
  error: { code: 'invalid_params', message, field, ...extra },
});

function idList(raw: unknown, field: string, allowed: readonly string[], max: number): Read<string[]> {
  if (raw === undefined) return { ok: true, value: [] };
  if (!Array.isArray(raw) || raw.length > max) return bad(`${field} must be an array of at most ${max} ids`, field);
  const out: string[] = [];
  for (const [i, v] of raw.entries()) {
    if (typeof v !== 'string' || !allowed.includes(v)) {
      return bad(`${field}[${i}] is not a valid id`, `${field}[${i}]`, {
        invalid_value: typeof v === 'string' ? v : null,
        allowed_values: [...allowed],
      });
    }
    out.push(v);
  }
  return { ok: true, value: out };
}

function orderObjects(raw: unknown, field: string): Read<JsonObject[]> {
  if (raw === undefined) return { ok: true, value: [] };
  if (!Array.isArray(raw) || raw.length > 4) return bad(`${field} must be an array of at most 4 order objects`, field);
  const out: JsonObject[] = [];
  for (const [i, v] of raw.entries()) {
    if (!v || typeof v !== 'object' || Array.isArray(v))
      return bad(`${field}[${i}] must be an order object, never a string`, `${field}[${i}]`);
    const o = v as Record<string, unknown>;
    if (typeof o.type !== 'string' || !ORDER_TYPES.movement.includes(o.type)) {
      return bad(`${field}[${i}].type must be HOLD, MOVE, SUPPORT or CONVOY`, `${field}[${i}].type`, {
        allowed_values: [...ORDER_TYPES.movement],
      });
    }
    const clean: JsonObject = { type: o.type };
    for (const key of ['origin', 'destination', 'target']) {
      if (o[key] === undefined) continue;
      if (typeof o[key] !== 'string' || !VALID_LOCATION_IDS.includes(o[key] as string)) {
        return {
          ok: false,
          error: {
            code: 'unknown_diplomacy_province',
            message: `${field}[${i}].${key} is not a province id`,
            field: `${field}[${i}].${key}`,
            invalid_value: String(o[key]),
            allowed_values: [...VALID_LOCATION_IDS],
          },
        };
      }
      clean[key] = o[key] as string;
    }
    if (o.via_convoy !== undefined) clean.via_convoy = o.via_convoy === true;
    out.push(clean);
  }
  return { ok: true, value: out };
}

function readProposal(raw: unknown, field: string, proposalIds: readonly string[]): Read<JsonObject | null> {
  if (raw === undefined || raw === null) return { ok: true, value: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) return bad(`${field} must be an object`, field);
  const p = raw as Record<string, unknown>;
  const known = new Set(['kind', 'status', 'reply_to', 'provinces', 'offers', 'requests', 'terms']);
  for (const k of Object.keys(p)) if (!known.has(k)) return bad(`${field}.${k} is not a proposal field`, `${field}.${k}`);
  if (typeof p.kind !== 'string' || !PROPOSAL_KINDS.includes(p.kind)) {
    return bad(`${field}.kind must be one of ${PROPOSAL_KINDS.join(', ')}`, `${field}.kind`, { allowed_values: PROPOSAL_KINDS });
  }
  const status = p.status === undefined ? 'open' : p.status;
  if (typeof status !== 'string' || !PROPOSAL_STATUSES.includes(status)) {
    return bad(`${field}.status must be one of ${PROPOSAL_STATUSES.join(', ')}`, `${field}.status`, { allowed_values: PROPOSAL_STATUSES });
  }
  const out: JsonObject = { kind: p.kind, status };
  if (status !== 'open') {
    if (typeof p.reply_to !== 'string' || !proposalIds.includes(p.reply_to)) {
      return bad(`${field}.reply_to must be a proposal_id from valid_proposal_ids`, `${field}.reply_to`, {
        allowed_values: [...proposalIds],
      });
    }
    out.reply_to = p.reply_to;
  }
  const provinces = idList(p.provinces, `${field}.provinces`, VALID_LOCATION_IDS, 8);
  if (!provinces.ok) return provinces;
  out.provinces = provinces.value;
  for (const key of ['offers', 'requests'] as const) {
    const list = orderObjects(p[key], `${field}.${key}`);
    if (!list.ok) return list;
    out[key] = list.value;
  }
  if (p.terms !== undefined) {
    if (typeof p.terms !== 'string' || [...p.terms].length > 400)
      return bad(`${field}.terms must be a string of at most 400 characters`, `${field}.terms`);
    out.terms = p.terms;
  }
  return { ok: true, value: out };
}

function readIntent(raw: unknown, me: Power, proposalIds: readonly string[], candidateIds: readonly string[]): Read<JsonObject | null> {
  if (raw === undefined || raw === null) return { ok: true, value: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) return bad('strategy_intent must be an object', 'strategy_intent');
  const s = raw as Record<string, unknown>;
  const out: JsonObject = {};
  const others = POWERS.filter((p) => p !== me);
  for (const [k, v] of Object.entries(s)) {
    const field = `strategy_intent.${k}`;
    let read: Read<Json>;
    switch (k) {
      case 'objective':
        read =
          typeof v === 'string' && [...v].length <= 400
            ? { ok: true, value: v }
            : bad(`${field} must be a string of at most 400 characters`, field);
        break;
      case 'risk_posture':
        read =
          typeof v === 'string' && RISK.includes(v)
            ? { ok: true, value: v }
            : bad(`${field} must be conservative, balanced or aggressive`, field, { allowed_values: RISK });
        break;
      case 'priority_targets':
      case 'avoid_provinces':
      case 'dmz_provinces':
        read = idList(v, field, VALID_LOCATION_IDS, 12);
        break;
      case 'trusted_powers':
      case 'threat_powers':
        read = idList(v, field, others, 6);
        break;
      case 'accepted_proposal_ids':
      case 'rejected_proposal_ids':
        read = idList(v, field, proposalIds, 12);
        break;
      case 'planned_candidate_id':
        read =
          typeof v === 'string' && candidateIds.includes(v)
            ? { ok: true, value: v }
            : bad(`${field} must be one of valid_candidate_ids`, field, { allowed_values: [...candidateIds] });
        break;
      default:
        return bad(`${field} is not a strategy_intent field`, field);
    }
    if (!read.ok) return read;
    out[k] = read.value;
  }
  return { ok: true, value: out };
}

/** Reads a send_press payload for `me` in a round allowing `max` messages. */
export function readPress(
  params: Record<string, unknown>,
  me: Power,
  max: number,
  proposalIds: readonly string[],
  candidateIds: readonly string[],
): Read<PressInput> {
  const stray = unknownKey(pressParams(max), params);
  if (stray !== null) return bad(`${stray} is not a send_press parameter`, stray);
  const raw = params.messages ?? [];
  const shape = fieldIssue(pressParams(max), 'messages', raw);
  if (shape || !Array.isArray(raw)) {
    if (shape?.code === 'too_big' && Array.isArray(raw)) {
      return bad(`at most ${max} message(s) this round`, 'messages', { invalid_value: raw.length });
    }
    return bad('messages must be an array (use [] to pass)', 'messages');
  }
  const recipients = [...POWERS.filter((p) => p !== me), 'global'];
  const messages: PressInput['messages'] = [];
  for (const [i, m] of raw.entries()) {
    const field = `messages[${i}]`;
    if (!m || typeof m !== 'object' || Array.isArray(m)) return bad(`${field} must be an object {to_power, content}`, field);
    const o = m as Record<string, unknown>;
    const to = typeof o.to_power === 'string' ? (o.to_power.toLowerCase() === 'global' ? 'global' : o.to_power.toUpperCase()) : '';
    if (!recipients.includes(to)) {
      return bad(`${field}.to_power must be another power or "global"`, `${field}.to_power`, {
        invalid_value: typeof o.to_power === 'string' ? o.to_power : null,
        allowed_values: recipients,
      });
    }
    const content = typeof o.content === 'string' ? o.content.trim() : '';
    if (content.length === 0 || [...content].length > PRESS_MAX_CHARS) {
      return bad(`${field}.content must be 1-${PRESS_MAX_CHARS} characters`, `${field}.content`);
    }
    const proposal = readProposal(o.proposal, `${field}.proposal`, proposalIds);
    if (!proposal.ok) return proposal;
    messages.push({ to_power: to, content, proposal: proposal.value });
  }
  const intent = readIntent(params.strategy_intent, me, proposalIds, candidateIds);
  if (!intent.ok) return intent;
  return { ok: true, value: { messages, strategyIntent: intent.value } };
}
