// Bradley–Terry fit, posterior intervals and the honest rank rule (§6), against hand-computed MLEs.
import { describe, expect, it } from 'vitest';
import {
  btDataFromComparisons,
  btRatings,
  fitBradleyTerry,
  honestRanks,
  ratingIntervals,
  unboundedSides,
  type WeightedComparison,
} from '../../../engine/core/ratings/index.js';

const win = (a: number, b: number, times = 1, weight = 1): WeightedComparison[] =>
  Array.from({ length: times }, () => ({ a, b, y: 1, weight }));
const draw = (a: number, b: number): WeightedComparison => ({ a, b, y: 0.5, weight: 1 });

describe('Bradley–Terry MLE', () => {
  it('recovers strengths 4:2:1 from consistent data (no prior)', () => {
    // A beats B 2 of 3, B beats C 2 of 3, A beats C 4 of 5. Strengths π = 10^r with πA:πB:πC = 4:2:1 give
    // P(A>B) = 4/6 = 2/3, P(B>C) = 2/3, P(A>C) = 4/5 — exactly the observed shares, so they are the MLE
    // (the score equations Σ n·p = wins hold). log10: A .60206, B .30103, C 0; centred: ±.30103.
    // R = 400·r + 1000 → A 1000 + 120.412 = 1120.412, B 1000, C 879.588.
    const comparisons = [...win(0, 1, 2), ...win(1, 0), ...win(1, 2, 2), ...win(2, 1), ...win(0, 2, 4), ...win(2, 0)];
    const fit = fitBradleyTerry(btDataFromComparisons(3, comparisons), { priorDraws: 0 });
    expect(fit.converged).toBe(true);
    const r = btRatings(fit);
    expect(r[0]).toBeCloseTo(1120.412, 3);
    expect(r[1]).toBeCloseTo(1000, 6);
    expect(r[2]).toBeCloseTo(879.588, 3);
  });

  it('keeps an unbeaten agent finite with the 2-virtual-draw prior', () => {
    // A beat B once, B beat C once, A beat C 3 times; A never loses.
    // With 2 virtual draws per met pair: A–B s = 1 + 1 = 2 of n = 3; B–C 2 of 3; A–C 3 + 1 = 4 of 5.
    // Same shares as above → same MLE: 1120.412, 1000, 879.588.
    const comparisons = [...win(0, 1), ...win(1, 2), ...win(0, 2, 3)];
    const r = btRatings(fitBradleyTerry(btDataFromComparisons(3, comparisons)));
    expect(r[0]).toBeCloseTo(1120.412, 3);
    expect(r[1]).toBeCloseTo(1000, 6);
    expect(r[2]).toBeCloseTo(879.588, 3);
    // Without the prior the MLE does not exist: the fit does not converge.
    expect(fitBradleyTerry(btDataFromComparisons(3, comparisons), { priorDraws: 0 }).converged).toBe(false);
  });

  it('counts a draw as half a win and honours weights', () => {
    // A vs B: 1 win + 1 draw → s = 1.5 of 2 → P = .75 → πA/πB = 3 → ΔR = 400·log10 3 = 190.849 → 1095.424 / 904.576.
    const r = btRatings(fitBradleyTerry(btDataFromComparisons(2, [...win(0, 1), draw(0, 1)]), { priorDraws: 0 }));
    expect(r[0]).toBeCloseTo(1095.424, 3);
    expect(r[1]).toBeCloseTo(904.576, 3);
    // One comparison of weight 3 equals three of weight 1: with a loss of weight 1, P = 3/4 again.
    const weighted = btRatings(fitBradleyTerry(btDataFromComparisons(2, [...win(0, 1, 1, 3), ...win(1, 0)]), { priorDraws: 0 }));
    expect(weighted[0]).toBeCloseTo(1095.424, 3);
  });

  it('fits each connected component on its own scale and leaves absent agents unrated', () => {
    // {0,1} and {2,3} never meet; agent 4 never plays. Each component is centred on 1000.
    // 0 vs 1: 2 wins + 2 virtual draws → s = 3 of 4 → ΔR = 190.849 → 1095.424 / 904.576.
    const data = btDataFromComparisons(5, [...win(0, 1, 2), ...win(3, 2, 2)]);
    const fit = fitBradleyTerry(data);
    expect(fit.component).toEqual([0, 0, 1, 1, -1]);
    const r = btRatings(fit);
    expect(r[0]).toBeCloseTo(1095.424, 3);
    expect(r[3]).toBeCloseTo(1095.424, 3);
    expect((r[0] as number) + (r[1] as number)).toBeCloseTo(2000, 9);
    expect(r[4]).toBeNaN();
  });

  it('shifts the anchor agent’s component to the anchor rating', () => {
    const fit = fitBradleyTerry(btDataFromComparisons(2, [...win(0, 1), draw(0, 1)]), { priorDraws: 0 });
    // Anchor agent 1 at 1500: 904.576 → 1500 is a shift of 595.424, so agent 0 → 1690.849.
    const r = btRatings(fit, { agent: 1, rating: 1500 });
    expect(r[1]).toBeCloseTo(1500, 9);
    expect(r[0]).toBeCloseTo(1690.849, 3);
  });
});

describe('posterior rating intervals', () => {
  it('gives a 2–0 record a hand-computed lower bound and no upper bound', () => {
    // Two agents, 2 virtual draws: s = 3 of 4 → ΔR = 190.849 → 1095.424 / 904.576 (as above).
    // Information at p = .75: (ln 10)²·4·.75·.25 = 3.976424; with B pinned, Var(x_A) = 1/3.976424; centred
    // r_A = x_A/2 → Var = .0628706 → sd = 400·√.0628706 = 100.296 Elo (the posterior sd, kept for the ranks).
    // The interval is Clopper–Pearson on A's 2 of 2 (issue 44), not the prior's: p ≥ .025^(1/2) = .158114 →
    // difference ≥ 400·log10(.158114/.841886) = −290.51 → A ≥ 854.743; A never lost, so no upper bound (+∞), and
    // B has no lower bound; B's upper = 1145.257.
    const result = ratingIntervals(2, [{ comparisons: win(0, 1, 2) }]);
    const [a, b] = result.agents;
    expect(a?.rating).toBeCloseTo(1095.424, 3);
    expect(a?.sd).toBeCloseTo(100.296, 3);
    expect(a?.lower).toBeCloseTo(854.743, 3);
    expect(a?.upper).toBe(Number.POSITIVE_INFINITY);
    expect(b?.lower).toBe(Number.NEGATIVE_INFINITY);
    expect(b?.upper).toBeCloseTo(1145.257, 3);
    // Placed by rating (1, 2); the intervals overlap, so either could be first: range 1–2 for both.
    expect(result.agents.map((x) => [x.rank, x.rankRange])).toEqual([
      [1, [1, 2]],
      [2, [1, 2]],
    ]);
  });

  it('narrows with data and separates clearly different agents', () => {
    // A beats B 2:1, B beats C 2:1, A beats C 4:1 (strengths 4:2:1), repeated 30 times.
    const once = [...win(0, 1, 2), ...win(1, 0), ...win(1, 2, 2), ...win(2, 1), ...win(0, 2, 4), ...win(2, 0)];
    const few = ratingIntervals(3, [{ comparisons: once }]);
    const many = ratingIntervals(
      3,
      Array.from({ length: 30 }, () => ({ comparisons: once })),
    );
    for (const r of [few, many]) {
      for (const agent of r.agents) {
        expect(Number.isFinite(agent.lower) && Number.isFinite(agent.upper)).toBe(true);
        expect(agent.lower).toBeLessThan(agent.rating);
        expect(agent.rating).toBeLessThan(agent.upper);
      }
    }
    // 30× the data: about √30 ≈ 5.5× narrower, a little more since the exact interval of 12 games is also skewed.
    const width = (r: typeof few, i: number) => (r.agents[i]?.upper as number) - (r.agents[i]?.lower as number);
    expect(width(few, 0) / width(many, 0)).toBeGreaterThan(4.5);
    expect(width(few, 0) / width(many, 0)).toBeLessThan(7.5);
    // With 30 repetitions the MLE (1120.4 / 1000 / 879.6) is barely shrunk and all three are separated.
    expect(many.agents[0]?.rating).toBeCloseTo(1120, -1);
    expect(many.agents.map((x) => [x.rank, x.rankRange])).toEqual([
      [1, [1, 1]],
      [2, [2, 2]],
      [3, [3, 3]],
    ]);
    // One round of games: placed in the order of the ratings, every place still possible.
    expect(few.agents.map((x) => [x.rank, x.rankRange])).toEqual([
      [1, [1, 3]],
      [2, [1, 3]],
      [3, [1, 3]],
    ]);
  });

  it('opens the side of every agent a chain of wins leaves unbounded', () => {
    // A beat B, B beat C, C never won: A is open above, C open below, and B both ways ({A, B} never lost to C, and
    // {B, C} never beat A, so either group can drift away from the rest).
    const result = ratingIntervals(3, [{ comparisons: [...win(0, 1), ...win(1, 2)] }]);
    const open = unboundedSides(btDataFromComparisons(3, [...win(0, 1), ...win(1, 2)]), result.fit.component);
    expect(open).toEqual([
      { below: false, above: true },
      { below: true, above: true },
      { below: true, above: false },
    ]);
    expect(result.agents[1]?.lower).toBe(Number.NEGATIVE_INFINITY);
    expect(result.agents[1]?.upper).toBe(Number.POSITIVE_INFINITY);
    // One loss of A to C closes the cycle: everything is bounded.
    const cyc = unboundedSides(btDataFromComparisons(3, [...win(0, 1), ...win(1, 2), ...win(2, 0)]), result.fit.component);
    expect(cyc.every((x) => !x.above && !x.below)).toBe(true);
  });

  it('never turns the prior off', () => {
    const result = ratingIntervals(2, [{ comparisons: win(0, 1, 5) }], { priorDraws: 0 });
    expect(result.priorDraws).toBe(1);
    expect(Number.isFinite(result.agents[0]?.rating)).toBe(true);
  });
});

describe('honest rank rule', () => {
  it('ranks an agent below only the agents whose interval lies wholly above it', () => {
    // A [1100, 1200], B [1050, 1150], C [900, 1000], D [950, 1060].
    // A: no lower bound above 1200 → 1. B: none above 1150 (A's 1100 is not) → 1.
    // C: lower bounds above 1000: A 1100, B 1050 → rank 3. D: above 1060: A 1100 only → rank 2.
    // Worst ranks: A: intervals wholly below 1100: C (1000), D (1060) → 4 − 2 = 2; B: below 1050: C → 3;
    // C: none below 900 → 4; D: none below 950 → 4.
    const ranks = honestRanks([
      { lower: 1100, upper: 1200, component: 0 },
      { lower: 1050, upper: 1150, component: 0 },
      { lower: 900, upper: 1000, component: 0 },
      { lower: 950, upper: 1060, component: 0 },
    ]);
    expect(ranks.map((r) => r.rank)).toEqual([1, 1, 3, 2]);
    expect(ranks.map((r) => r.rankRange)).toEqual([
      [1, 2],
      [1, 3],
      [3, 4],
      [2, 4],
    ]);
  });

  it('ranks within a component only', () => {
    const ranks = honestRanks([
      { lower: 1100, upper: 1200, component: 0 },
      { lower: 900, upper: 1000, component: 1 },
      { lower: Number.NaN, upper: Number.NaN, component: -1 },
    ]);
    expect(ranks.map((r) => r.rank)).toEqual([1, 1, 0]);
  });
});

describe('rank ranges from the joint posterior (issue 16)', () => {
  it('does not rank an agent that lost every game first once the games rule it out jointly', () => {
    // A and B each beat C; A and B have not met. Two losses leave C's best rank open; four (two to each) do not:
    // being first would need C to beat both, which the §6.4 whole-interval rule could never see (both of A's sides
    // are open, so no interval lies wholly above C's).
    const early = ratingIntervals(3, [{ comparisons: [...win(0, 2), ...win(1, 2)] }]);
    expect(early.agents.map((a) => [a.rank, a.rankRange])).toEqual([
      [1, [1, 3]],
      [1, [1, 3]],
      [3, [1, 3]],
    ]);
    const later = ratingIntervals(3, [{ comparisons: [...win(0, 2, 2), ...win(1, 2, 2)] }]);
    expect(later.agents[0]?.lower).toBe(Number.NEGATIVE_INFINITY);
    expect(honestRanks(later.agents).map((r) => r.rank)).toEqual([1, 1, 1]);
    expect(later.agents.map((a) => [a.rank, a.rankRange])).toEqual([
      [1, [1, 3]],
      [1, [1, 3]],
      [3, [2, 3]],
    ]);
  });

  it('is deterministic and leaves agents without games unranked', () => {
    const units = [{ comparisons: [...win(0, 1, 3), ...win(1, 0)] }];
    const a = ratingIntervals(3, units).agents.map((x) => x.rankRange);
    const b = ratingIntervals(3, units).agents.map((x) => x.rankRange);
    expect(a).toEqual(b);
    expect(a[2]).toEqual([0, 0]);
  });
});
