// Generalized SPRT (§5): bounds from α and β, and the log-likelihood ratio with the nuisance parameters (draw
// rate, variance) replaced by constrained maximum-likelihood estimates under each hypothesis.
import { NELO_SCALE, PENTANOMIAL_SCORES, scoreFromElo } from './elo.js';
import type { Pentanomial, Wdl } from './wdl.js';

export type SprtModel = 'logistic' | 'normalized' | 'bayeselo';

export interface SprtParams {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  /** Default logistic: the Local Arena presets are logistic Elo (§5.4). */
  model?: SprtModel;
}

export type SprtDecision = 'continue' | 'accept_h0' | 'accept_h1';

export interface SprtStatus {
  llr: number;
  lower: number;
  upper: number;
  decision: SprtDecision;
  /** LLR / upper when LLR ≥ 0, else −LLR / lower: from −1 (at the H0 bound) to 1 (at the H1 bound). */
  progress: number;
}

/** Local Arena presets in logistic Elo, α = β = 0.05 (§5.4). */
export const SPRT_PRESETS = {
  fine: { elo0: 0, elo1: 25, alpha: 0.05, beta: 0.05, model: 'logistic' },
  standard: { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'logistic' },
  coarse: { elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05, model: 'logistic' },
  smoke: { elo0: 0, elo1: 200, alpha: 0.05, beta: 0.05, model: 'logistic' },
} as const satisfies Record<string, SprtParams>;

export function validateSprtParams(p: SprtParams): void {
  if (!(p.elo0 < p.elo1)) throw new RangeError('sprt needs elo0 < elo1');
  if (!(p.alpha > 0 && p.alpha < 1)) throw new RangeError('sprt needs 0 < alpha < 1');
  if (!(p.beta > 0 && p.beta < 1)) throw new RangeError('sprt needs 0 < beta < 1');
  if (!(p.alpha + p.beta < 1)) throw new RangeError('sprt needs alpha + beta < 1');
}

/** Accept H0 at LLR ≤ ln(β/(1−α)), H1 at LLR ≥ ln((1−β)/α). */
export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/** Outcome scores and regularised frequencies; a zero count becomes 0.001 so logs stay finite (§5.3). */
interface Observed {
  scores: readonly number[];
  freq: number[];
  total: number;
}

function observe(counts: Wdl | Pentanomial): Observed {
  const raw = Array.isArray(counts) ? [...counts] : [counts.losses, counts.draws, counts.wins];
  const scores = Array.isArray(counts) ? PENTANOMIAL_SCORES : [0, 0.5, 1];
  const reg = raw.map((c) => (c === 0 ? 1e-3 : c));
  const total = reg.reduce((a, b) => a + b, 0);
  return { scores, freq: reg.map((c) => c / total), total };
}

/**
 * Solves Σ p̂_k·h_k / (1 + x·h_k) = 0 for x in (−1/max h, −1/min h), where the left side falls from +∞ to −∞,
 * by bisection. The constrained MLE is then p_k = p̂_k / (1 + x·h_k).
 */
function secular(freq: readonly number[], h: readonly number[]): number {
  const hmax = Math.max(...h);
  const hmin = Math.min(...h);
  if (!(hmax > 0 && hmin < 0)) throw new RangeError('the target lies outside the range of the outcome scores');
  let lo = -1 / hmax;
  let hi = -1 / hmin;
  const f = (x: number): number => freq.reduce((acc, p, k) => acc + (p * (h[k] as number)) / (1 + x * (h[k] as number)), 0);
  for (let i = 0; i < 300; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** MLE with mean score s: h_k = a_k − s (van den Bergh's constrained multinomial MLE). */
export function mleForScore(obs: { scores: readonly number[]; freq: readonly number[] }, s: number): number[] {
  const h = obs.scores.map((a) => a - s);
  const x = secular(obs.freq, h);
  return obs.freq.map((p, k) => p / (1 + x * (h[k] as number)));
}

/**
 * MLE with normalized score (μ − ½)/σ = t. Stationarity gives p_k = p̂_k / (1 + x·h_k) with
 * h_k = a_k − ½ − t·(σ² + (a_k − μ)²)/(2σ), which depends on μ and σ of p itself, so iterate from the uniform
 * distribution (at most 10 rounds, §5.3).
 */
export function mleForNormalizedScore(obs: { scores: readonly number[]; freq: readonly number[] }, t: number): number[] {
  const n = obs.scores.length;
  let p = new Array<number>(n).fill(1 / n);
  for (let iter = 0; iter < 10; iter++) {
    const mu = p.reduce((acc, pk, k) => acc + pk * (obs.scores[k] as number), 0);
    const variance = p.reduce((acc, pk, k) => acc + pk * ((obs.scores[k] as number) - mu) ** 2, 0);
    const sigma = Math.sqrt(variance);
    const h = obs.scores.map((a) => a - 0.5 - (t * (variance + (a - mu) ** 2)) / (2 * sigma));
    const x = secular(obs.freq, h);
    const next = obs.freq.map((pk, k) => pk / (1 + x * (h[k] as number)));
    const change = Math.max(...next.map((v, k) => Math.abs(v - (p[k] as number))));
    p = next;
    if (change < 1e-9) break;
  }
  return p;
}

/** LLR = T·Σ p̂_k·(ln p1_k − ln p0_k). */
function llrOf(obs: Observed, p0: readonly number[], p1: readonly number[]): number {
  return obs.total * obs.freq.reduce((acc, p, k) => acc + p * (Math.log(p1[k] as number) - Math.log(p0[k] as number)), 0);
}

/** BayesElo expected score for `elo` given the draw Elo (§5.3). */
function bayesEloScore(elo: number, drawElo: number): number {
  const win = 1 / (1 + 10 ** ((-elo + drawElo) / 400));
  const loss = 1 / (1 + 10 ** ((elo + drawElo) / 400));
  return win + (1 - win - loss) / 2;
}

/**
 * The draw Elo of per-game counts as fishtest estimates it out of sample: from the frequencies with every zero count
 * replaced by 0.001 (fishtest's `regularize`), so a sweep (no losses, or no wins) still gives a finite value.
 */
export function drawEloOf(wdl: Wdl): number {
  const [l, , w] = observe(wdl).freq as [number, number, number];
  return 200 * Math.log10(((1 - l) / l) * ((1 - w) / w));
}

/**
 * LLR of counts (per-game `Wdl`, or per-pair `Pentanomial`). The BayesElo model follows fishtest: the bounds are
 * converted to logistic Elo with the draw Elo of the per-game counts (`wdl`, needed with pentanomial counts), then
 * the logistic GSPRT runs on the counts given, pairs included, as fishtest does for every model.
 */
export function sprtLlr(counts: Wdl | Pentanomial, params: SprtParams, wdl?: Wdl): number {
  const model = params.model ?? 'logistic';
  const obs = observe(counts);
  const pentanomial = Array.isArray(counts);
  if (model === 'normalized') {
    // nElo targets are per game; a pair's normalized score is √2 times larger (§3.1).
    const scale = pentanomial ? Math.SQRT2 : 1;
    const p0 = mleForNormalizedScore(obs, (params.elo0 / NELO_SCALE) * scale);
    const p1 = mleForNormalizedScore(obs, (params.elo1 / NELO_SCALE) * scale);
    return llrOf(obs, p0, p1);
  }
  let [s0, s1] = [scoreFromElo(params.elo0), scoreFromElo(params.elo1)];
  if (model === 'bayeselo') {
    const games = pentanomial ? wdl : (counts as Wdl);
    if (games === undefined) throw new RangeError('the BayesElo model needs the per-game counts to estimate the draw Elo');
    const drawElo = drawEloOf(games);
    [s0, s1] = [bayesEloScore(params.elo0, drawElo), bayesEloScore(params.elo1, drawElo)];
  }
  return llrOf(obs, mleForScore(obs, s0), mleForScore(obs, s1));
}

/**
 * Current LLR, bounds and decision. Recompute after every game, or every complete pair with pentanomial counts; with
 * pentanomial counts and the BayesElo model pass the per-game counts too (`wdl`), for the draw Elo.
 */
export function sprtStatus(counts: Wdl | Pentanomial, params: SprtParams, wdl?: Wdl): SprtStatus {
  validateSprtParams(params);
  const { lower, upper } = sprtBounds(params.alpha, params.beta);
  const llr = sprtLlr(counts, params, wdl);
  const decision: SprtDecision = llr >= upper ? 'accept_h1' : llr <= lower ? 'accept_h0' : 'continue';
  const progress = llr >= 0 ? llr / upper : -llr / lower;
  return { llr, lower, upper, decision, progress };
}
