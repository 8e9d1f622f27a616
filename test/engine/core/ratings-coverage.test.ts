// Coverage of the rating intervals (issue 15): tournaments between agents with known Bradley–Terry strengths, from
// 2 to 1,000 games, perfect records included; the nominal 95% intervals must contain the true ratings in 93–99% of
// cases at every size. Seeded, so the result is fixed; `npm run bench:coverage -- --replicates=10000` reruns it larger.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZES, simulateCoverage } from '../../../engine/core/ratings/coverage-simulation.js';

/** The sizes whose coverage falls outside 93–99% (an empty list passes, and a failure names the sizes). */
const outside = (cells: Array<{ games: number; coverage: number }>) => cells.filter((c) => !(c.coverage >= 0.93 && c.coverage <= 0.99));

describe('rating interval coverage', () => {
  it('covers the true Bradley–Terry ratings 93–99% of the time at every size', () => {
    const rows = simulateCoverage({ sizes: DEFAULT_SIZES, replicates: 1000, seed: 'coverage-ci' });
    expect(rows.map((r) => r.games)).toEqual([...DEFAULT_SIZES]);
    for (const row of rows) expect(row.intervals).toBeGreaterThanOrEqual(2000);
    expect(outside(rows.map((r) => ({ games: r.games, coverage: r.coverage })))).toEqual([]);
    // Small tournaments are full of perfect records: the case the old bootstrap collapsed on.
    expect(rows[0]?.perfectRecords).toBeGreaterThan(200);
    expect(rows.find((r) => r.games === 10)?.perfectRecords).toBeGreaterThan(50);
  });

  it('covers the true head-to-head Elo difference 93–99% of the time at every size', () => {
    const rows = simulateCoverage({ sizes: DEFAULT_SIZES, replicates: 1000, seed: 'coverage-ci-h2h', agentCounts: [2] });
    for (const row of rows) expect(row.headToHead.intervals).toBe(1000);
    expect(outside(rows.map((r) => ({ games: r.games, coverage: r.headToHead.coverage })))).toEqual([]);
  });
});

describe('rank range coverage (issue 16)', () => {
  it('holds the true rank in the range at least 95% of the time when strengths differ', () => {
    // 3, 4 or 6 agents with rating SD 100–400 Elo; the true rank is 1 + the agents truly stronger.
    const rows = simulateCoverage({
      sizes: [5, 20, 100, 500],
      replicates: 200,
      seed: 'rank-coverage-ci',
      agentCounts: [3, 4, 6],
      spreads: [100, 200, 400],
      ranks: true,
    });
    for (const row of rows) expect(row.ranks.checked).toBeGreaterThanOrEqual(600);
    expect(rows.filter((r) => !(r.ranks.coverage >= 0.95)).map((r) => r.games)).toEqual([]);
  });
});
