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

/** Per agent, over the games in `games` that report scores (one challenge at a time; combine with combineMeans). */
export function agentScoreMeans(games: readonly GameRecord[], agentCount: number): ScoreMeans[] {
  const units = Array.from({ length: agentCount }, () => new Map<string, { security: number; utility: number; count: number }>());
  for (const game of games) {
    if (game.scores === undefined) continue;
    const key = unitKey(game);
    game.seats.forEach((agent, seat) => {
      const score = game.scores?.[seat];
      const map = units[agent];
      if (score === undefined || map === undefined) return;
      const acc = map.get(key) ?? { security: 0, utility: 0, count: 0 };
      acc.security += score.security;
      acc.utility += score.utility;
      acc.count++;
      map.set(key, acc);
    });
  }
  return units.map((map) => {
    const list = [...map.values()];
    return {
      security: meanInterval(list.map((u) => u.security / u.count)),
      utility: meanInterval(list.map((u) => u.utility / u.count)),
    };
  });
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
