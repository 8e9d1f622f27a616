// GSPRT (§5): bounds, the constrained MLE and the LLR on crafted data, with the arithmetic in the comments.
import { describe, expect, it } from 'vitest';
import { mleForNormalizedScore, mleForScore, SPRT_PRESETS, sprtBounds, sprtLlr, sprtStatus } from '../../../engine/core/ratings/index.js';

const trinomialScores = [0, 0.5, 1];

describe('bounds', () => {
  it('are ±2.944 for alpha = beta = 0.05', () => {
    // ln(.05/.95) = −ln 19 = −2.944439; ln(.95/.05) = ln 19.
    const { lower, upper } = sprtBounds(0.05, 0.05);
    expect(lower).toBeCloseTo(-2.944439, 6);
    expect(upper).toBeCloseTo(2.944439, 6);
    // α = .05, β = .1: ln(.1/.95) = −2.251292, ln(.9/.05) = ln 18 = 2.890372.
    const asym = sprtBounds(0.05, 0.1);
    expect(asym.lower).toBeCloseTo(-2.251292, 6);
    expect(asym.upper).toBeCloseTo(2.890372, 6);
  });

  it('rejects invalid parameters', () => {
    const counts = { wins: 1, draws: 1, losses: 1 };
    expect(() => sprtStatus(counts, { elo0: 5, elo1: 5, alpha: 0.05, beta: 0.05 })).toThrow(/elo0 < elo1/);
    expect(() => sprtStatus(counts, { elo0: 0, elo1: 5, alpha: 0, beta: 0.05 })).toThrow(/alpha/);
    expect(() => sprtStatus(counts, { elo0: 0, elo1: 5, alpha: 0.6, beta: 0.5 })).toThrow(/alpha \+ beta/);
  });
});

describe('logistic GSPRT', () => {
  // Data: 30 W, 40 D, 30 L → p̂ = (L .3, D .4, W .3), score .5.
  // H0: elo0 = 0 → s0 = .5 = observed score → θ = 0, p0 = p̂.
  // H1: elo1 = 400·log10(1.5) = 70.437 → s1 = 1/(1 + 10^(−70.437/400)) = .6; a − s1 = (−.6, −.1, .4).
  // Σ p̂(a−s)/(1+θ(a−s)) = 0: −.18/(1−.6θ) − .04/(1−.1θ) + .12/(1+.4θ) = 0
  //   ⇒ −.18(1+.3θ−.04θ²) − .04(1−.2θ−.24θ²) + .12(1−.7θ+.06θ²) = 0 ⇒ .024θ² − .13θ − .10 = 0
  //   ⇒ θ = (.13 − √.0265)/.048 = −.683083 (the root inside (−1/.4, 1/.6) = (−2.5, 1.667)).
  // p1 = (.3/1.409850, .4/1.068308, .3/.726767) = (.212788, .374424, .412787).
  // LLR = 100·[.3 ln(.212788/.3) + .4 ln(.374424/.4) + .3 ln(.412787/.3)]
  //     = 100·[.3·(−.343487) + .4·(−.066077) + .3·(.319149)] = 100·(−.033732) = −3.3732 ≤ −2.944 → accept H0.
  const elo1 = 400 * Math.log10(1.5);

  it('solves the constrained MLE by hand', () => {
    const p1 = mleForScore({ scores: trinomialScores, freq: [0.3, 0.4, 0.3] }, 0.6);
    expect(p1[0]).toBeCloseTo(0.212788, 5);
    expect(p1[1]).toBeCloseTo(0.374424, 5);
    expect(p1[2]).toBeCloseTo(0.412787, 5);
    // A distribution whose mean score is the target.
    expect(p1.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect((p1[1] as number) * 0.5 + (p1[2] as number)).toBeCloseTo(0.6, 12);
  });

  it('computes the hand LLR and accepts H0', () => {
    const status = sprtStatus({ wins: 30, draws: 40, losses: 30 }, { elo0: 0, elo1, alpha: 0.05, beta: 0.05 });
    expect(status.llr).toBeCloseTo(-3.3732, 3);
    expect(status.decision).toBe('accept_h0');
    // progress = −LLR / lower = 3.3732 / −2.9444 = −1.1456.
    expect(status.progress).toBeCloseTo(-1.1456, 3);
  });

  it('is zero for data symmetric about symmetric hypotheses, positive for strong wins', () => {
    // Score .5 data, hypotheses ±20: by symmetry p0 and p1 are mirror images with equal likelihood.
    expect(sprtLlr({ wins: 30, draws: 40, losses: 30 }, { elo0: -20, elo1: 20, alpha: 0.05, beta: 0.05 })).toBeCloseTo(0, 10);
    expect(sprtLlr([5, 10, 20, 10, 5], { elo0: -20, elo1: 20, alpha: 0.05, beta: 0.05 })).toBeCloseTo(0, 10);
    // 80 W 10 D 10 L: score .85 (≈ 301 Elo), far above elo1 = 50 → LLR beyond +2.944.
    const strong = sprtStatus({ wins: 80, draws: 10, losses: 10 }, SPRT_PRESETS.standard);
    expect(strong.decision).toBe('accept_h1');
    expect(strong.progress).toBeGreaterThan(1);
    // The mirrored data accepts H0.
    expect(sprtStatus({ wins: 10, draws: 10, losses: 80 }, SPRT_PRESETS.standard).decision).toBe('accept_h0');
    // Little data stays undecided: 3 W 2 D 3 L.
    expect(sprtStatus({ wins: 3, draws: 2, losses: 3 }, SPRT_PRESETS.standard).decision).toBe('continue');
  });

  it('handles pentanomial counts and zero bins', () => {
    // Mostly WD/WW pairs: score per pair (.25·2 + .5·10 + .75·20 + 30)/63 = .802 → above 50 Elo.
    expect(sprtStatus([1, 2, 10, 20, 30], SPRT_PRESETS.standard).decision).toBe('accept_h1');
    // Zero counts are regularised to .001, so the LLR stays finite.
    expect(Number.isFinite(sprtLlr({ wins: 4, draws: 0, losses: 0 }, SPRT_PRESETS.smoke))).toBe(true);
  });
});

describe('normalized and BayesElo models', () => {
  it('finds a distribution with the requested normalized score', () => {
    for (const t of [0.2, -0.3]) {
      const freq = [0.1, 0.2, 0.4, 0.2, 0.1];
      const scores = [0, 0.25, 0.5, 0.75, 1];
      const p = mleForNormalizedScore({ scores, freq }, t);
      const mu = p.reduce((acc, pk, k) => acc + pk * (scores[k] as number), 0);
      const sd = Math.sqrt(p.reduce((acc, pk, k) => acc + pk * ((scores[k] as number) - mu) ** 2, 0));
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
      expect((mu - 0.5) / sd).toBeCloseTo(t, 8);
    }
  });

  it('gives zero LLR for symmetric data and the sign of the evidence otherwise', () => {
    const normalized = { elo0: -5, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' as const };
    expect(sprtLlr({ wins: 30, draws: 40, losses: 30 }, normalized)).toBeCloseTo(0, 10);
    expect(sprtLlr({ wins: 40, draws: 30, losses: 30 }, normalized)).toBeGreaterThan(0);
    expect(sprtLlr({ wins: 30, draws: 30, losses: 40 }, normalized)).toBeLessThan(0);
    const bayes = { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'bayeselo' as const };
    // A sweep no longer reads 0 (issue 44): the draw Elo comes from the regularised counts, as in fishtest.
    expect(sprtLlr({ wins: 9, draws: 1, losses: 0 }, bayes)).toBeGreaterThan(0.1);
    expect(sprtStatus({ wins: 80, draws: 10, losses: 10 }, bayes).decision).toBe('accept_h1');
    // Pairs need the per-game counts for the draw Elo; without them the call says so instead of guessing.
    expect(() => sprtLlr([1, 1, 1, 1, 1], bayes)).toThrow(/per-game counts/);
  });
});

// Reference values from fishtest (official-stockfish/fishtest, server/fishtest/stats/stat_util.py `update_SPRT` with
// LLRcalc.py), computed by running that code on these counts: every zero count is regularised to 0.001; for BayesElo
// the draw Elo comes from the regularised per-game counts, the bounds are converted to logistic Elo with it, and the
// logistic GSPRT runs on the pentanomial counts when given, else on W/D/L.
describe("fishtest's LLR values (issue 44)", () => {
  const params = (elo0: number, elo1: number, model: 'logistic' | 'normalized' | 'bayeselo') => ({
    elo0,
    elo1,
    alpha: 0.05,
    beta: 0.05,
    model,
  });
  const sweep = { wins: 12, draws: 0, losses: 0 };
  it.each([
    ['BayesElo 12–0, [0, 5]', sweep, params(0, 5, 'bayeselo'), undefined, 0.16643870383330336],
    ['BayesElo 12–0, [0, 50]', sweep, params(0, 50, 'bayeselo'), undefined, 1.5596959178672503],
    ['BayesElo 0–9 with 3 draws', { wins: 0, draws: 3, losses: 9 }, params(0, 50, 'bayeselo'), undefined, -0.10762734881135708],
    ['BayesElo 30/40/20, [0, 20]', { wins: 30, draws: 40, losses: 20 }, params(0, 20, 'bayeselo'), undefined, 0.6570070938833418],
    ['logistic 12–0', sweep, params(0, 50, 'logistic'), undefined, 1.6030814879067476],
    ['normalized 12–0', sweep, params(0, 50, 'normalized'), undefined, 1.597949460452702],
  ] as const)('%s', (_name, counts, p, _wdl, expected) => {
    expect(sprtLlr(counts, p)).toBeCloseTo(expected, 10);
  });
  it.each([
    ['BayesElo six WW pairs', [0, 0, 0, 0, 6], sweep, params(0, 50, 'bayeselo'), 0.7800979652388069],
    ['BayesElo pairs [0, 1, 2, 2, 5]', [0, 1, 2, 2, 5], { wins: 13, draws: 5, losses: 2 }, params(0, 50, 'bayeselo'), 1.1608038819040172],
    ['logistic six WW pairs', [0, 0, 0, 0, 6], sweep, params(0, 50, 'logistic'), 0.8017973809696289],
  ] as const)('%s (pentanomial)', (_name, penta, wdl, p, expected) => {
    expect(sprtLlr([...penta] as [number, number, number, number, number], p, wdl)).toBeCloseTo(expected, 10);
  });

  it('lets a BayesElo sweep reach a decision', () => {
    const bayes = params(0, 50, 'bayeselo');
    let games = 0;
    let status = sprtStatus({ wins: 0, draws: 0, losses: 0 }, bayes);
    while (status.decision === 'continue' && games < 100) {
      games += 2;
      status = sprtStatus([0, 0, 0, 0, games / 2], bayes, { wins: games, draws: 0, losses: 0 });
    }
    expect(status.decision).toBe('accept_h1');
  });
});
