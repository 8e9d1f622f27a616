// From submitted movement-phase orders to one effective order per unit. An illegal order (one that could not be valid
// whatever the others order, DATC 4.E.1) is ignored, and a unit left without a legal order holds. Two different legal
// orders for one unit make it hold (DATC 4.D.3, choice c).
import { indexUnits, type Unit, type UnitsByProvince } from './board.js';
import { canReachProvince, convoyReach, convoyReachable, fleetTargets, isCoastal, isSea, province, provinceOf } from './map.js';
import { formatOrder, type PowerOrder } from './orders.js';

export type Effective =
  | { kind: 'hold'; unit: Unit }
  /** `to` is the exact target location (a coast for fleets); `convoyed` says the army takes the sea route. */
  | { kind: 'move'; unit: Unit; from: string; to: string; toProvince: string; convoyed: boolean }
  /** `to`: supported destination province, null for a support to hold; `toCoast` when the support named a coast. */
  | { kind: 'support'; unit: Unit; target: string; to: string | null; toCoast: string | null }
  | { kind: 'convoy'; unit: Unit; target: string; to: string };

export interface RejectedOrder {
  power: string;
  text: string;
  reason: string;
}

export interface MovementOrders {
  units: UnitsByProvince;
  /** Effective order by unit province. */
  orders: Map<string, Effective>;
  rejected: RejectedOrder[];
}

export type Check = { ok: true; order: Effective } | { ok: false; reason: string };

function fleetSeas(units: UnitsByProvince, except?: string): Set<string> {
  const seas = new Set<string>();
  for (const [id, unit] of units) if (unit.type === 'F' && isSea(id) && id !== except) seas.add(id);
  return seas;
}

// Legality is asked many times per board (every option of every unit): the convoy answers are cached per board.
const convoyCache = new WeakMap<UnitsByProvince, Map<string, boolean>>();

const reachCache = new WeakMap<UnitsByProvince, Map<string, Map<string, Set<string>>>>();

/** The seas whose fleets are necessary for some convoy route `from` → `to` (one search per army and board). */
function convoyCarriers(units: UnitsByProvince, from: string, to: string): ReadonlySet<string> {
  let cache = reachCache.get(units);
  if (!cache) {
    cache = new Map();
    reachCache.set(units, cache);
  }
  let reach = cache.get(from);
  if (!reach) {
    reach = convoyReach(from, fleetSeas(units));
    cache.set(from, reach);
  }
  return reach.get(to) ?? EMPTY;
}
const EMPTY: ReadonlySet<string> = new Set();

/** Whether an army could be convoyed `from` → `to` by the fleets now at sea, leaving out the one in `except`. */
function convoyPossible(units: UnitsByProvince, from: string, to: string, except?: string): boolean {
  let cache = convoyCache.get(units);
  if (!cache) {
    cache = new Map();
    convoyCache.set(units, cache);
  }
  const key = `${from}>${to}>${except ?? ''}`;
  let answer = cache.get(key);
  if (answer === undefined) {
    answer = convoyReachable(from, to, fleetSeas(units, except));
    cache.set(key, answer);
  }
  return answer;
}

/** The exact location a fleet at `from` would enter for a written destination, or a reason it cannot. */
function fleetDestination(from: string, written: string): { to: string } | { reason: string } {
  const dest = provinceOf(written);
  const info = province(dest);
  const reachable = fleetTargets(from, dest);
  if (info.kind === 'land') return { reason: 'a fleet cannot enter an inland province' };
  if (reachable.length === 0) return { reason: `${dest} is not adjacent by sea to ${from}` };
  if (info.coasts.length === 0) return { to: dest };
  if (written !== dest) {
    return reachable.includes(written) ? { to: written } : { reason: `${written} cannot be reached from ${from}` };
  }
  if (reachable.length === 1) return { to: reachable[0] as string };
  return { reason: `the coast of ${dest} must be given` };
}

/** Whether `unit` could legally move into `toProvince` without the help of the fleet in `excludeFleet`. */
function movePossible(units: UnitsByProvince, unit: Unit, toProvince: string, excludeFleet?: string): boolean {
  const from = provinceOf(unit.at);
  if (from === toProvince) return false;
  if (canReachProvince(unit.type, unit.at, toProvince)) {
    return unit.type === 'A' ? province(toProvince).kind !== 'sea' : province(toProvince).kind !== 'land';
  }
  return unit.type === 'A' && convoyPossible(units, from, toProvince, excludeFleet);
}

/** Whether a movement-phase order is legal on this board, and what it means if so. */
export function checkMovementOrder(units: UnitsByProvince, po: PowerOrder): Check {
  const power = po.power;
  const order = po.order;
  if (order.kind === 'disband' || order.kind === 'build' || order.kind === 'remove' || order.kind === 'waive') {
    return { ok: false, reason: 'not an order of the movement phase' };
  }
  const from = provinceOf(order.unit.at);
  const unit = units.get(from);
  if (!unit) return { ok: false, reason: `no unit in ${from}` };
  if (unit.power !== power) return { ok: false, reason: `the unit in ${from} belongs to ${unit.power}` };
  switch (order.kind) {
    case 'hold':
      return { ok: true, order: { kind: 'hold', unit } };
    case 'move': {
      const toProvince = provinceOf(order.to);
      if (toProvince === from) return { ok: false, reason: 'a unit cannot move to its own province' };
      if (unit.type === 'F') {
        if (order.viaConvoy) return { ok: false, reason: 'only armies can be convoyed' };
        const dest = fleetDestination(unit.at, order.to);
        if ('reason' in dest) return { ok: false, reason: dest.reason };
        return { ok: true, order: { kind: 'move', unit, from, to: dest.to, toProvince, convoyed: false } };
      }
      if (isSea(toProvince)) return { ok: false, reason: 'an army cannot enter a sea' };
      const byLand = canReachProvince('A', from, toProvince);
      const bySea = convoyPossible(units, from, toProvince);
      if (order.viaConvoy ? !bySea : !byLand && !bySea) {
        return { ok: false, reason: `no route from ${from} to ${toProvince}` };
      }
      // Whether the sea route is taken is settled once the convoy orders are known.
      return { ok: true, order: { kind: 'move', unit, from, to: toProvince, toProvince, convoyed: !byLand } };
    }
    case 'support': {
      const target = provinceOf(order.target.at);
      const supported = units.get(target);
      if (!supported) return { ok: false, reason: `no unit in ${target} to support` };
      if (target === from) return { ok: false, reason: 'a unit cannot support itself' };
      if (order.to === null) {
        if (!canReachProvince(unit.type, unit.at, target)) return { ok: false, reason: `${from} cannot reach ${target}` };
        return { ok: true, order: { kind: 'support', unit, target, to: null, toCoast: null } };
      }
      const to = provinceOf(order.to);
      if (to === from) return { ok: false, reason: 'a unit cannot support a move into its own province' };
      if (!canReachProvince(unit.type, unit.at, to)) return { ok: false, reason: `${from} cannot reach ${to}` };
      if (!movePossible(units, supported, to, unit.type === 'F' ? from : undefined)) {
        return { ok: false, reason: `the unit in ${target} cannot move to ${to}` };
      }
      let toCoast: string | null = null;
      if (order.to !== to && supported.type === 'F' && province(to).coasts.length > 0) {
        if (!fleetTargets(supported.at, to).includes(order.to)) {
          return { ok: false, reason: `the unit in ${target} cannot reach ${order.to}` };
        }
        toCoast = order.to;
      }
      return { ok: true, order: { kind: 'support', unit, target, to, toCoast } };
    }
    case 'convoy': {
      if (unit.type !== 'F' || !isSea(from)) return { ok: false, reason: 'only a fleet at sea can convoy' };
      const target = provinceOf(order.target.at);
      const army = units.get(target);
      if (army?.type !== 'A') return { ok: false, reason: `no army in ${target} to convoy` };
      const to = provinceOf(order.to);
      if (!isCoastal(target) || !isCoastal(to) || !convoyCarriers(units, target, to).has(from)) {
        return { ok: false, reason: `the fleet in ${from} is not on any convoy route from ${target} to ${to}` };
      }
      return { ok: true, order: { kind: 'convoy', unit, target, to } };
    }
  }
}

function sameEffective(a: Effective, b: Effective): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Validates and normalises the orders of a movement phase (units not ordered hold). */
export function prepareMovementOrders(unitList: readonly Unit[], submitted: readonly PowerOrder[]): MovementOrders {
  const units = indexUnits(unitList);
  const rejected: RejectedOrder[] = [];
  const legal = new Map<string, Effective[]>();
  const viaConvoy = new Set<string>();
  for (const po of submitted) {
    const check = checkMovementOrder(units, po);
    if (!check.ok) {
      rejected.push({ power: po.power, text: formatOrder(po.order), reason: check.reason });
      continue;
    }
    const id = provinceOf(check.order.unit.at);
    const list = legal.get(id) ?? [];
    if (!list.some((o) => sameEffective(o, check.order))) list.push(check.order);
    legal.set(id, list);
    if (po.order.kind === 'move' && po.order.viaConvoy) viaConvoy.add(`${id}>${provinceOf(po.order.to)}`);
  }
  const orders = new Map<string, Effective>();
  for (const [id, unit] of units) {
    const list = legal.get(id) ?? [];
    if (list.length > 1) {
      for (const o of list) rejected.push({ power: unit.power, text: orderText(o), reason: 'the unit got two orders' });
    }
    orders.set(id, list.length === 1 ? (list[0] as Effective) : { kind: 'hold', unit });
  }
  // 2023 rules: an army that could go by land takes the sea route when ordered "via convoy" or when a fleet of its
  // own power is (legally) ordered to convoy it there; no fall-back to the land route afterwards.
  for (const [id, order] of orders) {
    if (order.kind !== 'move' || order.unit.type !== 'A' || order.convoyed) continue;
    const ownConvoy = [...orders.values()].some(
      (o) => o.kind === 'convoy' && o.target === id && o.to === order.toProvince && o.unit.power === order.unit.power,
    );
    const flagged = viaConvoy.has(`${id}>${order.toProvince}`);
    if (flagged || ownConvoy) orders.set(id, { ...order, convoyed: true });
  }
  return { units, orders, rejected };
}

export function orderText(order: Effective): string {
  const u = `${order.unit.type} ${order.unit.at}`;
  switch (order.kind) {
    case 'hold':
      return `${u} H`;
    case 'move':
      return `${u} - ${order.to}${order.convoyed ? ' VIA CONVOY' : ''}`;
    case 'support':
      return `${u} S ${order.target}${order.to ? ` - ${order.toCoast ?? order.to}` : ''}`;
    case 'convoy':
      return `${u} C ${order.target} - ${order.to}`;
  }
}
