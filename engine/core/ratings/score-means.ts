// Mean SpecArena security and utility per agent with 95% intervals. Observations are per unit (the agent's mean
// over the games of one pair/set, or one unpaired game), so seat-swapped games on one opening are not treated as
// independent (§6.3); the interval is Student-t on those unit means.
import { type GameRecord, unitKey } from './game-record.js';
import { studentTQuantile, Z95 } from './special-functions.js';

export interface MeanInterval {
  mean: number;
  /** Standard error of the mean (NaN with one observation). */
  se: number;
  lower: number;
  upper: number;
  /** Independent observations (units). */
  n: number;
}

/** Mean ± t(0.975, n − 1)·s/√n; with one observation the interval is unknown (NaN bounds). */
export function meanInterval(values: readonly number[]): MeanInterval | null {
  const n = values.length;
  if (n === 0) return null;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, se: Number.NaN, lower: Number.NaN, upper: Number.NaN, n };
  const variance = values.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (n - 1);
  const se = Math.sqrt(variance / n);
  const half = studentTQuantile(0.975, n - 1) * se;
  return { mean, se, lower: mean - half, upper: mean + half, n };
}

/** A running summary of observations: their count and sum, and Welford's sum of squared deviations. */
export interface Moments {
  n: number;
  sum: number;
  mean: number;
  m2: number;
}

export function emptyMoments(): Moments {
  return { n: 0, sum: 0, mean: 0, m2: 0 };
}

export function addMoment(m: Moments, x: number): void {
  m.n++;
  m.sum += x;
  const delta = x - m.mean;
  m.mean += delta / m.n;
  m.m2 += delta * (x - m.mean);
}

/** meanInterval of the observations a Moments summarises (the mean as sum / n, as meanInterval computes it). */
export function momentsInterval(m: Moments): MeanInterval | null {
  if (m.n === 0) return null;
  const mean = m.sum / m.n;
  if (m.n === 1) return { mean, se: Number.NaN, lower: Number.NaN, upper: Number.NaN, n: 1 };
  const se = Math.sqrt(Math.max(0, m.m2) / (m.n - 1) / m.n);
  const half = studentTQuantile(0.975, m.n - 1) * se;
  return { mean, se, lower: mean - half, upper: mean + half, n: m.n };
}

/**
 * Equal-weight combination of per-challenge means (§7.1: every challenge weighs the same): the plain average, with
 * a normal interval from SE = √(Σ se_c²) / C.
 */
export function combineMeans(perChallenge: ReadonlyArray<MeanInterval | null>): MeanInterval | null {
  const parts = perChallenge.filter((m): m is MeanInterval => m !== null);
  if (parts.length === 0) return null;
  const c = parts.length;
  const mean = parts.reduce((acc, m) => acc + m.mean, 0) / c;
  const se = Math.sqrt(parts.reduce((acc, m) => acc + m.se ** 2, 0)) / c;
  return { mean, se, lower: mean - Z95 * se, upper: mean + Z95 * se, n: parts.reduce((acc, m) => acc + m.n, 0) };
}

export interface ScoreMeans {
  security: MeanInterval | null;
  utility: MeanInterval | null;
}

/**
 * Each agent's mean security and utility over the games of one unit (a pair/set or an unpaired game) that report
 * them: the observation the score-mean intervals are built from; null where the agent reported none.
 */
export function unitScoreMeans(games: readonly GameRecord[], agentCount: number): Array<{ security: number; utility: number } | null> {
  const acc = Array.from({ length: agentCount }, () => ({ security: 0, utility: 0, count: 0 }));
  for (const game of games) {
    if (game.scores === undefined) continue;
    game.seats.forEach((agent, seat) => {
      const score = game.scores?.[seat];
      const a = acc[agent];
      if (score === undefined || a === undefined) return;
      a.security += score.security;
      a.utility += score.utility;
      a.count++;
    });
  }
  return acc.map((a) => (a.count === 0 ? null : { security: a.security / a.count, utility: a.utility / a.count }));
}

/** Per agent, over the games in `games` that report scores (one challenge at a time; combine with combineMeans). */
export function agentScoreMeans(games: readonly GameRecord[], agentCount: number): ScoreMeans[] {
  const units = new Map<string, GameRecord[]>();
  for (const game of games) units.set(unitKey(game), [...(units.get(unitKey(game)) ?? []), game]);
  const security = Array.from({ length: agentCount }, emptyMoments);
  const utility = Array.from({ length: agentCount }, emptyMoments);
  for (const unit of units.values())
    unitScoreMeans(unit, agentCount).forEach((m, agent) => {
      if (!m) return;
      addMoment(security[agent] as Moments, m.security);
      addMoment(utility[agent] as Moments, m.utility);
    });
  return security.map((s, agent) => ({ security: momentsInterval(s), utility: momentsInterval(utility[agent] as Moments) }));
}

/** Wilson score interval (95%) for a rate such as attack success (§6.6: binomial intervals). */
export function wilsonInterval(successes: number, n: number): { rate: number; lower: number; upper: number } | null {
  if (n === 0) return null;
  const p = successes / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { rate: p, lower: centre - half, upper: centre + half };
}
