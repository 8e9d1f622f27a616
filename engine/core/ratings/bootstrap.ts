// Bootstrap intervals for the Bradley–Terry fit (§6.2–6.4): resample whole units (pairs/sets when games are
// paired, else games) with replacement within each stratum (challenge), refit, and read off the 2.5%, 50% and
// 97.5% percentiles. The RNG is seeded, so the same data and seed give the same intervals.
import { createRng } from '../rng.js';
import {
  addComparison,
  type BtData,
  type BtFit,
  btRatings,
  emptyBtData,
  fitBradleyTerry,
  type WeightedComparison,
} from './bradley-terry.js';
import { quantileSorted } from './special-functions.js';

/** One resampling unit: a pair, a set or a single game, with its comparisons already weighted. */
export interface RatingUnit {
  /** Units are resampled within their stratum, so each stratum keeps its size (and its §7.1 weight). */
  stratum: string;
  comparisons: readonly WeightedComparison[];
}

export interface BootstrapOptions {
  /** Replicates; default 1000. */
  rounds?: number;
  seed: string;
  priorDraws?: number;
  /** Default: the mean comparison weight of the data, so a virtual draw weighs like one real comparison. */
  priorWeight?: number;
  anchor?: { agent: number; rating: number };
}

export interface RatingInterval {
  /** Maximum-likelihood rating on the full data (NaN without comparisons). */
  rating: number;
  /** Bootstrap median, the point estimate to report (§6.2). */
  median: number;
  lower: number;
  upper: number;
  /** Component of the comparison graph; −1 without comparisons. */
  component: number;
  /** 1 + number of agents of the same component whose lower bound exceeds this upper bound (§6.4). */
  rank: number;
  /** Best and worst rank the intervals allow. */
  rankRange: [number, number];
}

export interface BootstrapResult {
  agents: RatingInterval[];
  fit: BtFit;
  /** Replicates in which the agent's component could be fitted (all of them when priorDraws > 0). */
  replicates: number[];
}

function dataOf(agentCount: number, units: readonly RatingUnit[]): BtData {
  const data = emptyBtData(agentCount);
  for (const unit of units) for (const c of unit.comparisons) addComparison(data, c);
  return data;
}

export function meanComparisonWeight(units: readonly RatingUnit[]): number {
  let total = 0;
  let count = 0;
  for (const unit of units) {
    for (const c of unit.comparisons) {
      total += c.weight;
      count++;
    }
  }
  return count === 0 ? 1 : total / count;
}

export function bootstrapBradleyTerry(agentCount: number, units: readonly RatingUnit[], options: BootstrapOptions): BootstrapResult {
  const rounds = options.rounds ?? 1000;
  const priorDraws = options.priorDraws ?? 2;
  const priorWeight = options.priorWeight ?? meanComparisonWeight(units);
  const full = dataOf(agentCount, units);
  // Prior pairs and components come from the full data, so every replicate is rated on the same graph.
  const fitOptions = { priorDraws, priorWeight, structure: full };
  const fit = fitBradleyTerry(full, fitOptions);
  const point = btRatings(fit, options.anchor);

  const strata = new Map<string, RatingUnit[]>();
  for (const unit of units) {
    const group = strata.get(unit.stratum);
    if (group === undefined) strata.set(unit.stratum, [unit]);
    else group.push(unit);
  }
  const rng = createRng(options.seed);
  const samples: number[][] = Array.from({ length: agentCount }, () => []);
  for (let b = 0; b < rounds; b++) {
    const data = emptyBtData(agentCount);
    for (const group of strata.values()) {
      for (let u = 0; u < group.length; u++) {
        const unit = group[rng.nextInt(0, group.length - 1)] as RatingUnit;
        for (const c of unit.comparisons) addComparison(data, c);
      }
    }
    const ratings = btRatings(fitBradleyTerry(data, fitOptions));
    const shift = anchorShift(ratings, fit.component, options.anchor);
    ratings.forEach((r, i) => {
      if (Number.isFinite(r)) (samples[i] as number[]).push(r + (fit.component[i] === shift.component ? shift.by : 0));
    });
  }

  const agents = samples.map((list, i): RatingInterval => {
    const sorted = [...list].sort((x, y) => x - y);
    return {
      rating: point[i] as number,
      median: quantileSorted(sorted, 0.5),
      lower: quantileSorted(sorted, 0.025),
      upper: quantileSorted(sorted, 0.975),
      component: fit.component[i] as number,
      rank: 0,
      rankRange: [0, 0],
    };
  });
  const ranks = honestRanks(agents);
  agents.forEach((a, i) => {
    const r = ranks[i] as { rank: number; rankRange: [number, number] };
    a.rank = r.rank;
    a.rankRange = r.rankRange;
  });
  return { agents, fit, replicates: samples.map((s) => s.length) };
}

/** In a replicate the anchor's component is shifted so the anchor sits at its rating, as in the point fit. */
function anchorShift(
  ratings: readonly number[],
  component: readonly number[],
  anchor?: { agent: number; rating: number },
): { component: number; by: number } {
  if (anchor === undefined) return { component: -2, by: 0 };
  const at = ratings[anchor.agent];
  if (at === undefined || !Number.isFinite(at)) return { component: -2, by: 0 };
  return { component: component[anchor.agent] ?? -2, by: anchor.rating - at };
}

/**
 * rank(i) = 1 + #{j in i's component : lower_j > upper_i} (§6.4): an agent ranks below only the agents whose whole
 * interval lies above its own. The worst rank counts the agents that are not entirely below it. Agents without an
 * interval (no comparisons) get rank 0.
 */
export function honestRanks(
  intervals: ReadonlyArray<{ lower: number; upper: number; component: number }>,
): Array<{ rank: number; rankRange: [number, number] }> {
  return intervals.map((a) => {
    if (a.component < 0 || Number.isNaN(a.lower) || Number.isNaN(a.upper)) return { rank: 0, rankRange: [0, 0] };
    const peers = intervals.filter((b) => b.component === a.component && !Number.isNaN(b.lower) && !Number.isNaN(b.upper));
    const above = peers.filter((b) => b.lower > a.upper).length;
    const below = peers.filter((b) => b.upper < a.lower).length;
    return { rank: 1 + above, rankRange: [1 + above, peers.length - below] };
  });
}
