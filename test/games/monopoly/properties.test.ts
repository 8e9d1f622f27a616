// Property test: random sequences of legal (and some mangled) actions never crash the rules, every refusal is a
// clean rejection that leaves the state untouched, and every state conserves money (cash plus the bank's ledger),
// keeps one owner per deed, buildings only on full unmortgaged sets built evenly, and both lockup cards accounted for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monopoly } from '../../../games/monopoly/rules.js';
import { transfer } from '../../../games/monopoly/state.js';
import { invariantProblems, seats } from './helpers.js';

const step = fc.record({
  pick: fc.nat(),
  mangle: fc.option(
    fc.record({
      key: fc.constantFrom('space_id', 'count', 'to_agent_id', 'offer_cash', 'request_space_ids'),
      value: fc.integer({ min: -3, max: 45 }),
    }),
    { freq: 3 },
  ),
  advisor: fc.boolean(),
});

/** Random (and sometimes mangled) action sequences; records every phase and event type reached in `seen`. */
function sequences(seen: Set<string>) {
  return fc.property(
    fc.nat(),
    fc.integer({ min: 2, max: 4 }),
    fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1450 }), fc.integer({ min: 1250, max: 1450 })),
    fc.array(step, { minLength: 50, maxLength: 300 }),
    (seed, n, drain, steps) => {
      let { state } = monopoly.setup(seats(n), `prop-${seed}`, { max_turns: 60 });
      // Poor tables reach debt and bankruptcy sooner; the bank's ledger records the drain.
      for (let i = 0; i < n; i++) transfer(state, i, null, drain);
      for (const s of steps) {
        const window = monopoly.window(state);
        if (!window) break;
        const seat = window.waiting[0] as number;
        const legal = monopoly.legalActions(state, seat);
        expect(legal.length).toBeGreaterThan(0);
        let action: string;
        let params: Record<string, unknown>;
        if (s.advisor) ({ action, params } = monopoly.defaultMove(state, seat));
        else {
          const spec = legal[s.pick % legal.length] as (typeof legal)[0];
          action = spec.action;
          params = { ...spec.hint.server_fallback.params };
        }
        if (s.mangle) params[s.mangle.key] = s.mangle.key.endsWith('_ids') ? [s.mangle.value] : s.mangle.value;
        const before = JSON.stringify(state);
        const result = monopoly.apply(state, seat, action, params, false);
        if (!result.ok) {
          expect(result.error.code).toMatch(/^[a-z_]+$/);
          expect(JSON.stringify(state)).toBe(before);
          // An unmangled advisor move is always legal.
          expect(s.advisor && !s.mangle).toBe(false);
          continue;
        }
        state = result.state;
        seen.add(state.phase);
        for (const e of result.events) seen.add(e.type);
        const problems = invariantProblems(state);
        if (problems.length > 0) throw new Error(`${action} ${JSON.stringify(params)}: ${problems.join('; ')}`);
      }
    },
  );
}

describe('Clawpoly invariants', () => {
  it('random action sequences never crash and conserve money and ownership', () => {
    fc.assert(sequences(new Set()), { numRuns: 40 });
  });

  it('the sequences reach trades, debt and bankruptcy (fixed seed, so coverage does not depend on luck)', () => {
    const seen = new Set<string>();
    fc.assert(sequences(seen), { numRuns: 40, seed: 2026 });
    expect([...seen]).toEqual(expect.arrayContaining(['buy', 'trade_response', 'debt', 'trade_accepted', 'management', 'bankruptcy']));
  });

  it('the advisor alone always finishes a match, and its recommendation is applied without refusal', () => {
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        let { state } = monopoly.setup(seats(4), `advisor-${seed}`, { max_turns: 80 });
        for (let i = 0; i < 3000; i++) {
          const window = monopoly.window(state);
          if (!window) break;
          const seat = window.waiting[0] as number;
          const move = monopoly.defaultMove(state, seat);
          const r = monopoly.apply(state, seat, move.action, move.params, true);
          if (!r.ok) throw new Error(`${move.action}: ${r.error.message}`);
          state = r.state;
        }
        expect(state.finished).toBe(true);
        expect(invariantProblems(state)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });
});
