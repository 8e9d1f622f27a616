// Retreat phase: each dislodged unit retreats to one of its allowed locations or is disbanded. Two or more retreats to
// one province all fail; a dislodged unit without a legal retreat order is disbanded. No supports or convoys.
import type { Unit } from './board.js';
import { province, provinceOf } from './map.js';
import type { Dislodgement } from './movement.js';
import type { RejectedOrder } from './movement-orders.js';
import { formatOrder, type PowerOrder } from './orders.js';

export interface RetreatResult {
  retreats: { from: string; to: string }[];
  disbanded: Unit[];
  rejected: RejectedOrder[];
  /** The board after the retreat phase. */
  units: Unit[];
}

/** The allowed location a written retreat destination means, if any (a fleet may omit a coast only one allows). */
function retreatTarget(d: Dislodgement, written: string): string | null {
  if (d.retreats.includes(written)) return written;
  const p = provinceOf(written);
  if (written !== p || d.unit.type === 'A') return null;
  const coasts = d.retreats.filter((loc) => provinceOf(loc) === p);
  if (coasts.length !== 1) return null;
  // Omitting the coast is fine only when the fleet could reach just one coast of that province at all.
  return province(p).coasts.length > 0 ? (coasts[0] as string) : null;
}

export function adjudicateRetreats(
  remaining: readonly Unit[],
  dislodged: readonly Dislodgement[],
  submitted: readonly PowerOrder[],
): RetreatResult {
  const rejected: RejectedOrder[] = [];
  const byProvince = new Map(dislodged.map((d) => [provinceOf(d.unit.at), d]));
  const chosen = new Map<string, Set<string>>();
  for (const po of submitted) {
    const text = formatOrder(po.order);
    const order = po.order;
    if (order.kind !== 'move' && order.kind !== 'disband') {
      rejected.push({ power: po.power, text, reason: 'only retreats and disbands are allowed in a retreat phase' });
      continue;
    }
    const from = provinceOf(order.unit.at);
    const d = byProvince.get(from);
    if (!d || d.unit.power !== po.power) {
      rejected.push({ power: po.power, text, reason: `no dislodged unit of ${po.power} in ${from}` });
      continue;
    }
    let target = 'DISBAND';
    if (order.kind === 'move') {
      const to = order.viaConvoy ? null : retreatTarget(d, order.to);
      if (!to) {
        rejected.push({ power: po.power, text, reason: `${from} cannot retreat to ${order.to}` });
        continue;
      }
      target = to;
    }
    const set = chosen.get(from) ?? new Set<string>();
    set.add(target);
    chosen.set(from, set);
  }
  const wanted = new Map<string, string>();
  for (const [from, set] of chosen) {
    if (set.size === 1) {
      const [to] = [...set];
      if (to !== 'DISBAND') wanted.set(from, to as string);
    } else rejected.push({ power: byProvince.get(from)?.unit.power ?? '', text: from, reason: 'two retreat orders' });
  }
  const count = new Map<string, number>();
  for (const to of wanted.values()) count.set(provinceOf(to), (count.get(provinceOf(to)) ?? 0) + 1);
  const units = [...remaining];
  const retreats: { from: string; to: string }[] = [];
  const disbanded: Unit[] = [];
  for (const d of [...dislodged].sort((a, b) => (a.unit.at < b.unit.at ? -1 : 1))) {
    const from = provinceOf(d.unit.at);
    const to = wanted.get(from);
    if (to !== undefined && count.get(provinceOf(to)) === 1) {
      retreats.push({ from, to });
      units.push({ ...d.unit, at: to });
    } else disbanded.push(d.unit);
  }
  return { retreats, disbanded, rejected, units };
}
