// Every legal order of a unit in a movement phase, built by proposing candidates and keeping those the adjudicator's
// own legality check accepts, so the options shown to players and the rules can never disagree.
import { indexUnits, type Unit, type UnitsByProvince } from './board.js';
import { canReachProvince, fleetNeighbours, isCoastal, isSea, PROVINCES, provinceOf } from './map.js';
import { checkMovementOrder } from './movement-orders.js';
import type { Order } from './orders.js';

export interface UnitOptions {
  unit: Unit;
  /** Exact locations the unit can move to without convoy. */
  moves: string[];
  /** Provinces an army can reach by convoy with the fleets now at sea (adjacent ones only with "via convoy"). */
  convoyMoves: string[];
  /** Provinces whose unit this one can support to hold. */
  supportHolds: string[];
  /** Supported moves: the moving unit's province and the destinations this unit can support it into. */
  supportMoves: { target: string; destinations: string[] }[];
  /** For a fleet at sea: armies it can convoy and where. */
  convoys: { target: string; destinations: string[] }[];
}

const COASTAL = [...PROVINCES.values()].filter((p) => p.kind === 'coast').map((p) => p.id);
const ALL = [...PROVINCES.keys()];

function legal(units: UnitsByProvince, unit: Unit, order: Order): boolean {
  return checkMovementOrder(units, { power: unit.power, order }).ok;
}

export function unitOptions(board: UnitsByProvince, unit: Unit): UnitOptions {
  const ref = { type: unit.type, at: unit.at };
  const here = provinceOf(unit.at);
  const moves: string[] = [];
  if (unit.type === 'F') {
    for (const loc of fleetNeighbours(unit.at))
      if (legal(board, unit, { kind: 'move', unit: ref, to: loc, viaConvoy: false })) moves.push(loc);
  } else {
    for (const p of ALL) {
      if (canReachProvince('A', unit.at, p) && legal(board, unit, { kind: 'move', unit: ref, to: p, viaConvoy: false })) moves.push(p);
    }
  }
  const convoyMoves =
    unit.type === 'A' && isCoastal(here)
      ? COASTAL.filter((p) => legal(board, unit, { kind: 'move', unit: ref, to: p, viaConvoy: true }))
      : [];
  const supportHolds: string[] = [];
  const supportMoves: { target: string; destinations: string[] }[] = [];
  for (const [id, other] of board) {
    if (id === here) continue;
    const target = { type: other.type, at: other.at };
    if (legal(board, unit, { kind: 'support', unit: ref, target, to: null })) supportHolds.push(id);
    const destinations = ALL.filter(
      (p) => canReachProvince(unit.type, unit.at, p) && legal(board, unit, { kind: 'support', unit: ref, target, to: p }),
    );
    if (destinations.length > 0) supportMoves.push({ target: id, destinations });
  }
  const convoys: { target: string; destinations: string[] }[] = [];
  if (unit.type === 'F' && isSea(here)) {
    for (const [id, other] of board) {
      if (other.type !== 'A' || !isCoastal(id)) continue;
      const target = { type: other.type, at: other.at };
      const destinations = COASTAL.filter((p) => legal(board, unit, { kind: 'convoy', unit: ref, target, to: p }));
      if (destinations.length > 0) convoys.push({ target: id, destinations });
    }
  }
  return { unit, moves, convoyMoves, supportHolds, supportMoves, convoys };
}

/** Options for every unit of the board, by unit province. */
export function boardOptions(units: readonly Unit[]): Map<string, UnitOptions> {
  const board = indexUnits(units);
  const out = new Map<string, UnitOptions>();
  for (const [id, unit] of board) out.set(id, unitOptions(board, unit));
  return out;
}

/** The options as orders (hold first), e.g. for random or exhaustive play. */
export function optionOrders(o: UnitOptions): Order[] {
  const unit = { type: o.unit.type, at: o.unit.at };
  const orders: Order[] = [{ kind: 'hold', unit }];
  for (const to of o.moves) orders.push({ kind: 'move', unit, to, viaConvoy: false });
  for (const to of o.convoyMoves) orders.push({ kind: 'move', unit, to, viaConvoy: true });
  for (const t of o.supportHolds) orders.push({ kind: 'support', unit, target: { type: null, at: t }, to: null });
  for (const s of o.supportMoves) {
    for (const to of s.destinations) orders.push({ kind: 'support', unit, target: { type: null, at: s.target }, to });
  }
  for (const c of o.convoys) {
    for (const to of c.destinations) orders.push({ kind: 'convoy', unit, target: { type: 'A', at: c.target }, to });
  }
  return orders;
}
