// Reading a sealed order batch: exactly one of orders, a candidate (with at most two overrides) or the server
// default, every order checked against the phase and the position before anything is sealed.
import { type ActionRejection, reject } from '../kit/game.js';
import { unknownKey } from '../kit/params.js';
import { adjudicateAdjustments } from './adjustments.js';
import { indexUnits, type Unit } from './board.js';
import type { DiplomacyState } from './game-state.js';
import { type Power, provinceOf } from './map.js';
import { checkMovementOrder } from './movement-orders.js';
import type { Order } from './orders.js';
import { BATCH_PARAMS, MAX_OVERRIDES } from './params.js';
import { type PhaseKind, readWireOrder, type WireOrder, wireJson } from './wire-orders.js';

type Batch = { ok: true; orders: Order[]; wire: WireOrder[] } | { ok: false; error: ActionRejection };

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

export function readBatch(state: DiplomacyState, power: Power, raw: Record<string, unknown>): Batch {
  // Clients (language models in particular) send null or false for the alternatives they did not choose.
  const params = Object.fromEntries(Object.entries(raw).filter(([k, v]) => v !== null && !(k === 'use_server_default' && v === false)));
  const stray = unknownKey(BATCH_PARAMS, params);
  if (stray !== null) {
    return reject('invalid_params', `${stray} is not a parameter of this action`, {
      field: stray,
      allowed_values: Object.keys(BATCH_PARAMS.shape),
    });
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
