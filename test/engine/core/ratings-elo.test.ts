// Head-to-head statistics (§4) and the numerical helpers, against values worked out by hand.
import { describe, expect, it } from 'vitest';
import {
  type EloEstimate,
  eloFromScore,
  eloIntervalText,
  erf,
  type GameRecord,
  headToHead,
  headToHeadDecided,
  normalCdf,
  pairsRatio,
  pentanomialCounts,
  pentanomialElo,
  pentanomialFromPairs,
  quantileSorted,
  type RatingInterval,
  ratingIntervals,
  ratingsSeparated,
  scoreFromElo,
  studentTQuantile,
  trinomialElo,
} from '../../../engine/core/ratings/index.js';

describe('special functions', () => {
  it('matches tabulated erf, Φ and t quantiles', () => {
    // Tables: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(3.5) = 0.9999992569, Φ(1.959964) = 0.975.
    expect(erf(0.5)).toBeCloseTo(0.5204998778, 10);
    expect(erf(1)).toBeCloseTo(0.8427007929, 10);
    expect(erf(-1)).toBeCloseTo(-0.8427007929, 10);
    expect(erf(3.5)).toBeCloseTo(0.9999992569, 10);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 12);
    // 1 − Φ(5) = 2.8665157e-7.
    expect(1 - normalCdf(5)).toBeCloseTo(2.8665157e-7, 13);
    // t(0.975): ν=1 12.7062, ν=2 4.3027, ν=3 3.1824, ν=9 2.2622, ν=29 2.0452.
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.7062, 4);
    expect(studentTQuantile(0.975, 2)).toBeCloseTo(4.3027, 4);
    expect(studentTQuantile(0.975, 3)).toBeCloseTo(3.1824, 4);
    expect(studentTQuantile(0.975, 9)).toBeCloseTo(2.2622, 4);
    expect(studentTQuantile(0.975, 29)).toBeCloseTo(2.0452, 4);
  });

  it('interpolates sample quantiles linearly', () => {
    // Position q·(n−1): [10, 20, 30, 40], q = 0.5 → 1.5 → 25; q = 0.025 → 0.075 → 10.75.
    expect(quantileSorted([10, 20, 30, 40], 0.5)).toBe(25);
    expect(quantileSorted([10, 20, 30, 40], 0.025)).toBeCloseTo(10.75, 12);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });
});

// Interval ends are Clopper–Pearson (issue 44): the Beta(x, n − x + 1) 2.5% and Beta(x + 1, n − x) 97.5% quantiles of
// the total score x over n games, here checked against scipy.stats.beta.ppf; nElo, its ± and LOS are fastchess's
// (elo_wdl.cpp / elo_pentanomial.cpp: nElo = (s − ½)/σ·800/ln 10, ± = 1.96/√n·800/ln 10, LOS = Φ((s − ½)/(σ/√n))).
describe('trinomial Elo (60 W, 20 D, 20 L)', () => {
  // N = 100; s = .7; observed σ² = .6·.09 + .2·.04 + .2·.49 = .16. Elo = −400·log10(1/.7 − 1) = 147.19 (fastchess).
  // x = 70: Beta(70, 31) 2.5% = .600185, Beta(71, 30) 97.5% = .787594 → Elo [70.57, 227.65], ± 78.54.
  // nElo = .2/.4·347.4355 = 173.72; ± = 1.959964/10·347.4355 = 68.10; LOS = Φ(.2/.04) = Φ(5) = 1 − 2.8665e-7.
  const e = trinomialElo({ wins: 60, draws: 20, losses: 20 });

  it('reports the hand-computed values', () => {
    expect(e).not.toBeNull();
    if (e === null) return;
    expect(e.score).toBeCloseTo(0.7, 12);
    expect(e.variance).toBeCloseTo(0.16, 12);
    expect(e.elo).toBeCloseTo(147.19, 2);
    expect(e.scoreLower).toBeCloseTo(0.600185, 5);
    expect(e.scoreUpper).toBeCloseTo(0.787594, 5);
    expect(e.eloUpper).toBeCloseTo(227.65, 2);
    expect(e.eloLower).toBeCloseTo(70.57, 2);
    expect(e.eloError).toBeCloseTo(78.54, 2);
    expect(e.nElo).toBeCloseTo(173.72, 2);
    expect(e.nEloError).toBeCloseTo(68.1, 2);
    expect(e.los).toBeCloseTo(1 - 2.8665e-7, 10);
    expect(e.drawRatio).toBeCloseTo(0.2, 12);
    expect(eloIntervalText(e)).toBe('+147 [+71, +228]');
  });

  it('reads 1 win and 29 draws as fastchess does: nElo 64.5, LOS 0.845', () => {
    // s = 15.5/30 = .516667; σ² = (1/30)·.483333² + (29/30)·.016667² = .0080556; nElo = .016667/.089753·347.4355.
    const d = trinomialElo({ wins: 1, draws: 29, losses: 0 });
    expect(d?.nElo).toBeCloseTo(64.52, 2);
    expect(d?.los).toBeCloseTo(0.8454, 4);
  });

  it('is symmetric for the mirrored result', () => {
    const m = trinomialElo({ wins: 20, draws: 20, losses: 60 });
    expect(m?.elo).toBeCloseTo(-147.19, 2);
    expect(m?.eloLower).toBeCloseTo(-227.65, 2);
    expect(m?.los).toBeCloseTo(2.8665e-7, 10);
    expect(trinomialElo({ wins: 0, draws: 0, losses: 0 })).toBeNull();
    expect(scoreFromElo(eloFromScore(0.3) as number)).toBeCloseTo(0.3, 12);
  });

  it('gives a perfect record a one-sided bound and no infinities', () => {
    // 12–0: lower bound .025^(1/12) = .735352 → Elo > +177.53; no upper bound, no point Elo, no nElo (σ = 0).
    const all = trinomialElo({ wins: 12, draws: 0, losses: 0 });
    expect(all?.elo).toBeNull();
    expect(all?.eloUpper).toBeNull();
    expect(all?.eloError).toBeNull();
    expect(all?.nElo).toBeNull();
    expect(all?.eloLower).toBeCloseTo(177.53, 2);
    expect(eloIntervalText(all as EloEstimate)).toBe('> +178');
    const none = trinomialElo({ wins: 0, draws: 0, losses: 12 });
    expect(eloIntervalText(none as EloEstimate)).toBe('< −178');
    // 2–0 is far from conclusive: lower bound √.025 = .158114 → Elo > −290.51.
    const two = trinomialElo({ wins: 2, draws: 0, losses: 0 });
    expect(two?.eloLower).toBeCloseTo(-290.51, 2);
    for (const est of [all, none, two]) {
      for (const v of [est?.nEloError, est?.los, est?.scoreLower, est?.scoreUpper]) expect(Number.isFinite(v)).toBe(true);
      expect(JSON.stringify(est)).not.toMatch(/Infinity|NaN/);
    }
  });

  it('does not call 4–2 a significant difference (exact two-sided p ≈ .69)', () => {
    // x = 4 of 6: Beta(4, 3) 2.5% = .222778, Beta(5, 2) 97.5% = .956728 → Elo [−217.07, +537.83], containing 0.
    const e = trinomialElo({ wins: 4, draws: 0, losses: 2 });
    expect(e?.eloLower).toBeCloseTo(-217.07, 1);
    expect(e?.eloUpper).toBeCloseTo(537.83, 1);
    // LOS = Φ((1/6)/√((2/9)/6)) = Φ(.866025) = .806762.
    expect(e?.los).toBeCloseTo(0.80676, 4);
  });

  it('gives an all-draw match a finite, non-zero width', () => {
    // 8 draws: x = 4 of 8: Beta(4, 5) 2.5% → Elo ±291.95 (a draw is counted as the most variable result with its mean).
    const draws = trinomialElo({ wins: 0, draws: 8, losses: 0 });
    expect([draws?.elo, draws?.nElo, draws?.los]).toEqual([0, null, 0.5]);
    expect(draws?.eloUpper).toBeCloseTo(291.95, 2);
    expect(draws?.eloLower).toBeCloseTo(-291.95, 2);
  });
});

describe('pentanomial Elo ([LL, LD, DD+WL, WD, WW] = [2, 3, 10, 8, 7])', () => {
  // P = 30; s = 18.75/30 = .625; σ²_pair = 2.46875/30 = .0822917; Elo = −400·log10(.6) = 88.74 (fastchess).
  // x = 18.75 of 30: Beta(18.75, 12.25) 2.5% = .430356, Beta(19.75, 11.25) 97.5% = .793963 → Elo [−48.71, 234.34].
  // nElo = .125/√(2·.0822917)·347.4355 = 107.05; ± = 1.959964/√60·347.4355 = 87.91; LOS = Φ(.125/√(.0822917/30)) = .991499.
  it('reports the hand-computed values', () => {
    const e = pentanomialElo([2, 3, 10, 8, 7]);
    expect(e?.count).toBe(30);
    expect(e?.score).toBeCloseTo(0.625, 12);
    expect(e?.variance).toBeCloseTo(0.0822917, 7);
    expect(e?.elo).toBeCloseTo(88.74, 2);
    expect(e?.eloLower).toBeCloseTo(-48.71, 2);
    expect(e?.eloUpper).toBeCloseTo(234.34, 2);
    expect(e?.nElo).toBeCloseTo(107.05, 2);
    expect(e?.nEloError).toBeCloseTo(87.91, 2);
    expect(e?.los).toBeCloseTo(0.991499, 5);
    // DrawRatio = 10/30; PairsRatio = (7 + 8)/(2 + 3) = 3.
    expect(e?.drawRatio).toBeCloseTo(1 / 3, 12);
    expect(pairsRatio([2, 3, 10, 8, 7])).toBe(3);
    expect(pentanomialElo([0, 0, 0, 0, 0])).toBeNull();
  });

  it('bounds only one side when every pair was won twice', () => {
    const e = pentanomialElo([0, 0, 0, 0, 6]);
    expect(e?.elo).toBeNull();
    expect(e?.eloUpper).toBeNull();
    expect(e?.eloLower).toBeGreaterThan(0);
    expect(JSON.stringify(e)).not.toMatch(/Infinity|NaN/);
  });
});

describe('pentanomial counts from paired games', () => {
  let index = 0;
  /** One seat-swapped pair between agents 0 and 1; r1/r2 = agent 0's results ('W', 'D', 'L'). */
  function pair(r1: 'W' | 'D' | 'L', r2: 'W' | 'D' | 'L'): GameRecord[] {
    const head = index;
    index += 2;
    // Agent 0 sits in seat 0 in the first game and seat 1 in the second.
    const placements = (r: string, seatOfZero: number): number[] => {
      if (r === 'D') return [1, 1];
      const zeroWins = r === 'W';
      return seatOfZero === 0 ? (zeroWins ? [1, 2] : [2, 1]) : zeroWins ? [2, 1] : [1, 2];
    };
    return [
      { gameIndex: head, challenge: 'psi', seats: [0, 1], setSize: 2, termination: 'completed', placements: placements(r1, 0) },
      {
        gameIndex: head + 1,
        challenge: 'psi',
        seats: [1, 0],
        setSize: 2,
        swapOf: head,
        termination: 'completed',
        placements: placements(r2, 1),
      },
    ];
  }

  it('bins each pair by agent 0’s two results', () => {
    // WW → bin 4; WL → 2; DL → 1; DD → 2; WD → 3; LL → 0 ⇒ [1, 1, 2, 1, 1].
    const games = [...pair('W', 'W'), ...pair('W', 'L'), ...pair('D', 'L'), ...pair('D', 'D'), ...pair('W', 'D'), ...pair('L', 'L')];
    // An unpaired game is not a pair and is skipped.
    games.push({ gameIndex: 99, challenge: 'psi', seats: [0, 1], termination: 'completed', placements: [1, 2] });
    expect(pentanomialCounts(games, 0, 1)).toEqual([1, 1, 2, 1, 1]);
    // From agent 1's side the bins mirror.
    expect(pentanomialCounts(games, 1, 0)).toEqual([1, 1, 2, 1, 1].reverse());
    // W/D/L over all 13 games from 0's side: wins WW (2) + WL (1) + WD (1) + unpaired (1) = 5;
    // draws DL (1) + DD (2) + WD (1) = 4; losses WL (1) + DL (1) + LL (2) = 4.
    const h2h = headToHead(games, 0, 1);
    expect(h2h.wdl).toEqual({ wins: 5, draws: 4, losses: 4 });
    expect(h2h.pairs?.count).toBe(6);
    expect(h2h.trinomial?.count).toBe(13);
  });

  it('bins raw pair scores', () => {
    expect(
      pentanomialFromPairs([
        [1, 1],
        [0.5, 0],
        [0, 0],
        [1, 0],
      ]),
    ).toEqual([1, 1, 1, 0, 1]);
    expect(() => pentanomialFromPairs([[1, 1.5]])).toThrow(RangeError);
  });
});

describe('decisions at a confidence (for adaptive formats)', () => {
  it('decides a head-to-head once the exact interval leaves ½', () => {
    // 8 of 10: Beta(8, 3) 2.5% = .444 → undecided at 95%; its 10% quantile .550 → decided at 80%. 9 of 10: .555.
    expect(headToHeadDecided(8, 10)).toBeNull();
    expect(headToHeadDecided(8, 10, 0.8)).toBe('first');
    expect(headToHeadDecided(9, 10)).toBe('first');
    expect(headToHeadDecided(1, 10)).toBe('second');
  });

  it('separates two rated agents only when their intervals at that level do not overlap', () => {
    const units = [{ comparisons: [{ a: 0, b: 1, y: 1, weight: 9 }] }, { comparisons: [{ a: 0, b: 1, y: 0, weight: 1 }] }];
    const at95 = ratingIntervals(2, units, { priorWeight: 1 }).agents;
    const at50 = ratingIntervals(2, units, { priorWeight: 1, confidence: 0.5 }).agents;
    // 9 of 10: 95% difference > 400·log10(.555/.445) = 38 Elo, so each side is 19 from 1000: separated.
    expect(ratingsSeparated(at95[0] as RatingInterval, at95[1] as RatingInterval)).toBe('first');
    expect(ratingsSeparated(at95[1] as RatingInterval, at95[0] as RatingInterval)).toBe('second');
    // A narrower level gives a narrower interval.
    expect((at50[0]?.lower as number) > (at95[0]?.lower as number)).toBe(true);
    // Different groups are never compared.
    expect(ratingsSeparated({ lower: 2000, upper: 2100, component: 0 }, { lower: 0, upper: 10, component: 1 })).toBeNull();
  });
});
