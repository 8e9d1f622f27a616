// Winter adjustments: a power with more supply centres than units builds in its unoccupied, still-owned home centres;
// one with fewer removes units. Orders are taken one by one until the allowance is used (DATC 4.D.4, 4.D.6: the
// first legal orders count). Removals not ordered follow the 2023 civil-disorder rule: units off supply centres first,
// then the farthest from an owned centre (counting every border, whatever the unit type), fleets before armies,
// then by the English province name.
import type { Unit } from './board.js';
import { anyNeighbours, canOccupy, POWERS, type Power, PROVINCES, province, provinceOf } from './map.js';
import type { RejectedOrder } from './movement-orders.js';
import { formatOrder, type PowerOrder } from './orders.js';

export interface AdjustmentResult {
  builds: Unit[];
  removals: Unit[];
  /** Removals the server chose because the power ordered too few. */
  civilDisorder: Unit[];
  rejected: RejectedOrder[];
  units: Unit[];
}

/** Supply centres minus units, per power (positive: builds allowed, negative: removals due). */
export function adjustmentDelta(units: readonly Unit[], owners: Readonly<Record<string, Power | null>>): Map<Power, number> {
  const delta = new Map<Power, number>(POWERS.map((p) => [p, 0]));
  for (const owner of Object.values(owners)) if (owner) delta.set(owner, (delta.get(owner) ?? 0) + 1);
  for (const unit of units) delta.set(unit.power, (delta.get(unit.power) ?? 0) - 1);
  return delta;
}

/** Shortest number of borders from `from` to any of `targets` (Infinity when none). */
export function distanceTo(from: string, targets: ReadonlySet<string>): number {
  if (targets.has(from)) return 0;
  const seen = new Set([from]);
  let frontier = [from];
  for (let d = 1; frontier.length > 0; d += 1) {
    const next: string[] = [];
    for (const p of frontier) {
      for (const n of anyNeighbours(p)) {
        if (seen.has(n)) continue;
        if (targets.has(n)) return d;
        seen.add(n);
        next.push(n);
      }
    }
    frontier = next;
  }
  return Number.POSITIVE_INFINITY;
}

/** The units a power in civil disorder removes first, best candidate first. */
export function removalPriority(power: Power, units: readonly Unit[], owners: Readonly<Record<string, Power | null>>): Unit[] {
  const owned = new Set(Object.entries(owners).flatMap(([sc, o]) => (o === power ? [sc] : [])));
  const rank = units
    .filter((u) => u.power === power)
    .map((u) => {
      const p = provinceOf(u.at);
      return { u, onCentre: PROVINCES.get(p)?.supplyCentre ? 1 : 0, dist: distanceTo(p, owned), name: province(p).name };
    });
  rank.sort(
    (a, b) =>
      a.onCentre - b.onCentre ||
      b.dist - a.dist ||
      (a.u.type === b.u.type ? 0 : a.u.type === 'F' ? -1 : 1) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return rank.map((r) => r.u);
}

function buildCheck(
  power: Power,
  order: Extract<PowerOrder['order'], { kind: 'build' }>,
  board: Map<string, Unit>,
  owners: Readonly<Record<string, Power | null>>,
): { ok: true; unit: Unit } | { ok: false; reason: string } {
  const p = provinceOf(order.unit.at);
  const info = province(p);
  if (info.home !== power) return { ok: false, reason: `${p} is not a home centre of ${power}` };
  if (owners[p] !== power) return { ok: false, reason: `${power} does not own ${p}` };
  if (board.has(p)) return { ok: false, reason: `${p} is occupied` };
  let type = order.unit.type;
  if (type === null) type = info.kind === 'land' ? 'A' : order.unit.at !== p ? 'F' : null;
  if (type === null) return { ok: false, reason: 'the unit type must be given for a coastal centre' };
  const at = type === 'A' ? p : order.unit.at;
  if (!canOccupy(type, at)) {
    return {
      ok: false,
      reason:
        type === 'F' && info.coasts.length > 0
          ? `the coast of ${p} must be given`
          : `a ${type === 'F' ? 'fleet' : 'army'} cannot be built in ${p}`,
    };
  }
  return { ok: true, unit: { power, type, at } };
}

export function adjudicateAdjustments(
  units: readonly Unit[],
  owners: Readonly<Record<string, Power | null>>,
  submitted: readonly PowerOrder[],
): AdjustmentResult {
  const delta = adjustmentDelta(units, owners);
  const board = new Map(units.map((u) => [provinceOf(u.at), u]));
  const builds: Unit[] = [];
  const removals: Unit[] = [];
  const rejected: RejectedOrder[] = [];
  const used = new Map<Power, number>();
  for (const po of submitted) {
    const text = formatOrder(po.order);
    const order = po.order;
    const allowance = delta.get(po.power) ?? 0;
    const done = used.get(po.power) ?? 0;
    const refuse = (reason: string) => rejected.push({ power: po.power, text, reason });
    if (order.kind === 'waive') {
      if (allowance <= done) refuse('no build left to waive');
      else used.set(po.power, done + 1);
      continue;
    }
    if (order.kind === 'build') {
      if (allowance <= done) {
        refuse(allowance <= 0 ? `${po.power} has no builds` : 'all allowed builds are already ordered');
        continue;
      }
      const check = buildCheck(po.power, order, board, owners);
      if (!check.ok) {
        refuse(check.reason);
        continue;
      }
      builds.push(check.unit);
      board.set(provinceOf(check.unit.at), check.unit);
      used.set(po.power, done + 1);
      continue;
    }
    if (order.kind === 'remove' || order.kind === 'disband') {
      if (-allowance <= done) {
        refuse(allowance >= 0 ? `${po.power} has no unit to remove` : 'all due removals are already ordered');
        continue;
      }
      const p = provinceOf(order.unit.at);
      const unit = board.get(p);
      if (!unit || unit.power !== po.power || removals.includes(unit)) {
        refuse(`no unit of ${po.power} in ${p} to remove`);
        continue;
      }
      removals.push(unit);
      used.set(po.power, done + 1);
      continue;
    }
    refuse('only builds, removals and waives are allowed in an adjustment phase');
  }
  const civilDisorder: Unit[] = [];
  for (const power of POWERS) {
    const due = -(delta.get(power) ?? 0) - (used.get(power) ?? 0);
    if ((delta.get(power) ?? 0) >= 0 || due <= 0) continue;
    const left = units.filter((u) => !removals.includes(u));
    for (const unit of removalPriority(power, left, owners).slice(0, due)) civilDisorder.push(unit);
  }
  const gone = new Set([...removals, ...civilDisorder]);
  return {
    builds,
    removals,
    civilDisorder,
    rejected,
    units: [...units.filter((u) => !gone.has(u)), ...builds],
  };
}
