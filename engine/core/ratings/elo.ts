// Head-to-head Elo, error, nElo and LOS for a fixed number of games (§4), per game (trinomial) or per pair
// (pentanomial). Formulas follow fastchess's elo_wdl / elo_pentanomial definitions.
import { erf, Z95 } from './special-functions.js';
import type { Pentanomial, Wdl } from './wdl.js';

/** 800 / ln 10: converts a standardised score difference to normalized Elo. */
export const NELO_SCALE = 800 / Math.LN10;

export interface EloEstimate {
  /** Games (trinomial) or pairs (pentanomial). */
  count: number;
  /** Mean score per game, 0..1. */
  score: number;
  /** Per-game (trinomial) or per-pair (pentanomial) variance of the score. */
  variance: number;
  elo: number;
  /** Half-width of the 95% interval mapped through the Elo curve. */
  eloError: number;
  eloLower: number;
  eloUpper: number;
  nElo: number;
  nEloError: number;
  /** Likelihood of superiority, 0..1 (not a p-value). */
  los: number;
  /** Draws / games; for pairs, (DD+WL) pairs / pairs. */
  drawRatio: number;
}

/** E(s) = −400·log10(1/s − 1); ±∞ at the ends. */
export function eloFromScore(s: number): number {
  if (s <= 0) return Number.NEGATIVE_INFINITY;
  if (s >= 1) return Number.POSITIVE_INFINITY;
  const elo = -400 * Math.log10(1 / s - 1);
  // s = ½ gives −0; report a plain 0.
  return elo === 0 ? 0 : elo;
}

/** Inverse of eloFromScore: 1 / (1 + 10^(−elo/400)). */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/**
 * Shared part: mean score s, variance of one observation, the standard error of the mean, and the factor by which the
 * per-observation deviation exceeds the per-game one (√2 for pairs, §4.2).
 */
function estimate(count: number, s: number, variance: number, perGameFactor: number, drawRatio: number): EloEstimate {
  const se = Math.sqrt(variance / count);
  const lo = s - Z95 * se;
  const hi = s + Z95 * se;
  const eloLower = eloFromScore(lo);
  const eloUpper = eloFromScore(hi);
  const sigmaGame = Math.sqrt(variance) * perGameFactor;
  // With zero variance every observation was identical: the interval collapses to the point.
  const degenerate = variance === 0;
  const nElo = degenerate ? (s === 0.5 ? 0 : Math.sign(s - 0.5) * Number.POSITIVE_INFINITY) : ((s - 0.5) / sigmaGame) * NELO_SCALE;
  const nEloError = degenerate ? 0 : (((hi - lo) / 2) * NELO_SCALE) / sigmaGame;
  const los = degenerate ? (s === 0.5 ? 0.5 : s > 0.5 ? 1 : 0) : (1 - erf(-(s - 0.5) / Math.sqrt(2 * se * se))) / 2;
  return {
    count,
    score: s,
    variance,
    elo: eloFromScore(s),
    eloError: (eloUpper - eloLower) / 2,
    eloLower,
    eloUpper,
    nElo,
    nEloError,
    los,
    drawRatio,
  };
}

/** Trinomial statistics (§4.1); null without games. */
export function trinomialElo(wdl: Wdl): EloEstimate | null {
  const n = wdl.wins + wdl.draws + wdl.losses;
  if (n === 0) return null;
  const w = wdl.wins / n;
  const d = wdl.draws / n;
  const l = wdl.losses / n;
  const s = w + d / 2;
  const variance = w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2;
  return estimate(n, s, variance, 1, d);
}

export const PENTANOMIAL_SCORES = [0, 0.25, 0.5, 0.75, 1] as const;

/** Pentanomial statistics (§4.2); null without pairs. */
export function pentanomialElo(penta: Pentanomial): EloEstimate | null {
  const pairs = penta.reduce((a, b) => a + b, 0);
  if (pairs === 0) return null;
  const p = penta.map((c) => c / pairs);
  let s = 0;
  PENTANOMIAL_SCORES.forEach((x, k) => {
    s += (p[k] as number) * x;
  });
  let variance = 0;
  PENTANOMIAL_SCORES.forEach((x, k) => {
    variance += (p[k] as number) * (x - s) ** 2;
  });
  return estimate(pairs, s, variance, Math.SQRT2, p[2] as number);
}
