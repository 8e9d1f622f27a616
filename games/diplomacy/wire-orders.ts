// Structured wire orders (`{type: "MOVE", origin, destination, via_convoy}` …) to and from the adjudicator's orders,
// with the field-level rejections the agent contract asks for (field, invalid_value, allowed_values).
import type { ActionRejection, Json, JsonObject } from '../kit/game.js';
import type { Unit } from './board.js';
import { isProvince, provinceOf, type UnitType } from './map.js';
import type { Order } from './orders.js';

export type PhaseKind = 'movement' | 'retreat' | 'adjustment';

export const ORDER_TYPES: Record<PhaseKind, readonly string[]> = {
  movement: ['HOLD', 'MOVE', 'SUPPORT', 'CONVOY'],
  retreat: ['RETREAT', 'DISBAND'],
  adjustment: ['BUILD', 'DISBAND', 'WAIVE'],
};

/** Every id an order may name: the 75 provinces and the six named coasts. */
export const VALID_LOCATION_IDS: readonly string[] = [
  ...[
    'ADR AEG ALB ANK APU ARM BAL BAR BEL BER BLA BOH BOT BRE BUD BUL BUR CLY CON DEN EAS EDI ENG FIN GAL GAS GRE HEL HOL ION',
    'IRI KIE LON LVN LVP LYO MAO MAR MOS MUN NAF NAO NAP NTH NWG NWY PAR PIC PIE POR PRU ROM RUH RUM SER SEV SIL SKA SMY SPA',
    'STP SWE SYR TRI TUN TUS TYR TYS UKR VEN VIE WAL WAR WES YOR',
  ]
    .join(' ')
    .split(' '),
];
const COAST_IDS = ['BUL/EC', 'BUL/SC', 'SPA/NC', 'SPA/SC', 'STP/NC', 'STP/SC'];

type Read<T> = { ok: true; value: T } | { ok: false; error: ActionRejection };

function fail(code: string, message: string, extra: Omit<ActionRejection, 'code' | 'message'> = {}): { ok: false; error: ActionRejection } {
  return { ok: false, error: { code, message, ...extra } };
}

function readLocation(raw: unknown, field: string, required: boolean): Read<string | null> {
  if (raw === undefined || raw === null) {
    return required ? fail('invalid_params', `${field} is required`, { field }) : { ok: true, value: null };
  }
  if (typeof raw !== 'string') return fail('invalid_params', `${field} must be a province id`, { field, invalid_value: String(raw) });
  const id = raw
    .trim()
    .toUpperCase()
    .replace(/\((\w+)\)$/, '/$1');
  if (!isProvince(provinceOf(id)) || (id.includes('/') && !COAST_IDS.includes(id))) {
    return fail('unknown_diplomacy_province', `unknown province id ${JSON.stringify(raw)}; use the upper-case ids of valid_province_ids`, {
      field,
      invalid_value: raw,
      allowed_values: [...VALID_LOCATION_IDS],
    });
  }
  return { ok: true, value: id };
}

export interface WireOrder {
  type: string;
  origin?: string;
  destination?: string;
  target?: string;
  via_convoy?: boolean;
  unit_type?: UnitType;
}

/** Reads one wire order object into an adjudicator order for the given phase. */
export function readWireOrder(
  raw: unknown,
  field: string,
  phase: PhaseKind,
  units: ReadonlyMap<string, Unit>,
): Read<{ order: Order; origin: string | null; wire: WireOrder }> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return fail('invalid_params', `${field} must be an order object such as {"type": "HOLD", "origin": "PAR"}`, { field });
  }
  const o = raw as Record<string, unknown>;
  const type = typeof o.type === 'string' ? o.type.trim().toUpperCase() : '';
  const allowed = ORDER_TYPES[phase];
  if (!allowed.includes(type)) {
    return fail('invalid_params', `${field}.type must be one of ${allowed.join(', ')} in a ${phase} phase`, {
      field: `${field}.type`,
      invalid_value: typeof o.type === 'string' ? o.type : null,
      allowed_values: [...allowed],
    });
  }
  if (type === 'WAIVE') return { ok: true, value: { order: { kind: 'waive' }, origin: null, wire: { type } } };
  if (type === 'BUILD') {
    const dest = readLocation(o.destination ?? o.origin, `${field}.destination`, true);
    if (!dest.ok) return dest;
    const unitType = typeof o.unit_type === 'string' ? o.unit_type.trim().toUpperCase() : '';
    if (unitType !== 'A' && unitType !== 'F') {
      return fail('invalid_params', `${field}.unit_type must be A or F`, {
        field: `${field}.unit_type`,
        invalid_value: typeof o.unit_type === 'string' ? o.unit_type : null,
        allowed_values: ['A', 'F'],
      });
    }
    const at = dest.value as string;
    return {
      ok: true,
      value: { order: { kind: 'build', unit: { type: unitType, at } }, origin: null, wire: { type, unit_type: unitType, destination: at } },
    };
  }
  const originRead = readLocation(o.origin, `${field}.origin`, true);
  if (!originRead.ok) return originRead;
  const origin = provinceOf(originRead.value as string);
  const unit = units.get(origin);
  if (!unit) {
    return fail('invalid_params', `${field}.origin: you have no ${phase === 'retreat' ? 'dislodged unit' : 'unit'} in ${origin}`, {
      field: `${field}.origin`,
      invalid_value: origin,
      allowed_values: [...units.keys()],
    });
  }
  const ref = { type: unit.type, at: unit.at };
  if (type === 'HOLD') return { ok: true, value: { order: { kind: 'hold', unit: ref }, origin, wire: { type, origin } } };
  if (type === 'DISBAND') {
    const order: Order = phase === 'adjustment' ? { kind: 'remove', unit: ref } : { kind: 'disband', unit: ref };
    return { ok: true, value: { order, origin, wire: { type, origin } } };
  }
  const dest = readLocation(o.destination, `${field}.destination`, type !== 'SUPPORT');
  if (!dest.ok) return dest;
  if (type === 'MOVE' || type === 'RETREAT') {
    const via = o.via_convoy === true;
    if (o.via_convoy !== undefined && typeof o.via_convoy !== 'boolean') {
      return fail('invalid_params', `${field}.via_convoy must be a boolean`, { field: `${field}.via_convoy` });
    }
    const to = dest.value as string;
    const wire: WireOrder = { type, origin, destination: to };
    if (via) wire.via_convoy = true;
    return { ok: true, value: { order: { kind: 'move', unit: ref, to, viaConvoy: via && type === 'MOVE' }, origin, wire } };
  }
  const targetRead = readLocation(o.target, `${field}.target`, true);
  if (!targetRead.ok) return targetRead;
  const target = targetRead.value as string;
  if (type === 'SUPPORT') {
    const to = dest.value !== null && provinceOf(dest.value) !== provinceOf(target) ? dest.value : null;
    const wire: WireOrder = { type, origin, target: provinceOf(target) };
    if (to) wire.destination = to;
    return { ok: true, value: { order: { kind: 'support', unit: ref, target: { type: null, at: target }, to }, origin, wire } };
  }
  const to = dest.value as string;
  return {
    ok: true,
    value: {
      order: { kind: 'convoy', unit: ref, target: { type: 'A', at: target }, to },
      origin,
      wire: { type, origin, target: provinceOf(target), destination: provinceOf(to) },
    },
  };
}

/** The wire form of an adjudicator order (for candidates and public order lists). */
export function toWire(order: Order): WireOrder {
  switch (order.kind) {
    case 'hold':
      return { type: 'HOLD', origin: provinceOf(order.unit.at) };
    case 'move': {
      const w: WireOrder = { type: 'MOVE', origin: provinceOf(order.unit.at), destination: order.to };
      if (order.viaConvoy) w.via_convoy = true;
      return w;
    }
    case 'support': {
      const w: WireOrder = { type: 'SUPPORT', origin: provinceOf(order.unit.at), target: provinceOf(order.target.at) };
      if (order.to) w.destination = order.to;
      return w;
    }
    case 'convoy':
      return { type: 'CONVOY', origin: provinceOf(order.unit.at), target: provinceOf(order.target.at), destination: order.to };
    case 'disband':
    case 'remove':
      return { type: 'DISBAND', origin: provinceOf(order.unit.at) };
    case 'build':
      return { type: 'BUILD', unit_type: order.unit.type ?? 'A', destination: order.unit.at };
    case 'waive':
      return { type: 'WAIVE' };
  }
}

/** A retreat is a move on the wire of the retreat phase. */
export function toRetreatWire(order: Order): WireOrder {
  const w = toWire(order);
  return w.type === 'MOVE' ? { type: 'RETREAT', origin: w.origin, destination: w.destination } : w;
}

export function wireJson(w: WireOrder): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(w)) if (v !== undefined) out[k] = v as Json;
  return out;
}
