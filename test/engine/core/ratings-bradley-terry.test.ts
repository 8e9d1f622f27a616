// Bradley–Terry fit, bootstrap intervals and the honest rank rule (§6), against hand-computed MLEs.
import { describe, expect, it } from 'vitest';
import {
  bootstrapBradleyTerry,
  btDataFromComparisons,
  btRatings,
  fitBradleyTerry,
  honestRanks,
  type RatingUnit,
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

describe('bootstrap', () => {
  /** Three agents of clearly different strength; pairs as units: A beats C in most pairs, etc. */
  function units(): RatingUnit[] {
    const out: RatingUnit[] = [];
    const add = (a: number, b: number, aWins: number, pairs: number): void => {
      for (let i = 0; i < pairs; i++) {
        const wins = i < aWins ? 2 : i < aWins + 2 ? 1 : 0;
        const comparisons: WeightedComparison[] = [0, 1].map((g) => ({ a, b, y: g < wins ? 1 : 0, weight: 1 }));
        out.push({ stratum: 'psi', comparisons });
      }
    };
    add(0, 1, 6, 10);
    add(1, 2, 6, 10);
    add(0, 2, 8, 10);
    return out;
  }

  it('is reproducible with a seed and its interval contains the estimates', () => {
    const a = bootstrapBradleyTerry(3, units(), { seed: 'boot-1', rounds: 200 });
    const b = bootstrapBradleyTerry(3, units(), { seed: 'boot-1', rounds: 200 });
    expect(b.agents).toEqual(a.agents);
    const c = bootstrapBradleyTerry(3, units(), { seed: 'boot-2', rounds: 200 });
    expect(c.agents.map((x) => x.lower)).not.toEqual(a.agents.map((x) => x.lower));
    for (const agent of a.agents) {
      expect(agent.lower).toBeLessThanOrEqual(agent.median);
      expect(agent.median).toBeLessThanOrEqual(agent.upper);
      expect(agent.lower).toBeLessThan(agent.rating);
      expect(agent.rating).toBeLessThan(agent.upper);
    }
    expect(a.replicates).toEqual([200, 200, 200]);
    // Ratings follow the data: 0 > 1 > 2.
    expect(a.agents[0]?.rating).toBeGreaterThan(a.agents[1]?.rating as number);
    expect(a.agents[1]?.rating).toBeGreaterThan(a.agents[2]?.rating as number);
  });

  it('resamples whole units, not single games', () => {
    // Three pairs, each a win and a loss for agent 0 (a seat-swapped pair split 1–1). Resampling pairs always
    // gives 1–1 splits → both agents exactly 1000, zero-width intervals. Resampling single games would not.
    const split: RatingUnit = { stratum: 's', comparisons: [...win(0, 1), ...win(1, 0)] };
    const result = bootstrapBradleyTerry(2, [split, split, split], { seed: 'x', rounds: 50 });
    for (const agent of result.agents) {
      expect(agent.lower).toBeCloseTo(1000, 9);
      expect(agent.upper).toBeCloseTo(1000, 9);
    }
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
