// Head-to-head Elo, error, nElo and LOS for a fixed number of games (§4), per game (trinomial) or per pair
// (pentanomial). The point values follow fastchess's elo_wdl / elo_pentanomial; the interval does not (issue 15):
// fastchess's normal interval around the observed score has zero width for a perfect record or an all-draw match
// and maps a score bound of 1 to +∞. Here the score interval is a Wilson score interval whose variance is scaled by
// the observed variance ratio (draws and pair structure shrink it), that ratio estimated with one virtual win and one
// virtual loss (per pair: one WW and one LL) so a handful of identical results cannot claim certainty. A score bound
// of 0 or 1 gives a one-sided Elo bound (null on that side); nothing here is ever ±Infinity or NaN.
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
  nElo: number;
  nEloError: number;
  /** Likelihood of superiority, 0..1 (not a p-value). */
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

/** Wilson score interval for a mean in [0, 1] whose variance at mean p is ratio·p(1 − p). */
export function scaledWilsonInterval(s: number, count: number, ratio: number, z = Z95): [number, number] {
  const z2 = z * z * ratio;
  const denom = 1 + z2 / count;
  const centre = (s + z2 / (2 * count)) / denom;
  const half = (Math.sqrt(z2) / denom) * Math.sqrt((s * (1 - s)) / count + z2 / (4 * count * count));
  // The ends are exact at a perfect record; clamp rounding so s = 1 yields an upper bound of exactly 1.
  return [s === 0 ? 0 : Math.max(0, centre - half), s === 1 ? 1 : Math.min(1, centre + half)];
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
 * Shared part. `values` are the outcome scores, `counts` the observed counts and `perGameFactor` the factor by which
 * the per-game deviation exceeds the per-observation one (√2 for pairs, §4.2).
 */
function estimate(values: readonly number[], counts: readonly number[], perGameFactor: number, drawRatio: number): EloEstimate {
  const count = counts.reduce((a, b) => a + b, 0);
  const observed = meanAndVariance(
    values,
    counts.map((c) => c / count),
  );
  // One virtual observation at each end: the variance ratio is then in (0, 1] and never 0.
  const augmented = counts.map((c, k) => c + (k === 0 || k === counts.length - 1 ? 1 : 0));
  const total = count + 2;
  const prior = meanAndVariance(
    values,
    augmented.map((c) => c / total),
  );
  const ratio = Math.min(1, prior.variance / (prior.mean * (1 - prior.mean)));
  const s = observed.mean;
  const [lo, hi] = scaledWilsonInterval(s, count, ratio);
  const eloLower = eloFromScore(lo);
  const eloUpper = eloFromScore(hi);
  const sigmaGame = Math.sqrt(prior.variance) * perGameFactor;
  const se = Math.sqrt(prior.variance / count);
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
    nElo: ((s - 0.5) / sigmaGame) * NELO_SCALE,
    nEloError: (((hi - lo) / 2) * NELO_SCALE) / sigmaGame,
    los: normalCdf((s - 0.5) / se),
    drawRatio,
  };
}

/** Trinomial statistics (§4.1); null without games. */
export function trinomialElo(wdl: Wdl): EloEstimate | null {
  const n = wdl.wins + wdl.draws + wdl.losses;
  if (n === 0) return null;
  return estimate([0, 0.5, 1], [wdl.losses, wdl.draws, wdl.wins], 1, wdl.draws / n);
}

export const PENTANOMIAL_SCORES = [0, 0.25, 0.5, 0.75, 1] as const;

/** Pentanomial statistics (§4.2); null without pairs. */
export function pentanomialElo(penta: Pentanomial): EloEstimate | null {
  const pairs = penta.reduce((a, b) => a + b, 0);
  if (pairs === 0) return null;
  return estimate(PENTANOMIAL_SCORES, penta, Math.SQRT2, penta[2] / pairs);
}

const signed = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(Math.round(x))}`;

/** "+120 [+40, +210]", "> +198" or "< −198": the one text the report, the CLI and the UI print for an Elo interval. */
export function eloIntervalText(est: Pick<EloEstimate, 'elo' | 'eloLower' | 'eloUpper'>): string {
  if (est.eloUpper === null && est.eloLower !== null) return `> ${signed(est.eloLower)}`;
  if (est.eloLower === null && est.eloUpper !== null) return `< ${signed(est.eloUpper)}`;
  if (est.eloLower === null || est.eloUpper === null) return 'unbounded';
  return `${est.elo === null ? '—' : signed(est.elo)} [${signed(est.eloLower)}, ${signed(est.eloUpper)}]`;
}
