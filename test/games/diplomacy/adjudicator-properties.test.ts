// Property tests: random legal order sets on random positions never crash the adjudicator, never leave two units in
// one province, and the result does not depend on the order in which units or orders were submitted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjudicateAdjustments } from '../../../games/diplomacy/adjustments.js';
import type { Unit } from '../../../games/diplomacy/board.js';
import { boardOptions, optionOrders } from '../../../games/diplomacy/legal-orders.js';
import { POWERS, PROVINCES, provinceOf } from '../../../games/diplomacy/map.js';
import { adjudicateMovement } from '../../../games/diplomacy/movement.js';
import { prepareMovementOrders } from '../../../games/diplomacy/movement-orders.js';
import { formatOrder, type PowerOrder, parseOrder } from '../../../games/diplomacy/orders.js';
import { adjudicateRetreats } from '../../../games/diplomacy/retreats.js';

const IDS = [...PROVINCES.keys()];

/** A random board: distinct provinces, each with a unit type and coast that may stand there. */
const position = fc
  .uniqueArray(fc.record({ p: fc.constantFrom(...IDS), power: fc.constantFrom(...POWERS), pick: fc.nat() }), {
    minLength: 2,
    maxLength: 34,
    selector: (r) => r.p,
  })
  .map((rows) =>
    rows.map(({ p, power, pick }): Unit => {
      const info = PROVINCES.get(p);
      if (!info) throw new Error(p);
      if (info.kind === 'sea') return { power, type: 'F', at: p };
      if (info.kind === 'land' || pick % 2 === 0) return { power, type: 'A', at: p };
      return { power, type: 'F', at: info.coasts.length > 0 ? (info.coasts[pick % info.coasts.length] as string) : p };
    }),
  );

const scenario = position.chain((units) =>
  fc.record({
    units: fc.constant(units),
    picks: fc.array(fc.option(fc.nat(), { nil: null, freq: 5 }), { minLength: units.length, maxLength: units.length }),
    // Now and then a second order for a unit (the unit then holds, DATC 4.D.3).
    extra: fc.array(fc.option(fc.nat(), { nil: null, freq: 8 }), { minLength: units.length, maxLength: units.length }),
    seed: fc.nat(),
  }),
);

function legalOrders(units: Unit[], picks: (number | null)[], extra: (number | null)[] = []): PowerOrder[] {
  const options = boardOptions(units);
  const orders: PowerOrder[] = [];
  units.forEach((unit, i) => {
    const pick = picks[i];
    if (pick === null || pick === undefined) return;
    const list = optionOrders(options.get(provinceOf(unit.at)) as NonNullable<ReturnType<typeof options.get>>);
    orders.push({ power: unit.power, order: list[pick % list.length] as PowerOrder['order'] });
    const second = extra[i];
    if (typeof second === 'number')
      orders.push({ power: unit.power, order: list[(pick + 1 + second) % list.length] as PowerOrder['order'] });
  });
  return orders;
}

function shuffle<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed + 1;
  for (let i = out.length - 1; i > 0; i -= 1) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function run(units: Unit[], orders: PowerOrder[]) {
  const result = adjudicateMovement(prepareMovementOrders(units, orders));
  return {
    ...result,
    rejected: [...result.rejected].map((r) => `${r.power} ${r.text}: ${r.reason}`).sort(),
    units: [...result.units].sort((a, b) => (a.at < b.at ? -1 : 1)),
  };
}

describe('adjudicator properties', () => {
  it('every legal order of the generated options is accepted by the adjudicator', () => {
    fc.assert(
      fc.property(scenario, ({ units, picks }) => {
        const orders = legalOrders(units, picks);
        const result = run(units, orders);
        expect(result.rejected.filter((r) => !r.includes('two orders'))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('random legal orders never crash, keep one unit per province, and are independent of submission order', () => {
    fc.assert(
      fc.property(scenario, ({ units, picks, extra, seed }) => {
        const orders = legalOrders(units, picks, extra);
        const a = run(units, orders);
        const b = run(shuffle(units, seed), shuffle(orders, seed + 7));
        expect(b).toEqual(a);
        // Conservation: every unit either stands somewhere (alone) or is dislodged.
        expect(a.units.length + a.dislodged.length).toBe(units.length);
        expect(new Set(a.units.map((u) => provinceOf(u.at))).size).toBe(a.units.length);
        for (const d of a.dislodged) {
          for (const loc of d.retreats) expect(a.units.some((u) => provinceOf(u.at) === provinceOf(loc))).toBe(false);
        }
        // Every dislodged unit tries its first retreat; the board stays one unit per province.
        const retreatOrders: PowerOrder[] = a.dislodged.flatMap((d) =>
          d.retreats.length > 0
            ? [
                {
                  power: d.unit.power,
                  order: { kind: 'move', unit: { type: d.unit.type, at: d.unit.at }, to: d.retreats[0] as string, viaConvoy: false },
                },
              ]
            : [],
        );
        const r = adjudicateRetreats(a.units, a.dislodged, retreatOrders);
        expect(new Set(r.units.map((u) => provinceOf(u.at))).size).toBe(r.units.length);
        expect(r.units.length + r.disbanded.length).toBe(units.length);
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary (often illegal) orders never crash the adjudicator', () => {
    const anyOrder = fc
      .record({
        power: fc.constantFrom(...POWERS),
        verb: fc.constantFrom('H', '-', 'S', 'C', 'D', 'BUILD'),
        a: fc.constantFrom(...IDS, 'SPA/NC', 'STP/SC', 'BUL/EC'),
        b: fc.constantFrom(...IDS, 'SPA/SC', 'STP/NC'),
        c: fc.constantFrom(...IDS),
        t: fc.constantFrom('A', 'F', ''),
        via: fc.boolean(),
      })
      .map(({ power, verb, a, b, c, t, via }) => {
        const u = t ? `${t} ${a}` : a;
        const text =
          verb === 'H' || verb === 'D'
            ? `${u} ${verb}`
            : verb === '-'
              ? `${u} - ${b}${via ? ' VIA CONVOY' : ''}`
              : verb === 'BUILD'
                ? `BUILD ${u}`
                : `${u} ${verb} ${c} - ${b}`;
        return { power, order: parseOrder(text) } as PowerOrder;
      });
    fc.assert(
      fc.property(position, fc.array(anyOrder, { maxLength: 40 }), fc.nat(), (units, orders, seed) => {
        const a = run(units, orders);
        const b = run(shuffle(units, seed), shuffle(orders, seed + 3));
        expect(b).toEqual(a);
        expect(a.units.length + a.dislodged.length).toBe(units.length);
        for (const r of a.rejected) expect(typeof r).toBe('string');
        expect(orders.every((o) => parseOrder(formatOrder(o.order)) !== null)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('adjustment properties', () => {
  it('random build and removal orders never crash and end with centres and units balanced as far as the rules allow', () => {
    const owners = fc.dictionary(
      fc.constantFrom(...[...PROVINCES.values()].filter((p) => p.supplyCentre).map((p) => p.id)),
      fc.constantFrom(...POWERS),
    );
    const adjustmentOrder = fc
      .record({
        power: fc.constantFrom(...POWERS),
        kind: fc.constantFrom('BUILD A', 'BUILD F', 'REMOVE A', 'REMOVE F', 'WAIVE'),
        at: fc.constantFrom(...IDS, 'STP/NC', 'SPA/SC'),
      })
      .map(({ power, kind, at }) => ({ power, order: parseOrder(kind === 'WAIVE' ? 'WAIVE' : `${kind} ${at}`) }) as PowerOrder);
    fc.assert(
      fc.property(position, owners, fc.array(adjustmentOrder, { maxLength: 30 }), (units, own, orders) => {
        const r = adjudicateAdjustments(units, own, orders);
        expect(new Set(r.units.map((u) => provinceOf(u.at))).size).toBe(r.units.length);
        for (const power of POWERS) {
          const centres = Object.values(own).filter((o) => o === power).length;
          const before = units.filter((u) => u.power === power).length;
          const after = r.units.filter((u) => u.power === power).length;
          // Removals bring a power down exactly to its centres; builds never take it above them.
          if (before > centres) expect(after).toBe(centres);
          else expect(after).toBeLessThanOrEqual(centres);
          expect(after).toBeGreaterThanOrEqual(Math.min(before, centres));
        }
      }),
      { numRuns: 300 },
    );
  });
});
