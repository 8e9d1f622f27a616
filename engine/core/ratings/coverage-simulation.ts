// Coverage simulation for the rating intervals (issue 15): tournaments between agents with known Bradley–Terry
// strengths, played game by game with a seeded RNG, rated as a run is rated; counts how often the nominal 95%
// intervals contain the true ratings. The vitest coverage test and `npm run bench:coverage` both call this.
import { createRng, type Rng } from '../rng.js';
import { trinomialElo } from './elo.js';
import { type RatingUnit, ratingIntervals } from './rating-intervals.js';

export interface CoverageOptions {
  /** Games per tournament, one row of results per size. */
  sizes: readonly number[];
  /** Tournaments per size. */
  replicates: number;
  seed: string;
  /** Agents per tournament, drawn per replicate (only counts whose round-robin fits in the size are drawn). */
  agentCounts?: readonly number[];
  /** Standard deviation of the true ratings (Elo), drawn per replicate; the large ones produce perfect records. */
  spreads?: readonly number[];
  /** Probability that a game is drawn (a draw scores ½ for both), with the expected score kept at the BT one. */
  drawRate?: number;
  priorDraws?: number;
  /** Also check the rank ranges (slower: each fit draws the posterior); off by default. */
  ranks?: boolean;
}

export interface CoverageRow {
  games: number;
  tournaments: number;
  /** Agent ratings checked (agents × tournaments). */
  intervals: number;
  covered: number;
  coverage: number;
  /** Tournaments in which some agent won or lost every game it played. */
  perfectRecords: number;
  /** Mean distance from the rating to its finite bounds (Elo); open sides are left out. */
  meanHalfWidth: number;
  /** Two-agent tournaments: head-to-head Elo intervals checked and how many contained the true difference. */
  headToHead: { intervals: number; covered: number; coverage: number };
  /** With `ranks`: agents whose true rank (1 + agents truly stronger) lay in their rank range; NaN without. */
  ranks: { checked: number; covered: number; coverage: number };
}

export const DEFAULT_AGENT_COUNTS = [2, 3, 4, 6] as const;
export const DEFAULT_SPREADS = [0, 100, 200, 400] as const;
export const DEFAULT_SIZES = [2, 3, 5, 10, 20, 50, 100, 200, 500, 1000] as const;

/** Standard normal deviate (Box–Muller). */
function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

export function simulateCoverage(options: CoverageOptions): CoverageRow[] {
  const rng = createRng(options.seed);
  const agentCounts = options.agentCounts ?? DEFAULT_AGENT_COUNTS;
  const spreads = options.spreads ?? DEFAULT_SPREADS;
  const drawRate = options.drawRate ?? 0;
  return options.sizes.map((games) => {
    const row: CoverageRow = {
      games,
      tournaments: options.replicates,
      intervals: 0,
      covered: 0,
      coverage: 0,
      perfectRecords: 0,
      meanHalfWidth: 0,
      headToHead: { intervals: 0, covered: 0, coverage: 0 },
      ranks: { checked: 0, covered: 0, coverage: Number.NaN },
    };
    let width = 0;
    let sides = 0;
    const fitting = agentCounts.filter((k) => (k * (k - 1)) / 2 <= games);
    for (let rep = 0; rep < options.replicates; rep++) {
      const k = rng.pick(fitting.length > 0 ? fitting : [2]);
      const spread = rng.pick(spreads);
      const raw = Array.from({ length: k }, () => spread * normal(rng));
      const mean = raw.reduce((a, b) => a + b, 0) / k;
      const truth = raw.map((r) => r - mean + 1000);
      const pairs: Array<[number, number]> = [];
      for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) pairs.push([a, b]);
      const units: RatingUnit[] = [];
      const won = new Array<number>(k).fill(0);
      const played = new Array<number>(k).fill(0);
      const wdl = { wins: 0, draws: 0, losses: 0 };
      for (let g = 0; g < games; g++) {
        const [a, b] = pairs[g % pairs.length] as [number, number];
        const pWin = 1 / (1 + 10 ** (((truth[b] as number) - (truth[a] as number)) / 400));
        // Draws keep the expected score at the BT probability (a draw is half a win), so the true rating stays the
        // one the model estimates; near-certain games cannot be drawn that often.
        const d = Math.min(drawRate, 2 * pWin, 2 * (1 - pWin));
        const y = rng.next() < d ? 0.5 : rng.next() < (pWin - d / 2) / (1 - d) ? 1 : 0;
        units.push({ comparisons: [{ a, b, y, weight: 1 }] });
        won[a] = (won[a] as number) + y;
        won[b] = (won[b] as number) + 1 - y;
        played[a] = (played[a] as number) + 1;
        played[b] = (played[b] as number) + 1;
        if (k === 2) {
          if (y === 1) wdl.wins++;
          else if (y === 0) wdl.losses++;
          else wdl.draws++;
        }
      }
      if (won.some((w, i) => w === 0 || w === played[i])) row.perfectRecords++;
      const result = ratingIntervals(k, units, {
        ranks: options.ranks === true,
        ...(options.priorDraws === undefined ? {} : { priorDraws: options.priorDraws }),
      });
      result.agents.forEach((interval, i) => {
        const t = truth[i] as number;
        row.intervals++;
        if (interval.lower <= t && t <= interval.upper) row.covered++;
        if (options.ranks) {
          const trueRank = 1 + truth.filter((u) => u > t).length;
          row.ranks.checked++;
          if (interval.rankRange[0] <= trueRank && trueRank <= interval.rankRange[1]) row.ranks.covered++;
        }
        for (const bound of [interval.lower, interval.upper]) {
          if (!Number.isFinite(bound)) continue;
          width += Math.abs(bound - interval.rating);
          sides++;
        }
      });
      if (k === 2) {
        const est = trinomialElo(wdl);
        const diff = (truth[0] as number) - (truth[1] as number);
        if (est) {
          row.headToHead.intervals++;
          const lowOk = est.eloLower === null || est.eloLower <= diff;
          const highOk = est.eloUpper === null || diff <= est.eloUpper;
          if (lowOk && highOk) row.headToHead.covered++;
        }
      }
    }
    row.coverage = row.covered / row.intervals;
    if (row.ranks.checked > 0) row.ranks.coverage = row.ranks.covered / row.ranks.checked;
    row.meanHalfWidth = sides === 0 ? Number.NaN : width / sides;
    row.headToHead.coverage = row.headToHead.intervals === 0 ? Number.NaN : row.headToHead.covered / row.headToHead.intervals;
    return row;
  });
}
