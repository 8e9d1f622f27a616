// The resolver against the bare equations: on small crowded random boards, every assignment of success/failure to the
// move, support and convoy decisions is checked against DATC 5.B. When exactly one assignment is consistent, the
// resolver must find exactly it (guessing, cycles and backup rules included). Boards with zero or several consistent
// assignments are circular movement or paradoxes; there the resolver must still give every decision a result.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Unit } from '../../../games/diplomacy/board.js';
import { boardOptions, optionOrders } from '../../../games/diplomacy/legal-orders.js';
import { POWERS, PROVINCES } from '../../../games/diplomacy/map.js';
import { Resolver } from '../../../games/diplomacy/movement.js';
import { type MovementOrders, prepareMovementOrders } from '../../../games/diplomacy/movement-orders.js';
import type { PowerOrder } from '../../../games/diplomacy/orders.js';

/** A resolver whose every dependency is answered from a fixed assignment instead of being resolved. */
class FixedAssignment extends Resolver {
  constructor(
    input: MovementOrders,
    private readonly values: ReadonlyMap<string, boolean>,
  ) {
    super(input);
  }
  override resolve(id: string): boolean {
    return this.values.get(id) ?? true;
  }
}

// A crowded corner of the map (North Sea and its coasts), where convoys, supports and bounces interact.
const REGION = [
  'NTH',
  'ENG',
  'HEL',
  'SKA',
  'NWG',
  'LON',
  'YOR',
  'EDI',
  'BEL',
  'HOL',
  'DEN',
  'NWY',
  'PIC',
  'KIE',
  'WAL',
  'BRE',
  'RUH',
  'SWE',
];

const board = fc
  .uniqueArray(fc.record({ p: fc.constantFrom(...REGION), power: fc.constantFrom(...POWERS.slice(0, 4)), fleet: fc.boolean() }), {
    minLength: 3,
    maxLength: 9,
    selector: (r) => r.p,
  })
  .map((rows) =>
    rows.map(({ p, power, fleet }): Unit => {
      const kind = PROVINCES.get(p)?.kind;
      return { power, type: kind === 'sea' || (kind === 'coast' && fleet) ? 'F' : 'A', at: p };
    }),
  );

describe('resolver against the equations', () => {
  it('finds the unique consistent resolution whenever there is one', () => {
    let unique = 0;
    let ambiguous = 0;
    fc.assert(
      fc.property(board, fc.array(fc.nat(), { minLength: 9, maxLength: 9 }), (units, picks) => {
        const options = boardOptions(units);
        const orders: PowerOrder[] = units.map((u, i) => {
          const list = optionOrders(options.get(u.at) as NonNullable<ReturnType<typeof options.get>>);
          // Busy boards: mostly moves (rings and swaps make cycles), then convoys and supports, rarely a hold.
          const pick = picks[i] as number;
          const byKind = (k: string) => list.filter((o) => o.kind === k);
          const kinds = [byKind('move'), byKind('move'), byKind('move'), byKind('convoy'), byKind('convoy'), byKind('support'), list];
          const pool = kinds.filter((k) => k.length > 0)[pick % kinds.filter((k) => k.length > 0).length] as PowerOrder['order'][];
          return { power: u.power, order: pool[Math.floor(pick / 7) % pool.length] as PowerOrder['order'] };
        });
        const input = prepareMovementOrders(units, orders);
        const ids = [...input.orders].filter(([, o]) => o.kind !== 'hold').map(([id]) => id);
        const consistent: Map<string, boolean>[] = [];
        for (let mask = 0; mask < 1 << ids.length; mask++) {
          const values = new Map(ids.map((id, i) => [id, (mask & (1 << i)) !== 0]));
          const fixed = new FixedAssignment(input, values);
          if (ids.every((id) => fixed.adjudicate(id) === values.get(id))) consistent.push(values);
        }
        const resolver = new Resolver(input);
        const resolved = new Map(ids.map((id) => [id, resolver.resolve(id)]));
        if (consistent.length === 1) {
          unique++;
          expect(resolved).toEqual(consistent[0]);
        } else ambiguous++;
      }),
      { numRuns: 400 },
    );
    // Most boards have one consistent resolution (circular movement and paradoxes are rare here; DATC 6.C and 6.F
    // pin those down).
    expect(unique).toBeGreaterThan(300);
    expect(unique + ambiguous).toBe(400);
  });
});
