// Head-to-head Elo, error, nElo and LOS for a fixed number of games (§4), per game (trinomial) or per pair
// (pentanomial). The Elo point value, nElo, its ± and LOS are fastchess's elo_wdl / elo_pentanomial definitions; the
// Elo interval is not (issues 15, 44): fastchess's normal interval around the observed score has zero width for a
// perfect record or an all-draw match, and a Wilson interval still covers only 83–88% at small n or large gaps. Here
// the score interval is Clopper–Pearson (exact-intervals.ts), at least 95% at every true score, mapped to Elo; a
// score bound of 0 or 1 gives a one-sided Elo bound (null on that side); nothing here is ever ±Infinity or NaN.
import { clopperPearson } from './exact-intervals.js';
import { normalCdf, Z95 } from './special-functions.js';
import type { Pentanomial, Wdl } from './wdl.js';

/** 800 / ln 10: converts a standardised score difference to normalized Elo. */
export const NELO_SCALE = 800 / Math.LN10;

export interface EloEstimate {
  /** Games (trinomial) or pairs (pentanomial). */
  count: number;
  /** Mean score per game, 0..1. */
  score: number;
  /** Per-game (trinomial) or per-pair (pentanomial) variance of the score, as observed. */
  variance: number;
  /** 95% interval for the true mean score. */
  scoreLower: number;
  scoreUpper: number;
  /** E(score); null when the score is 0 or 1 (no finite point estimate). */
  elo: number | null;
  /** Half-width of the Elo interval; null when one side is unbounded. */
  eloError: number | null;
  /** null: unbounded below (score lower bound 0). */
  eloLower: number | null;
  /** null: unbounded above (score upper bound 1). */
  eloUpper: number | null;
  /** fastchess's normalized Elo; null when the observed variance is 0 (all draws, or a perfect record). */
  nElo: number | null;
  nEloError: number;
  /** Likelihood of superiority as fastchess computes it, Φ((s − ½)/(σ/√n)), 0..1 (not a p-value); 1, 0 or ½ at σ = 0. */
  los: number;
  /** Draws / games; for pairs, (DD+WL) pairs / pairs. */
  drawRatio: number;
}

/** E(s) = −400·log10(1/s − 1); null at the ends, where it is unbounded. */
export function eloFromScore(s: number): number | null {
  if (!(s > 0 && s < 1)) return null;
  const elo = -400 * Math.log10(1 / s - 1);
  // s = ½ gives −0; report a plain 0.
  return elo === 0 ? 0 : elo;
}

/** Inverse of eloFromScore: 1 / (1 + 10^(−elo/400)). */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

function meanAndVariance(values: readonly number[], freq: readonly number[]): { mean: number; variance: number } {
  let mean = 0;
  values.forEach((x, k) => {
    mean += (freq[k] as number) * x;
  });
  let variance = 0;
  values.forEach((x, k) => {
    variance += (freq[k] as number) * (x - mean) ** 2;
  });
  return { mean, variance };
}

/**
 * Shared part. `values` are the outcome scores, `counts` the observed counts and `pairs` whether an observation is a
 * seat-swapped pair (fastchess's pentanomial nElo divides by the per-game deviation √(2·variance), §4.2).
 */
function estimate(values: readonly number[], counts: readonly number[], pairs: boolean, drawRatio: number): EloEstimate {
  const count = counts.reduce((a, b) => a + b, 0);
  const observed = meanAndVariance(
    values,
    counts.map((c) => c / count),
  );
  const s = observed.mean;
  const [lo, hi] = clopperPearson(s * count, count);
  const eloLower = eloFromScore(lo);
  const eloUpper = eloFromScore(hi);
  // fastchess: nElo = (s − ½)/σ_game·800/ln 10 and its ± maps the normal score interval s ± 1.96·σ/√n, which is
  // 1.96/√n·800/ln 10 per game (σ cancels); LOS = Φ((s − ½)/(σ/√n)). Undefined (null) where σ = 0.
  const sigmaGame = Math.sqrt(observed.variance * (pairs ? 2 : 1));
  const se = Math.sqrt(observed.variance / count);
  return {
    count,
    score: s,
    variance: observed.variance,
    scoreLower: lo,
    scoreUpper: hi,
    elo: eloFromScore(s),
    eloError: eloLower === null || eloUpper === null ? null : (eloUpper - eloLower) / 2,
    eloLower,
    eloUpper,
    nElo: sigmaGame > 0 ? ((s - 0.5) / sigmaGame) * NELO_SCALE : null,
    nEloError: (Z95 / Math.sqrt(count * (pairs ? 2 : 1))) * NELO_SCALE,
    los: se > 0 ? normalCdf((s - 0.5) / se) : s > 0.5 ? 1 : s < 0.5 ? 0 : 0.5,
    drawRatio,
  };
}

/** Trinomial statistics (§4.1); null without games. */
export function trinomialElo(wdl: Wdl): EloEstimate | null {
  const n = wdl.wins + wdl.draws + wdl.losses;
  if (n === 0) return null;
  return estimate([0, 0.5, 1], [wdl.losses, wdl.draws, wdl.wins], false, wdl.draws / n);
}

export const PENTANOMIAL_SCORES = [0, 0.25, 0.5, 0.75, 1] as const;

/** Pentanomial statistics (§4.2); null without pairs. */
export function pentanomialElo(penta: Pentanomial): EloEstimate | null {
  const pairs = penta.reduce((a, b) => a + b, 0);
  if (pairs === 0) return null;
  return estimate(PENTANOMIAL_SCORES, penta, true, penta[2] / pairs);
}

const signed = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(Math.round(x))}`;

/** "+120 [+40, +210]", "> +198" or "< −198": the one text the report, the CLI and the UI print for an Elo interval. */
export function eloIntervalText(est: Pick<EloEstimate, 'elo' | 'eloLower' | 'eloUpper'>): string {
  if (est.eloUpper === null && est.eloLower !== null) return `> ${signed(est.eloLower)}`;
  if (est.eloLower === null && est.eloUpper !== null) return `< ${signed(est.eloUpper)}`;
  if (est.eloLower === null || est.eloUpper === null) return 'unbounded';
  return `${est.elo === null ? '—' : signed(est.elo)} [${signed(est.eloLower)}, ${signed(est.eloUpper)}]`;
}
