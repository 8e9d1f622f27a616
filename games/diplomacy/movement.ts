// Movement adjudication: the DATC 5.B equations (attack, hold, defend and prevent strength; support cut; convoy
// path) solved by Kruijswijk's guess-and-check resolver. A dependency cycle with exactly one consistent resolution
// takes it; with none or two, the backup rule applies: a cycle of moves only is circular movement (all succeed);
// a cycle through a convoy is a convoy paradox, settled by the Szykman rule (the convoying fleets in it hold).
import type { Unit } from './board.js';
import { armyNeighbours, convoyReachable, fleetNeighbours, provinceOf } from './map.js';
import { type Effective, type MovementOrders, orderText, type RejectedOrder } from './movement-orders.js';

type Move = Extract<Effective, { kind: 'move' }>;
type Support = Extract<Effective, { kind: 'support' }>;
type Convoy = Extract<Effective, { kind: 'convoy' }>;

const UNRESOLVED = 0;
const GUESSING = 1;
const RESOLVED = 2;

export interface OrderOutcome {
  power: string;
  unit: Unit;
  /** The order the unit executed, in canonical text (`A VIE H` when it had none or only illegal ones). */
  order: string;
  kind: Effective['kind'];
  /** Move: it moved. Support: it was given (not cut, matching). Convoy: the fleet was not dislodged. Hold: true. */
  success: boolean;
}

export interface Dislodgement {
  unit: Unit;
  /** Province the successful attacker came from, and whether it came by convoy (then it may be retreated into). */
  attackerFrom: string;
  attackerConvoyed: boolean;
  /** Locations the unit may retreat to. */
  retreats: string[];
}

export interface MovementResult {
  outcomes: OrderOutcome[];
  rejected: RejectedOrder[];
  /** Successful moves as `from` province → exact `to` location. */
  moves: { from: string; to: string }[];
  dislodged: Dislodgement[];
  /** Provinces left empty by a standoff (no retreat there). */
  contested: string[];
  /** Units after the moves, without the dislodged ones. */
  units: Unit[];
}

/** The DATC 5.B equations and their resolver (exported so tests can check a resolution against the bare equations). */
export class Resolver {
  private readonly state = new Map<string, number>();
  private readonly result = new Map<string, boolean>();
  private readonly deps: string[] = [];
  private readonly movesInto = new Map<string, Move[]>();
  private readonly supportsFor = new Map<string, Support[]>();

  constructor(private readonly input: MovementOrders) {
    for (const order of input.orders.values()) {
      if (order.kind === 'move') {
        const list = this.movesInto.get(order.toProvince) ?? [];
        list.push(order);
        this.movesInto.set(order.toProvince, list);
      }
    }
    for (const [id, order] of input.orders) {
      if (order.kind === 'support' && this.supportMatches(order)) {
        const key = this.supportKey(order.target, order.to);
        const list = this.supportsFor.get(key) ?? [];
        list.push(order);
        this.supportsFor.set(key, list);
      }
      if (order.kind !== 'hold') this.state.set(id, UNRESOLVED);
    }
  }

  private supportKey(target: string, to: string | null): string {
    return `${target}>${to ?? ''}`;
  }

  private orderAt(id: string): Effective | undefined {
    return this.input.orders.get(id);
  }

  /** A support is valid when the supported unit does what it supports: holds (does not move) or that exact move. */
  private supportMatches(s: Support): boolean {
    const t = this.orderAt(s.target);
    if (!t) return false;
    if (s.to === null) return t.kind !== 'move';
    return t.kind === 'move' && t.toProvince === s.to && (s.toCoast === null || t.to === s.toCoast);
  }

  private convoyMatches(c: Convoy): boolean {
    const t = this.orderAt(c.target);
    return t !== undefined && t.kind === 'move' && t.convoyed && t.toProvince === c.to;
  }

  private moves(toProvince: string): Move[] {
    return this.movesInto.get(toProvince) ?? [];
  }

  private headToHead(m: Move): Move | null {
    if (m.convoyed) return null;
    const other = this.orderAt(m.toProvince);
    if (other && other.kind === 'move' && other.toProvince === m.from && !other.convoyed) return other;
    return null;
  }

  resolve(id: string): boolean {
    const st = this.state.get(id) ?? RESOLVED;
    if (st === RESOLVED) return this.result.get(id) ?? true;
    if (st === GUESSING) {
      if (!this.deps.includes(id)) this.deps.push(id);
      return this.result.get(id) as boolean;
    }
    const old = this.deps.length;
    this.result.set(id, false);
    this.state.set(id, GUESSING);
    const first = this.adjudicate(id);
    if (this.deps.length === old) {
      this.result.set(id, first);
      this.state.set(id, RESOLVED);
      return first;
    }
    if (this.deps[old] !== id) {
      this.deps.push(id);
      this.result.set(id, first);
      return first;
    }
    this.resetDeps(old);
    this.result.set(id, true);
    this.state.set(id, GUESSING);
    const second = this.adjudicate(id);
    if (first === second) {
      this.resetDeps(old);
      this.result.set(id, first);
      this.state.set(id, RESOLVED);
      return first;
    }
    this.backupRule(old);
    return this.resolve(id);
  }

  private resetDeps(old: number): void {
    while (this.deps.length > old) this.state.set(this.deps.pop() as string, UNRESOLVED);
  }

  private backupRule(old: number): void {
    const cycle = this.deps.splice(old);
    const kinds = cycle.map((id) => this.orderAt(id)?.kind);
    if (kinds.includes('convoy')) {
      // Szykman: the convoying fleets of the paradox execute a hold order, so their convoys fail.
      for (const id of cycle) {
        if (this.orderAt(id)?.kind === 'convoy') {
          this.result.set(id, false);
          this.state.set(id, RESOLVED);
        } else this.state.set(id, UNRESOLVED);
      }
      return;
    }
    // Circular movement: every move of the cycle succeeds. (Any other cycle cannot arise on the standard map;
    // its orders would fail.)
    const allMoves = kinds.every((k) => k === 'move');
    for (const id of cycle) {
      this.result.set(id, allMoves);
      this.state.set(id, RESOLVED);
    }
  }

  /** One decision's value from the equations, asking `resolve` for every other decision it depends on. */
  adjudicate(id: string): boolean {
    const order = this.orderAt(id) as Effective;
    if (order.kind === 'move') return this.adjudicateMove(order);
    if (order.kind === 'support') return this.adjudicateSupport(order);
    if (order.kind === 'convoy') return this.adjudicateConvoy(order);
    return true;
  }

  path(m: Move): boolean {
    if (!m.convoyed) return true;
    const seas = new Set<string>();
    for (const [id, order] of this.input.orders) {
      if (order.kind === 'convoy' && order.target === m.from && this.convoyMatches(order) && this.resolve(id)) {
        seas.add(id);
      }
    }
    return convoyReachable(m.from, m.toProvince, seas);
  }

  private supportCount(m: Move, excludePower?: string): number {
    let n = 0;
    for (const s of this.supportsFor.get(this.supportKey(m.from, m.toProvince)) ?? []) {
      if (s.toCoast !== null && s.toCoast !== m.to) continue;
      if (excludePower !== undefined && s.unit.power === excludePower) continue;
      if (this.resolve(provinceOf(s.unit.at))) n += 1;
    }
    return n;
  }

  holdStrength(provinceId: string): number {
    const order = this.orderAt(provinceId);
    if (!order) return 0;
    if (order.kind === 'move') return this.resolve(provinceId) ? 0 : 1;
    let n = 1;
    for (const s of this.supportsFor.get(this.supportKey(provinceId, null)) ?? []) {
      if (this.resolve(provinceOf(s.unit.at))) n += 1;
    }
    return n;
  }

  attackStrength(m: Move): number {
    if (!this.path(m)) return 0;
    const defender = this.orderAt(m.toProvince);
    if (!defender || (defender.kind === 'move' && this.headToHead(m) === null && this.resolve(m.toProvince))) {
      return 1 + this.supportCount(m);
    }
    if (defender.unit.power === m.unit.power) return 0;
    return 1 + this.supportCount(m, defender.unit.power);
  }

  defendStrength(m: Move): number {
    return 1 + this.supportCount(m);
  }

  preventStrength(m: Move): number {
    if (!this.path(m)) return 0;
    const opponent = this.headToHead(m);
    if (opponent && this.resolve(opponent.from)) return 0;
    return 1 + this.supportCount(m);
  }

  adjudicateMove(m: Move): boolean {
    const attack = this.attackStrength(m);
    if (attack === 0) return false;
    const opponent = this.headToHead(m);
    if (opponent) {
      if (attack <= this.defendStrength(opponent)) return false;
    } else if (attack <= this.holdStrength(m.toProvince)) return false;
    for (const other of this.moves(m.toProvince)) {
      if (other !== m && attack <= this.preventStrength(other)) return false;
    }
    return true;
  }

  private adjudicateSupport(s: Support): boolean {
    if (!this.supportMatches(s)) return false;
    const here = provinceOf(s.unit.at);
    for (const m of this.moves(here)) {
      if (m.unit.power === s.unit.power) continue;
      // A unit attacked from where the support is directed cannot cut it, only dislodge it (also by convoy: 4.A.4a).
      if (s.to !== null && m.from === s.to) continue;
      if (this.path(m)) return false;
    }
    for (const m of this.moves(here)) {
      if (s.to !== null && m.from === s.to && this.resolve(m.from)) return false;
    }
    return true;
  }

  private adjudicateConvoy(c: Convoy): boolean {
    // DATC 5.D: the attacks on a convoying fleet are adjudicated in place (not resolved), so that a paradox is one
    // clean cycle between the convoy and the support it would cut.
    for (const m of this.moves(provinceOf(c.unit.at))) if (this.adjudicateMove(m)) return false;
    return true;
  }
}

/** Adjudicates a movement phase from prepared orders. */
export function adjudicateMovement(input: MovementOrders): MovementResult {
  const r = new Resolver(input);
  const ids = [...input.orders.keys()].sort();
  const outcomes: OrderOutcome[] = [];
  const moved = new Map<string, string>();
  for (const id of ids) {
    const order = input.orders.get(id) as Effective;
    const success = order.kind === 'hold' ? true : r.resolve(id);
    if (order.kind === 'move' && success) moved.set(id, order.to);
    outcomes.push({ power: order.unit.power, unit: order.unit, order: orderText(order), kind: order.kind, success });
  }
  // Where each unit ends up; a unit that stays where someone moved in is dislodged.
  const occupied = new Set<string>();
  const after: Unit[] = [];
  const dislodgedUnits: { unit: Unit; by: Move }[] = [];
  const winners = new Map<string, Move>();
  for (const id of ids) {
    const order = input.orders.get(id) as Effective;
    if (order.kind === 'move' && moved.has(id)) winners.set(order.toProvince, order);
  }
  for (const id of ids) {
    const order = input.orders.get(id) as Effective;
    const to = moved.get(id);
    if (to !== undefined) {
      after.push({ ...order.unit, at: to });
      occupied.add(provinceOf(to));
      continue;
    }
    const by = winners.get(id);
    if (by) dislodgedUnits.push({ unit: order.unit, by });
    else {
      after.push(order.unit);
      occupied.add(id);
    }
  }
  const contested = new Set<string>();
  for (const id of new Set([...input.orders.values()].flatMap((o) => (o.kind === 'move' ? [o.toProvince] : [])))) {
    if (winners.has(id) || occupied.has(id)) continue;
    const moves = [...input.orders.values()].filter((o): o is Move => o.kind === 'move' && o.toProvince === id);
    if (moves.some((m) => r.preventStrength(m) > 0)) contested.add(id);
  }
  const dislodged: Dislodgement[] = dislodgedUnits.map(({ unit, by }) => {
    const options = unit.type === 'A' ? [...armyNeighbours(provinceOf(unit.at))] : [...fleetNeighbours(unit.at)];
    const retreats = options
      .filter((loc) => {
        const p = provinceOf(loc);
        if (occupied.has(p) || contested.has(p)) return false;
        return by.convoyed || p !== by.from;
      })
      .sort();
    return { unit, attackerFrom: by.from, attackerConvoyed: by.convoyed, retreats };
  });
  return {
    outcomes,
    rejected: input.rejected,
    moves: [...moved].map(([from, to]) => ({ from, to })),
    dislodged,
    contested: [...contested].sort(),
    units: after,
  };
}
