// Rating intervals for the Bradley–Terry fit (§6.2–6.4, revised by issues 15 and 44). The rating is the posterior
// mode under the virtual-draw prior (always on, so a perfect record stays finite); the interval is exact-calibrated
// (profile-intervals.ts) and does not inherit the prior's shrinkage, which made the old Laplace interval miss the
// truth at large gaps. The Laplace posterior (mode, covariance) remains behind the sd and the rank ranges. Coverage:
// exact enumeration for two agents, simulation for more (coverage-simulation.ts, bench/rating-coverage.mjs).
import {
  addComparison,
  type BtData,
  type BtFit,
  type BtFitOptions,
  btCovariance,
  btRatings,
  emptyBtData,
  fitBradleyTerry,
  priorDrawsPerPair,
  type WeightedComparison,
} from './bradley-terry.js';
import { type ProfileBounds, profileBounds } from './profile-intervals.js';
import { placesByRating, posteriorRankRanges } from './rank-ranges.js';
import { Z95 } from './special-functions.js';

/** The comparisons of one game, or of one pair/set (they are kept together for the record, not resampled). */
export interface RatingUnit {
  comparisons: readonly WeightedComparison[];
}

export interface IntervalOptions {
  /** Virtual draws between every two agents that met (default 2, the BayesElo prior); values below 1 are raised to 1. */
  priorDraws?: number;
  /** Default: the mean comparison weight of the data, so a virtual draw weighs like one real comparison. */
  priorWeight?: number;
  anchor?: { agent: number; rating: number };
  /** Level of the exact-calibrated interval (default 0.95); the rank ranges stay at 95%. */
  confidence?: number;
  /** false: skip the rank ranges (rank 0 for everyone); the coverage simulation needs the intervals only. */
  ranks?: boolean;
}

export interface RatingInterval {
  /** Posterior mode on the reported scale (NaN without comparisons). */
  rating: number;
  /** Posterior standard deviation in rating points (0 for an anchor or a lone agent, NaN without comparisons). */
  sd: number;
  /** −Infinity when the data put no lower limit on the rating (see `unboundedSides`); exports print that as null. */
  lower: number;
  /** +Infinity when the data put no upper limit on the rating (a perfect record). */
  upper: number;
  /** Component of the comparison graph; −1 without comparisons. */
  component: number;
  /** Best rank the posterior allows (rank-ranges.ts); 0 without comparisons (unranked). */
  rank: number;
  /** Best and worst rank the posterior allows at 95%. */
  rankRange: [number, number];
}

export interface IntervalResult {
  agents: RatingInterval[];
  fit: BtFit;
  priorDraws: number;
}

/** The prior is never off: without it a perfect record has no finite rating (issue 15). */
export const MIN_PRIOR_DRAWS = 1;

export const INTERVAL_METHOD =
  "Bradley–Terry fit; the rating is the posterior mode under a weak prior of virtual draws; the 95% interval is exact-calibrated: a Clopper–Pearson interval on the agent's own score, mapped to a rating through the profile likelihood of the other agents (no prior on the agent's own games); games are assumed independent given the strengths.";

/** What the interval and the prior mean, word for word the same in report.md and its reference. */
export const INTERVAL_NOTE =
  'The prior gives each pair that met 2/(m − 1) virtual draws, m the size of its connected group (2 per agent in a full round-robin); it keeps every rating finite and never depends on agents outside the group. Where the games put no limit on one side (an agent that never lost, or a group that never lost to the rest), that side is open: "1183 [> 1012]" reads "at least 1012". Coverage is at least 95% for two agents at every gap (exact enumeration) and at least 93% per agent in simulated fields (`npm run bench:coverage`).';

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

export function ratingIntervals(agentCount: number, units: readonly RatingUnit[], options: IntervalOptions = {}): IntervalResult {
  return ratingIntervalsOf(dataOf(agentCount, units), { ...options, priorWeight: options.priorWeight ?? meanComparisonWeight(units) });
}

/**
 * The same from the comparisons' totals (what the run tally keeps), so standings need no pass over the games;
 * `priorWeight` should be the mean comparison weight of the data (the default 1 suits two-seat games).
 */
export function ratingIntervalsOf(data: BtData, options: IntervalOptions = {}): IntervalResult {
  const { fit, fitOptions, priorDraws, point } = posteriorModeOf(data, options);
  const cov = btCovariance(data, fit, fitOptions);
  const anchor = options.anchor;
  const sides = unboundedSides(data, fit.component, anchor?.agent);
  const bounds = anchor === undefined ? exactBounds(data, fit, fitOptions, options.confidence ?? 0.95) : null;
  const agents = point.map((rating, i): RatingInterval => {
    const component = fit.component[i] as number;
    const row = cov[i] as number[];
    let variance = row[i] as number;
    // Anchored: the rating is r_i − r_anchor + const, so its variance is that of the difference.
    if (anchor !== undefined && fit.component[anchor.agent] === component) {
      const a = anchor.agent;
      variance = variance + ((cov[a] as number[])[a] as number) - 2 * (row[a] as number);
    }
    const sd = 400 * Math.sqrt(Math.max(0, variance));
    const ok = component >= 0 && Number.isFinite(rating) && Number.isFinite(sd);
    const open = sides[i] as { below: boolean; above: boolean };
    // The exact-calibrated bounds; with an anchor (no caller uses one) the Laplace interval around the anchored mode.
    const exact = bounds?.[i];
    const low = exact ? 400 * exact.lower + 1000 : rating - Z95 * sd;
    const high = exact ? 400 * exact.upper + 1000 : rating + Z95 * sd;
    return {
      rating: ok ? rating : Number.NaN,
      sd: ok ? sd : Number.NaN,
      lower: ok ? (open.below ? Number.NEGATIVE_INFINITY : low) : Number.NaN,
      upper: ok ? (open.above ? Number.POSITIVE_INFINITY : high) : Number.NaN,
      component,
      rank: 0,
      rankRange: [0, 0],
    };
  });
  const ranks =
    options.ranks === false
      ? agents.map(() => ({ rank: 0, rankRange: [0, 0] as [number, number] }))
      : placesByRating(
          agents.map((a) => a.rating),
          agents.map((a) => a.component),
          posteriorRankRanges(
            // The covariance is on the strength scale r (R = 400·r + const).
            agents.map((a) => a.rating / 400),
            cov,
            agents.map((a) => a.component),
          ) ?? honestRanks(agents),
        );
  agents.forEach((a, i) => {
    const r = ranks[i] as { rank: number; rankRange: [number, number] };
    a.rank = r.rank;
    a.rankRange = r.rankRange;
  });
  return { agents, fit, priorDraws };
}

/** Exact-calibrated bounds (profile-intervals.ts) per agent, in log10 strength relative to its group's mean. */
function exactBounds(data: BtData, fit: BtFit, fitOptions: BtFitOptions, confidence: number): Array<ProfileBounds | undefined> {
  const out = new Array<ProfileBounds | undefined>(data.agentCount).fill(undefined);
  const comps = Math.max(-1, ...fit.component) + 1;
  for (let c = 0; c < comps; c++) {
    const members = fit.component.flatMap((cc, i) => (cc === c ? [i] : []));
    const priorPerPair = priorDrawsPerPair(data, members[0] as number, fitOptions);
    const point = members.map((i) => fit.strengths[i] as number);
    const found = profileBounds(data, members, { priorPerPair, priorWeight: fitOptions.priorWeight ?? 1, point, confidence });
    members.forEach((agent, m) => {
      out[agent] = found[m];
    });
  }
  return out;
}

/** The posterior mode (the reported ratings) alone, and what the intervals need from the fit. */
export function posteriorModeOf(data: BtData, options: IntervalOptions = {}) {
  const priorDraws = Math.max(MIN_PRIOR_DRAWS, options.priorDraws ?? 2);
  const priorWeight = options.priorWeight ?? 1;
  // Each met pair of a group of m agents gets priorDraws/(m − 1) virtual draws: in a full round-robin every agent
  // carries priorDraws in all. m counts only the group's own agents, so unplayed agents and separate groups change
  // nothing (issue 44).
  const fitOptions = { priorDraws, priorWeight, perComponent: true };
  const fit = fitBradleyTerry(data, fitOptions);
  return { fit, fitOptions, priorDraws, point: btRatings(fit, options.anchor) };
}

/**
 * Which sides of each rating the games leave open. Without the prior, agent i's rating (relative to the field) can
 * rise without limit exactly when the agents that beat i, directly or through a chain of wins (a draw counts both
 * ways), are not the whole component: that group never lost to the rest, so lifting it only raises the likelihood.
 * Then no finite upper bound is honest, whatever the prior says; likewise below. With an anchor, the anchor's own
 * rating is fixed and the sides of the others are read relative to it.
 */
export function unboundedSides(data: BtData, component: readonly number[], anchor?: number): Array<{ below: boolean; above: boolean }> {
  const k = data.agentCount;
  // beat[a][b]: a scored against b at least once (won or drew).
  const scored = (a: number, b: number): boolean => {
    if (a === b) return false;
    const [i, j] = a < b ? [a, b] : [b, a];
    const n = data.n[i * k + j] as number;
    const s = data.s[i * k + j] as number;
    return a < b ? s > 0 : n - s > 0;
  };
  const reach = (from: number, step: (x: number, y: number) => boolean): Set<number> => {
    const seen = new Set([from]);
    const stack = [from];
    while (stack.length > 0) {
      const x = stack.pop() as number;
      for (let y = 0; y < k; y++) {
        if (!seen.has(y) && step(x, y)) {
          seen.add(y);
          stack.push(y);
        }
      }
    }
    return seen;
  };
  return Array.from({ length: k }, (_, i) => {
    const c = component[i] as number;
    if (c < 0) return { below: false, above: false };
    const size = component.filter((x) => x === c).length;
    if (anchor === i && component[anchor] === c) return { below: false, above: false };
    // Those that beat i through a chain; those i beat through a chain.
    const ancestors = reach(i, (x, y) => scored(y, x));
    const descendants = reach(i, (x, y) => scored(x, y));
    // Anchored: a group may only move relative to the anchor when the anchor is outside it.
    const anchored = anchor !== undefined && component[anchor] === c;
    return {
      above: ancestors.size < size && (!anchored || !ancestors.has(anchor as number)),
      below: descendants.size < size && (!anchored || !descendants.has(anchor as number)),
    };
  });
}

/**
 * rank(i) = 1 + #{j in i's component : lower_j > upper_i} (§6.4): an agent ranks below only the agents whose whole
 * interval lies above its own. The worst rank counts the agents that are not entirely below it. Agents without an
 * interval (no comparisons) get rank 0. The fallback when the posterior covariance is unusable (rank-ranges.ts).
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

const whole = (x: number): string => String(Math.round(x));

/** "1183 [1012, 1354]", "1183 [> 1012]" (no upper bound), "817 [< 988]", "1000 [open]"; null without a rating. */
export function ratingIntervalText(interval: Pick<RatingInterval, 'rating' | 'lower' | 'upper'>): string | null {
  const { rating, lower, upper } = interval;
  if (!Number.isFinite(rating)) return null;
  const lowOpen = !Number.isFinite(lower);
  const highOpen = !Number.isFinite(upper);
  if (lowOpen && highOpen) return `${whole(rating)} [open]`;
  if (highOpen) return `${whole(rating)} [> ${whole(lower)}]`;
  if (lowOpen) return `${whole(rating)} [< ${whole(upper)}]`;
  return `${whole(rating)} [${whole(lower)}, ${whole(upper)}]`;
}

/** A copy with every non-finite number (an open bound, an unrated agent) as null, for JSON exports and the API. */
export function withoutNonFinite<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))) as T;
}
