// Head-to-head statistics (§4) and the numerical helpers, against values worked out by hand.
import { describe, expect, it } from 'vitest';
import {
  eloFromScore,
  erf,
  type GameRecord,
  headToHead,
  normalCdf,
  pairsRatio,
  pentanomialCounts,
  pentanomialElo,
  pentanomialFromPairs,
  quantileSorted,
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

describe('trinomial Elo (60 W, 20 D, 20 L)', () => {
  // N = 100; w = .6, d = .2, l = .2; s = .6 + .1 = .7.
  // σ² = .6·(.3)² + .2·(.2)² + .2·(.7)² = .054 + .008 + .098 = .16 → σ = .4; SE = .4/√100 = .04.
  // Elo = −400·log10(1/.7 − 1) = −400·log10(.428571) = 147.19.
  // Bounds s ± 1.959964·.04 = .7 ± .0783986 → E(.7783986) = 218.25, E(.6216014) = 86.23 → ± = 66.01.
  // nElo = (.2/.4)·800/ln10 = .5·347.4355 = 173.72; nElo ± = 1.959964·.04/.4·347.4355 = 68.10.
  // LOS = (1 − erf(−.2/√(2·.0016)))/2 = Φ(.2/.04) = Φ(5) = 1 − 2.8665e-7.
  const e = trinomialElo({ wins: 60, draws: 20, losses: 20 });

  it('reports the hand-computed values', () => {
    expect(e).not.toBeNull();
    if (e === null) return;
    expect(e.score).toBeCloseTo(0.7, 12);
    expect(e.variance).toBeCloseTo(0.16, 12);
    expect(e.elo).toBeCloseTo(147.19, 2);
    expect(e.eloUpper).toBeCloseTo(218.25, 2);
    expect(e.eloLower).toBeCloseTo(86.23, 2);
    expect(e.eloError).toBeCloseTo(66.01, 2);
    expect(e.nElo).toBeCloseTo(173.72, 2);
    expect(e.nEloError).toBeCloseTo(68.1, 2);
    expect(e.los).toBeCloseTo(1 - 2.8665e-7, 10);
    expect(e.drawRatio).toBeCloseTo(0.2, 12);
  });

  it('is symmetric for the mirrored result and handles the edges', () => {
    const m = trinomialElo({ wins: 20, draws: 20, losses: 60 });
    expect(m?.elo).toBeCloseTo(-147.19, 2);
    expect(m?.los).toBeCloseTo(2.8665e-7, 10);
    expect(trinomialElo({ wins: 0, draws: 0, losses: 0 })).toBeNull();
    // All wins: s = 1 → Elo +∞ and LOS 1 (zero variance).
    const all = trinomialElo({ wins: 5, draws: 0, losses: 0 });
    expect(all?.elo).toBe(Number.POSITIVE_INFINITY);
    expect(all?.los).toBe(1);
    // All draws: s = .5 → Elo 0, nElo 0, LOS .5.
    const draws = trinomialElo({ wins: 0, draws: 8, losses: 0 });
    expect([draws?.elo, draws?.nElo, draws?.los]).toEqual([0, 0, 0.5]);
    expect(scoreFromElo(eloFromScore(0.3))).toBeCloseTo(0.3, 12);
  });
});

describe('pentanomial Elo ([LL, LD, DD+WL, WD, WW] = [2, 3, 10, 8, 7])', () => {
  // P = 30; s = (.25·3 + .5·10 + .75·8 + 1·7)/30 = 18.75/30 = .625.
  // Deviations −.625, −.375, −.125, .125, .375; squares .390625, .140625, .015625, .015625, .140625.
  // σ²_pair = (2·.390625 + 3·.140625 + 10·.015625 + 8·.015625 + 7·.140625)/30 = 2.46875/30 = .0822917.
  // SE = √(.0822917/30) = .0523742; bounds .625 ± .1026516 → E(.7276516) = 170.72, E(.5223484) = 15.54 → ± 77.59.
  // Elo = −400·log10(.6) = 88.74. nElo = .125/√(2·.0822917)·347.4355 = 107.05; nElo ± = 1.959964/√60·347.4355 = 87.91.
  // LOS = Φ(.125/.0523742) = Φ(2.38667) = .99150.
  it('reports the hand-computed values', () => {
    const e = pentanomialElo([2, 3, 10, 8, 7]);
    expect(e?.count).toBe(30);
    expect(e?.score).toBeCloseTo(0.625, 12);
    expect(e?.variance).toBeCloseTo(0.0822917, 7);
    expect(e?.elo).toBeCloseTo(88.74, 2);
    expect(e?.eloError).toBeCloseTo(77.59, 2);
    expect(e?.nElo).toBeCloseTo(107.05, 2);
    expect(e?.nEloError).toBeCloseTo(87.91, 2);
    expect(e?.los).toBeCloseTo(0.9915, 4);
    // DrawRatio = 10/30; PairsRatio = (7 + 8)/(2 + 3) = 3.
    expect(e?.drawRatio).toBeCloseTo(1 / 3, 12);
    expect(pairsRatio([2, 3, 10, 8, 7])).toBe(3);
    expect(pentanomialElo([0, 0, 0, 0, 0])).toBeNull();
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
