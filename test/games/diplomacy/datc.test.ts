// Every test case of DATC chapter 6 (test/conformance/diplomacy/datc-cases.json), run against the adjudicator.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adjudicateAdjustments } from '../../../games/diplomacy/adjustments.js';
import type { Unit } from '../../../games/diplomacy/board.js';
import { type Power, provinceOf, type UnitType } from '../../../games/diplomacy/map.js';
import { adjudicateMovement } from '../../../games/diplomacy/movement.js';
import { prepareMovementOrders } from '../../../games/diplomacy/movement-orders.js';
import { type PowerOrder, parseOrder } from '../../../games/diplomacy/orders.js';
import { adjudicateRetreats } from '../../../games/diplomacy/retreats.js';
import { CONFORMANCE_ROOT } from '../../support/conformance.js';

type PerPower = Record<string, string[]>;
interface Options {
  include?: string[];
  exclude?: string[];
  exact?: string[];
}
interface DatcCase {
  id: string;
  title: string;
  phase: 'movement' | 'adjustment';
  units: PerPower;
  orders: PerPower;
  owners?: PerPower;
  expected: {
    moves?: string[];
    dislodged?: string[];
    illegal?: string[];
    legal?: string[];
    retreatOptions?: Record<string, Options>;
    supports?: Record<string, boolean>;
    convoys?: Record<string, boolean>;
    builds?: string[];
    removals?: string[];
  };
  retreat?: { orders: PerPower; expected: { retreats: string[]; disbanded: string[]; illegal?: string[] } };
  preference?: string;
}

const data = JSON.parse(readFileSync(path.join(CONFORMANCE_ROOT, 'diplomacy', 'datc-cases.json'), 'utf8')) as {
  cases: DatcCase[];
};

function unitsOf(perPower: PerPower): Unit[] {
  return Object.entries(perPower).flatMap(([power, list]) =>
    list.map((text) => {
      const [type, at] = text.split(' ');
      return { power: power as Power, type: type as UnitType, at: at as string };
    }),
  );
}

function ordersOf(perPower: PerPower): PowerOrder[] {
  return Object.entries(perPower).flatMap(([power, list]) => list.map((text) => ({ power: power as Power, order: parseOrder(text) })));
}

const sorted = (xs: readonly string[]) => [...xs].sort();
/** The province of the unit a rejected order named. */
function unitAt(text: string): string {
  const order = parseOrder(text);
  return order.kind === 'waive' ? '' : provinceOf(order.unit.at);
}
const rejectedProvinces = (rejected: { text: string }[]) => rejected.map((r) => unitAt(r.text));

function runMovement(c: DatcCase) {
  const units = unitsOf(c.units);
  const prepared = prepareMovementOrders(units, ordersOf(c.orders));
  const result = adjudicateMovement(prepared);
  const moves = result.moves.map((m) => {
    const target = c.expected.moves?.find((e) => e.startsWith(`${m.from}-`));
    // Expected moves name a coast only where it matters.
    return target?.includes('/') ? `${m.from}-${m.to}` : `${m.from}-${provinceOf(m.to)}`;
  });
  expect(sorted(moves), 'successful moves').toEqual(sorted(c.expected.moves ?? []));
  expect(sorted(result.dislodged.map((d) => provinceOf(d.unit.at))), 'dislodged units').toEqual(sorted(c.expected.dislodged ?? []));
  const rejected = rejectedProvinces(result.rejected);
  for (const p of c.expected.illegal ?? []) expect(rejected, `order of ${p} is illegal`).toContain(p);
  for (const p of c.expected.legal ?? []) expect(rejected, `order of ${p} is legal`).not.toContain(p);
  for (const [kind, expected] of [
    ['support', c.expected.supports],
    ['convoy', c.expected.convoys],
  ] as const) {
    for (const [p, given] of Object.entries(expected ?? {})) {
      const outcome = result.outcomes.find((o) => provinceOf(o.unit.at) === p);
      expect(outcome?.kind, `${p} executes a ${kind} order`).toBe(kind);
      expect(outcome?.success, `${kind} of ${p} ${given ? 'succeeds' : 'fails'}`).toBe(given);
    }
  }
  for (const [p, opts] of Object.entries(c.expected.retreatOptions ?? {})) {
    const d = result.dislodged.find((x) => provinceOf(x.unit.at) === p);
    expect(d, `${p} is dislodged`).toBeDefined();
    const options = d?.retreats ?? [];
    for (const loc of opts.include ?? []) expect(options, `${p} may retreat to ${loc}`).toContain(loc);
    for (const loc of opts.exclude ?? []) expect(options, `${p} may not retreat to ${loc}`).not.toContain(loc);
    if (opts.exact) expect(options).toEqual(opts.exact);
  }
  // The board after movement holds one unit per province.
  expect(new Set(result.units.map((u) => provinceOf(u.at))).size).toBe(result.units.length);
  if (c.retreat) {
    const r = adjudicateRetreats(result.units, result.dislodged, ordersOf(c.retreat.orders));
    expect(sorted(r.retreats.map((x) => `${x.from}-${provinceOf(x.to)}`)), 'retreats').toEqual(sorted(c.retreat.expected.retreats));
    expect(sorted(r.disbanded.map((u) => provinceOf(u.at))), 'disbanded').toEqual(sorted(c.retreat.expected.disbanded));
    const rejectedRetreats = rejectedProvinces(r.rejected);
    for (const p of c.retreat.expected.illegal ?? []) expect(rejectedRetreats, `retreat order of ${p}`).toContain(p);
    expect(r.units.length).toBe(result.units.length + r.retreats.length);
  }
}

function runAdjustment(c: DatcCase) {
  const units = unitsOf(c.units);
  const owners: Record<string, Power> = {};
  for (const [power, centres] of Object.entries(c.owners ?? {})) for (const sc of centres) owners[sc] = power as Power;
  const result = adjudicateAdjustments(units, owners, ordersOf(c.orders));
  const text = (u: Unit) => `${u.type} ${u.at}`;
  expect(sorted(result.builds.map(text)), 'builds').toEqual(sorted(c.expected.builds ?? []));
  expect(sorted([...result.removals, ...result.civilDisorder].map(text)), 'removals').toEqual(sorted(c.expected.removals ?? []));
}

describe('DATC chapter 6', () => {
  it('encodes every numbered case of chapter 6 (6.A.1 … 6.J.11)', () => {
    const counts: Record<string, number> = { A: 12, B: 15, C: 9, D: 34, E: 15, F: 25, G: 20, H: 16, I: 7, J: 11 };
    for (const [section, n] of Object.entries(counts)) {
      for (let i = 1; i <= n; i += 1) {
        expect(
          data.cases.some((c) => c.id === `6.${section}.${i}`),
          `6.${section}.${i}`,
        ).toBe(true);
      }
    }
    expect(data.cases.filter((c) => !c.id.includes(' ')).length).toBe(164);
  });

  for (const c of data.cases) {
    it(`${c.id} ${c.title}`, () => {
      if (c.phase === 'movement') runMovement(c);
      else runAdjustment(c);
    });
  }
});
