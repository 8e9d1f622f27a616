// Coverage of the rating intervals (issues 15, 44). Two agents: exact enumeration of every outcome of n games, so the
// numbers are the coverage itself, at every true gap (not an average over a prior): at least 93% (nominal 95%) for
// every n from 2 to 100 and every gap from 0 to 800 Elo, for the Bradley–Terry and the head-to-head interval, with and
// without draws. More agents: seeded simulations of round-robins at fixed 400-Elo steps, at least 93% per agent.
// `npm run bench:coverage` prints the full tables.
import { describe, expect, it } from 'vitest';
import { exactTwoAgentCoverage, simulateCoverage, simulateFieldCoverage } from '../../../engine/core/ratings/coverage-simulation.js';
import { ratingIntervals } from '../../../engine/core/ratings/rating-intervals.js';

const gaps = Array.from({ length: 81 }, (_, i) => 10 * i);
/** Cells (n, gap) below 93%: an empty list passes, and a failure names them. */
const below = (cells: Array<{ games: number; byGap: number[] }>) =>
  cells.flatMap((c) => c.byGap.flatMap((v, g) => (v >= 0.93 ? [] : [`n=${c.games} gap=${gaps[g]}: ${(100 * v).toFixed(1)}%`])));

describe('two agents, exact enumeration', () => {
  it('covers the true rating and difference ≥ 93% at every n 2–100 and every gap 0–800 (no draws)', () => {
    const games = Array.from({ length: 99 }, (_, i) => i + 2);
    const exact = exactTwoAgentCoverage({ games, gaps });
    expect(exact.ratings).toHaveLength(99);
    expect(below(exact.ratings)).toEqual([]);
    expect(below(exact.headToHead)).toEqual([]);
    // The probabilities of all outcomes sum to 1, so a cell is a coverage, not a count: at n = 2 and a 400-Elo gap
    // only 0–2 (probability .0083) misses.
    const n2 = exact.ratings[0];
    expect(n2?.byGap[40]).toBeCloseTo(1 - (1 / (1 + 10)) ** 2, 10);
  }, 120_000);

  it('stays ≥ 93% with 30% draws (draws counted as half a win)', () => {
    const games = [2, 3, 4, 5, 6, 8, 10, 15, 20, 30];
    const exact = exactTwoAgentCoverage({ games, gaps: gaps.filter((g) => g % 50 === 0), drawRate: 0.3 });
    const cells = (xs: typeof exact.ratings) => xs.flatMap((c) => c.byGap.filter((v) => v < 0.93));
    expect(cells(exact.ratings)).toEqual([]);
    expect(cells(exact.headToHead)).toEqual([]);
  }, 120_000);

  it('reads 47–1 with a lower bound below the truth of a 400-Elo-per-side agent, not 1153–1399', () => {
    // The old Laplace interval read 1276 [1153, 1399] for an agent whose true rating is 1400 (issue 44).
    const units = [{ comparisons: [{ a: 0, b: 1, y: 1, weight: 47 }] }, { comparisons: [{ a: 0, b: 1, y: 0, weight: 1 }] }];
    const [a] = ratingIntervals(2, units, { priorWeight: 1 }).agents;
    // Clopper–Pearson on 47 of 48: [.889304, .999473] → difference [+360.3, +1310.4] → 1180.2–1655.2.
    expect(a?.lower).toBeCloseTo(1000 + 200 * Math.log10(0.8893038394068482 / (1 - 0.8893038394068482)), 4);
    expect(a?.upper).toBeCloseTo(1000 + 200 * Math.log10(0.9994726847465769 / (1 - 0.9994726847465769)), 4);
    expect(a?.upper).toBeGreaterThan(1400);
    // The point estimate stays the finite, shrunk posterior mode.
    expect(a?.rating).toBeCloseTo(1000 + 200 * Math.log10(48 / 2), 6);
  });
});

describe('four agents 400 Elo apart, simulated', () => {
  it.each([10, 30, 100, 300])(
    'covers every agent ≥ 93% at %i games',
    (games) => {
      // 300 tournaments: a cell at the nominal 95% has a standard error of 1.3%, so 93% is two of them below.
      const cell = simulateFieldCoverage({ agents: 4, step: 400, games, replicates: 300, seed: `field-ci:${games}` });
      expect(cell.perAgent).toHaveLength(4);
      for (const c of cell.perAgent) expect(c).toBeGreaterThanOrEqual(0.93);
    },
    120_000,
  );
});

describe('the prior depends only on the group that played (issue 44)', () => {
  const threeOne = (a: number, b: number) => [
    { comparisons: [{ a, b, y: 1, weight: 1 }] },
    { comparisons: [{ a, b, y: 1, weight: 1 }] },
    { comparisons: [{ a, b, y: 1, weight: 1 }] },
    { comparisons: [{ a, b, y: 0, weight: 1 }] },
  ];
  const pick = (r: ReturnType<typeof ratingIntervals>, i: number) => {
    const x = r.agents[i];
    return [x?.rating, x?.lower, x?.upper, x?.sd];
  };

  it('reads the same 3–1 with 2 agents, with 10 unplayed agents, and beside a separate 6-agent group', () => {
    const alone = ratingIntervals(2, threeOne(0, 1));
    const unplayed = ratingIntervals(12, threeOne(0, 1));
    // Agents 2–7 play a round-robin of their own, never meeting 0 or 1.
    const group = [];
    for (let a = 2; a < 8; a++)
      for (let b = a + 1; b < 8; b++) group.push({ comparisons: [{ a, b, y: (a + b) % 3 === 0 ? 0.5 : 1, weight: 1 }] });
    const beside = ratingIntervals(8, [...threeOne(0, 1), ...group]);
    for (const i of [0, 1]) {
      expect(pick(unplayed, i)).toEqual(pick(alone, i));
      expect(pick(beside, i)).toEqual(pick(alone, i));
    }
    // 2 virtual draws on the one pair: (3 + 1)/(4 + 2) → 200·log10(2) above 1000.
    expect(alone.agents[0]?.rating).toBeCloseTo(1000 + 200 * Math.log10(2), 8);
    expect(unplayed.agents[5]?.rating).toBeNaN();
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
    // 3,200 fits with their exact bounds and rank draws: allow a busy machine its time.
  }, 180_000);
});
