// Coverage of the rating intervals (issues 15, 44): exact enumeration of every outcome for two agents, and
// tournaments between agents with known Bradley–Terry strengths, played game by game with a seeded RNG and rated as a
// run is rated; counts how often the nominal 95% intervals contain the true ratings. The vitest coverage test and
// `npm run bench:coverage` both call this.
import { createRng, type Rng } from '../rng.js';
import { trinomialElo } from './elo.js';
import { type RatingInterval, type RatingUnit, ratingIntervals } from './rating-intervals.js';

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

/** Exact coverage of one interval method for two agents at one number of games: the minimum and mean over gaps. */
export interface ExactCoverageCell {
  games: number;
  /** Probability over every outcome that the interval holds the truth, at each gap of `gaps`. */
  byGap: number[];
  min: number;
  mean: number;
}

export interface ExactCoverage {
  gaps: number[];
  ratings: ExactCoverageCell[];
  headToHead: ExactCoverageCell[];
}

/** ln of n!/(w!·d!·l!), from a table of ln k!. */
function logFactorials(n: number): number[] {
  const out = [0];
  for (let k = 1; k <= n; k++) out.push((out[k - 1] as number) + Math.log(k));
  return out;
}

/**
 * Exact coverage for two agents: every outcome (w, d, l) of n games is weighted by its multinomial probability at
 * each true gap (draws at `drawRate`, capped as in simulateCoverage so the expected score stays the logistic one),
 * and the Bradley–Terry interval of the first agent and the head-to-head Elo interval are checked against the truth.
 * No sampling: the numbers are the coverage itself.
 */
export function exactTwoAgentCoverage(options: { games: readonly number[]; gaps: readonly number[]; drawRate?: number }): ExactCoverage {
  const drawRate = options.drawRate ?? 0;
  const gaps = [...options.gaps];
  const ratings: ExactCoverageCell[] = [];
  const headToHead: ExactCoverageCell[] = [];
  for (const n of options.games) {
    const lf = logFactorials(n);
    const bt = new Array<number>(gaps.length).fill(0);
    const h2h = new Array<number>(gaps.length).fill(0);
    const dMax = drawRate > 0 ? n : 0;
    for (let d = 0; d <= dMax; d++) {
      for (let w = 0; w + d <= n; w++) {
        const l = n - w - d;
        const data = { wins: w, draws: d, losses: l };
        // One unit of weighted comparisons: the totals are all the fit reads.
        const units: RatingUnit[] = [
          {
            comparisons: [
              ...(w > 0 ? [{ a: 0, b: 1, y: 1, weight: w }] : []),
              ...(d > 0 ? [{ a: 0, b: 1, y: 0.5, weight: d }] : []),
              ...(l > 0 ? [{ a: 0, b: 1, y: 0, weight: l }] : []),
            ],
          },
        ];
        const interval = ratingIntervals(2, units, { ranks: false, priorWeight: 1 }).agents[0] as RatingInterval;
        const est = trinomialElo(data);
        gaps.forEach((gap, g) => {
          const pWin = 1 / (1 + 10 ** (-gap / 400));
          const pd = Math.min(drawRate, 2 * pWin, 2 * (1 - pWin));
          const pw = pWin - pd / 2;
          const pl = 1 - pw - pd;
          const logP =
            (lf[n] as number) - (lf[w] as number) - (lf[d] as number) - (lf[l] as number) + term(w, pw) + term(d, pd) + term(l, pl);
          const prob = Math.exp(logP);
          if (prob === 0) return;
          const truth = 1000 + gap / 2;
          if (interval.lower <= truth && truth <= interval.upper) bt[g] = (bt[g] as number) + prob;
          if (est && (est.eloLower === null || est.eloLower <= gap) && (est.eloUpper === null || gap <= est.eloUpper))
            h2h[g] = (h2h[g] as number) + prob;
        });
      }
    }
    ratings.push(cellOf(n, bt));
    headToHead.push(cellOf(n, h2h));
  }
  return { gaps, ratings, headToHead };
}

/** count·ln p, with 0·ln 0 = 0. */
function term(count: number, p: number): number {
  return count === 0 ? 0 : count * Math.log(p);
}

function cellOf(games: number, byGap: number[]): ExactCoverageCell {
  return { games, byGap, min: Math.min(...byGap), mean: byGap.reduce((a, b) => a + b, 0) / byGap.length };
}

export interface FieldCoverageCell {
  agents: number;
  /** Elo between neighbouring agents' true ratings. */
  step: number;
  games: number;
  tournaments: number;
  /** Share of tournaments in which each agent's interval held its true rating, strongest first. */
  perAgent: number[];
  min: number;
  mean: number;
  /** Share of agents whose true rank (a tie shares the best rank of its block) lay in its rank range. */
  ranks: number;
}

/**
 * Simulated coverage at a fixed spread: `agents` agents `step` Elo apart (mean 1000), a round-robin of `games` games
 * cycling through the pairs, `replicates` tournaments from `seed`; per agent, the share whose interval held the truth.
 */
export function simulateFieldCoverage(options: {
  agents: number;
  step: number;
  games: number;
  replicates: number;
  seed: string;
  drawRate?: number;
  ranks?: boolean;
}): FieldCoverageCell {
  const { agents: k, step, games, replicates } = options;
  const rng = createRng(options.seed);
  const drawRate = options.drawRate ?? 0;
  const truth = Array.from({ length: k }, (_, i) => 1000 + step * ((k - 1) / 2 - i));
  const pairs: Array<[number, number]> = [];
  for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) pairs.push([a, b]);
  const covered = new Array<number>(k).fill(0);
  let rankChecked = 0;
  let rankCovered = 0;
  for (let rep = 0; rep < replicates; rep++) {
    const units: RatingUnit[] = [];
    for (let g = 0; g < games; g++) {
      const [a, b] = pairs[g % pairs.length] as [number, number];
      const pWin = 1 / (1 + 10 ** (((truth[b] as number) - (truth[a] as number)) / 400));
      const d = Math.min(drawRate, 2 * pWin, 2 * (1 - pWin));
      const y = rng.next() < d ? 0.5 : rng.next() < (pWin - d / 2) / (1 - d) ? 1 : 0;
      units.push({ comparisons: [{ a, b, y, weight: 1 }] });
    }
    const result = ratingIntervals(k, units, { ranks: options.ranks === true });
    result.agents.forEach((interval, i) => {
      const t = truth[i] as number;
      if (interval.lower <= t && t <= interval.upper) covered[i] = (covered[i] as number) + 1;
      if (options.ranks) {
        const trueRank = 1 + truth.filter((u) => u > t).length;
        rankChecked++;
        if (interval.rankRange[0] <= trueRank && trueRank <= interval.rankRange[1]) rankCovered++;
      }
    });
  }
  const perAgent = covered.map((c) => c / replicates);
  return {
    agents: k,
    step,
    games,
    tournaments: replicates,
    perAgent,
    min: Math.min(...perAgent),
    mean: perAgent.reduce((a, b) => a + b, 0) / k,
    ranks: rankChecked === 0 ? Number.NaN : rankCovered / rankChecked,
  };
}
