// The server's heuristic advisor: a few deterministic candidate order sets per power and phase. Agents may pick one by
// candidate_id (patching up to two orders), `use_server_default` seals the recommended one, and the baselines use it.

import { adjustmentDelta, removalPriority } from './adjustments.js';
import type { Unit } from './board.js';
import { indexUnits } from './board.js';
import { boardOptions, type UnitOptions } from './legal-orders.js';
import { canOccupy, type Power, PROVINCES, province, provinceOf } from './map.js';
import type { Dislodgement } from './movement.js';
import type { Order } from './orders.js';

export interface Candidate {
  candidate_id: string;
  label: string;
  orders: Order[];
  score: number;
  rationale: string;
}

function centreValue(p: string, power: Power, owners: Readonly<Record<string, Power | null>>): number {
  const info = PROVINCES.get(p);
  if (!info?.supplyCentre) return 0;
  const owner = owners[p] ?? null;
  if (owner === power) return 0;
  return owner === null ? 3 : 2;
}

export function movementCandidates(
  units: readonly Unit[],
  owners: Readonly<Record<string, Power | null>>,
  power: Power,
  options: ReadonlyMap<string, UnitOptions> = boardOptions(units),
): Candidate[] {
  const mine = units.filter((u) => u.power === power).sort((a, b) => (a.at < b.at ? -1 : 1));
  if (mine.length === 0) return [];
  const hold: Order[] = mine.map((u) => ({ kind: 'hold', unit: { type: u.type, at: u.at } }));
  // Greedy expansion: each unit takes the most valuable reachable centre no other unit of ours already aims at.
  const aimed = new Set<string>();
  const targets = new Map<string, string>();
  let score = 0;
  for (const u of mine) {
    const o = options.get(provinceOf(u.at));
    let best: string | null = null;
    let bestValue = 0;
    for (const loc of o?.moves ?? []) {
      const value = centreValue(provinceOf(loc), power, owners);
      if (
        value > bestValue &&
        !aimed.has(provinceOf(loc)) &&
        !units.some((x) => x.power === power && provinceOf(x.at) === provinceOf(loc))
      ) {
        best = loc;
        bestValue = value;
      }
    }
    if (best) {
      aimed.add(provinceOf(best));
      targets.set(provinceOf(u.at), best);
      score += bestValue;
    }
  }
  const expand: Order[] = mine.map((u) => {
    const to = targets.get(provinceOf(u.at));
    return to
      ? { kind: 'move', unit: { type: u.type, at: u.at }, to, viaConvoy: false }
      : { kind: 'hold', unit: { type: u.type, at: u.at } };
  });
  // Supported expansion: idle units support a neighbour's attack when they can.
  let supported = 0;
  const backed = new Set<string>();
  const supportedOrders: Order[] = mine.map((u, i) => {
    const here = provinceOf(u.at);
    if (targets.has(here)) return expand[i] as Order;
    for (const s of options.get(here)?.supportMoves ?? []) {
      const goal = targets.get(s.target);
      if (goal && !backed.has(s.target) && s.destinations.includes(provinceOf(goal))) {
        backed.add(s.target);
        supported += 1;
        return { kind: 'support', unit: { type: u.type, at: u.at }, target: { type: null, at: s.target }, to: provinceOf(goal) };
      }
    }
    return expand[i] as Order;
  });
  const out: Candidate[] = [];
  if (supported > 0) {
    out.push({
      candidate_id: 'supported_expansion',
      label: 'Expand with support',
      orders: supportedOrders,
      score: score + supported,
      rationale: `Moves toward ${aimed.size} supply centre(s); ${supported} idle unit(s) support the attacks.`,
    });
  }
  if (aimed.size > 0) {
    out.push({
      candidate_id: 'expansion',
      label: 'Expand',
      orders: expand,
      score,
      rationale: `Each unit moves to the most valuable supply centre it can reach (${[...aimed].sort().join(', ')}).`,
    });
  }
  out.push({ candidate_id: 'hold_all', label: 'Hold everything', orders: hold, score: 0, rationale: 'Every unit holds its ground.' });
  return out;
}

export function retreatCandidates(
  dislodged: readonly Dislodgement[],
  owners: Readonly<Record<string, Power | null>>,
  power: Power,
): Candidate[] {
  const mine = dislodged.filter((d) => d.unit.power === power).sort((a, b) => (a.unit.at < b.unit.at ? -1 : 1));
  if (mine.length === 0) return [];
  const taken = new Set<string>();
  const orders: Order[] = mine.map((d) => {
    const unit = { type: d.unit.type, at: d.unit.at };
    const ranked = [...d.retreats].filter((loc) => !taken.has(provinceOf(loc)));
    ranked.sort((a, b) => centreValue(provinceOf(b), power, owners) - centreValue(provinceOf(a), power, owners) || (a < b ? -1 : 1));
    const to = ranked[0];
    if (!to) return { kind: 'disband', unit };
    taken.add(provinceOf(to));
    return { kind: 'move', unit, to, viaConvoy: false };
  });
  return [
    {
      candidate_id: 'retreat',
      label: 'Retreat',
      orders,
      score: orders.filter((o) => o.kind === 'move').length,
      rationale: 'Keeps every unit that has somewhere to go, preferring supply centres.',
    },
    {
      candidate_id: 'disband_all',
      label: 'Disband',
      orders: mine.map((d) => ({ kind: 'disband', unit: { type: d.unit.type, at: d.unit.at } })),
      score: 0,
      rationale: 'Disbands every dislodged unit.',
    },
  ];
}

/** Free home centres a power may build in now. */
export function buildSites(units: readonly Unit[], owners: Readonly<Record<string, Power | null>>, power: Power): string[] {
  const board = indexUnits(units);
  return [...PROVINCES.values()].filter((p) => p.home === power && owners[p.id] === power && !board.has(p.id)).map((p) => p.id);
}

export function adjustmentCandidates(units: readonly Unit[], owners: Readonly<Record<string, Power | null>>, power: Power): Candidate[] {
  const delta = adjustmentDelta(units, owners).get(power) ?? 0;
  if (delta > 0) {
    const sites = buildSites(units, owners, power).slice(0, delta);
    if (sites.length === 0) return [];
    const fleets = units.filter((u) => u.power === power && u.type === 'F').length;
    const armies = units.filter((u) => u.power === power && u.type === 'A').length;
    let f = fleets;
    let a = armies;
    const orders: Order[] = sites.map((p) => {
      const info = province(p);
      const fleetAt = info.coasts[0] ?? p;
      if (info.kind === 'coast' && canOccupy('F', fleetAt) && (f < a || power === 'ENGLAND')) {
        f += 1;
        return { kind: 'build', unit: { type: 'F', at: fleetAt } };
      }
      a += 1;
      return { kind: 'build', unit: { type: 'A', at: p } };
    });
    return [
      {
        candidate_id: 'build',
        label: 'Build',
        orders,
        score: orders.length,
        rationale: `Builds ${orders.length} unit(s), balancing armies and fleets.`,
      },
      { candidate_id: 'waive', label: 'Waive', orders: [{ kind: 'waive' }], score: 0, rationale: 'Builds nothing this winter.' },
    ];
  }
  if (delta < 0) {
    const remove = removalPriority(power, units, owners).slice(0, -delta);
    return [
      {
        candidate_id: 'disband',
        label: 'Disband',
        orders: remove.map((u) => ({ kind: 'remove', unit: { type: u.type, at: u.at } })),
        score: 0,
        rationale: 'Removes the units the civil-disorder rule would remove (farthest from your centres first).',
      },
    ];
  }
  return [];
}
