// The adaptive format (issue 46): after each batch, the next meetings go to the adjacent pairs of the current ranking
// whose order is least resolved, and the run stops once every adjacent pair (or, with a top-k focus, the top k and
// their boundary) is decided, or when the game budget is spent. Everything here is a pure function of the run seed
// and the results so far, so a resumed run makes the same choices (and the benchmark replays it without processes).
import { emptyBtData, fitBradleyTerry } from '../ratings/bradley-terry.js';
import { type PairDecision, pairDecision } from './adaptive-decision.js';
import { derivedRng, deriveSeed, shuffleInPlace } from './seeds.js';

/** Head-to-head units per pair, from the lower agent index's side (i < j at i·K + j). */
export interface AdaptiveTally {
  agentCount: number;
  units: Float64Array;
  score: Float64Array;
}

export function emptyAdaptiveTally(agentCount: number): AdaptiveTally {
  return { agentCount, units: new Float64Array(agentCount * agentCount), score: new Float64Array(agentCount * agentCount) };
}

/** One seat-swapped set between a and b in which a scored `aScore` on average (in [0, 1]). */
export function addAdaptiveUnit(tally: AdaptiveTally, a: number, b: number, aScore: number): void {
  if (a === b) return;
  const [i, j, y] = a < b ? [a, b, aScore] : [b, a, 1 - aScore];
  const at = i * tally.agentCount + j;
  tally.units[at] = (tally.units[at] as number) + 1;
  tally.score[at] = (tally.score[at] as number) + y;
}

/** 1 if placement x is better (lower) than y, ½ if equal, 0 otherwise. */
const placedAbove = (x: number, y: number): number => (x < y ? 1 : x === y ? 0.5 : 0);

/**
 * One seat-rotation set at a table (the same opening played once per seat rotation): every two agents at it get one
 * unit, a's share of the set's games in which a placed above b (½ for a tie). `places` are per seat, lower is better;
 * a void game ties every seat. With two seats this is the seat-swapped pair's unit.
 */
export function addTableUnits(tally: AdaptiveTally, games: ReadonlyArray<{ seats: readonly number[]; places: readonly number[] }>): void {
  const agents = [...new Set(games.flatMap((g) => g.seats))].sort((x, y) => x - y);
  for (let i = 0; i < agents.length; i++)
    for (let j = i + 1; j < agents.length; j++) {
      const a = agents[i] as number;
      const b = agents[j] as number;
      let sum = 0;
      for (const g of games) sum += placedAbove(g.places[g.seats.indexOf(a)] as number, g.places[g.seats.indexOf(b)] as number);
      addAdaptiveUnit(tally, a, b, sum / games.length);
    }
}

/** a's head-to-head evidence against b. */
export function pairEvidence(tally: AdaptiveTally, a: number, b: number): { units: number; score: number } {
  const [i, j] = a < b ? [a, b] : [b, a];
  const at = i * tally.agentCount + j;
  const units = tally.units[at] as number;
  const score = tally.score[at] as number;
  return { units, score: a < b ? score : units - score };
}

export interface AdaptiveRules {
  confidence: number;
  /** Only the order of the top k and their separation from the rest must be decided; null = the whole ranking. */
  topK: number | null;
}

/**
 * The current ranking, best first: Bradley–Terry strengths over every unit (so agents that never met are still
 * placed), then any adjacent pair whose head-to-head is decided the other way is swapped, so a decided pair is
 * always shown in its decided order. Ties fall back to definition order.
 */
export function adaptiveRanking(tally: AdaptiveTally, rules: AdaptiveRules): number[] {
  const k = tally.agentCount;
  const data = emptyBtData(k);
  data.n.set(tally.units);
  data.s.set(tally.score);
  const strength = fitBradleyTerry(data).strengths.map((s) => (Number.isFinite(s) ? s : 0));
  const order = Array.from({ length: k }, (_, i) => i).sort((x, y) => (strength[y] as number) - (strength[x] as number) || x - y);
  for (let pass = 0; pass < k; pass++) {
    let swapped = false;
    for (let p = 0; p + 1 < k; p++) {
      const upper = order[p] as number;
      const lower = order[p + 1] as number;
      const d = pairDecision(pairEvidence(tally, upper, lower), rules.confidence);
      if (d.decided && d.leader === 'b') {
        order[p] = lower;
        order[p + 1] = upper;
        swapped = true;
      }
    }
    if (!swapped) break;
  }
  return order;
}

export interface AdjacentPair {
  /** 1-based place of the upper agent. */
  place: number;
  upper: number;
  lower: number;
  /** Counts toward the stop rule (always, unless a top-k focus leaves it out). */
  inFocus: boolean;
  /** Head-to-head units played and the upper agent's summed unit scores. */
  units: number;
  score: number;
  /** From the upper agent's side. */
  decision: PairDecision;
}

export function adjacentPairs(tally: AdaptiveTally, ranking: readonly number[], rules: AdaptiveRules): AdjacentPair[] {
  const pairs: AdjacentPair[] = [];
  for (let p = 0; p + 1 < ranking.length; p++) {
    const upper = ranking[p] as number;
    const lower = ranking[p + 1] as number;
    const evidence = pairEvidence(tally, upper, lower);
    pairs.push({
      place: p + 1,
      upper,
      lower,
      inFocus: rules.topK === null || p + 1 <= rules.topK,
      ...evidence,
      decision: pairDecision(evidence, rules.confidence),
    });
  }
  return pairs;
}

export type AdaptiveStopReason = 'ranking_decided' | 'top_k_decided' | 'budget_games';

export interface AdaptivePlan extends AdaptiveRules {
  seed: string;
  /** Games one meeting plays (a seat-swapped set or several). */
  gamesPerMeeting: number;
  /** Meetings chosen at once (the run's concurrency in meetings, at least 1). */
  batchMeetings: number;
  budgetGames: number;
  /** Seats per game (default 2): more seats fill each table around an undecided pair (chooseTables). */
  seats?: number;
}

/** Tables in the seat order of their first game; with two seats, [upper, lower] of an adjacent pair. */
export type AdaptiveStep =
  | { kind: 'play'; meetings: number[][]; pairs: AdjacentPair[] }
  | { kind: 'stop'; reason: AdaptiveStopReason; pairs: AdjacentPair[] };

/**
 * Pairs outside a top-k focus rank after every undecided focus pair (whose progress is below 1), so they only take
 * the places of a batch the focus leaves free. (A weight on their progress would let a level pair outside the focus,
 * whose progress stays near 0, take every game.)
 */
const OUTSIDE_FOCUS_OFFSET = 1;

/**
 * The next batch (numbered from 1) given the results so far and the games already scheduled: the undecided adjacent
 * pairs, least resolved first (progress toward the decision boundary, focus pairs before the rest), ties broken by a hash
 * of the seed, batch and pair. The upper-ranked agent takes seat 0 in the meeting's first game.
 */
export function nextAdaptiveStep(tally: AdaptiveTally, gamesUsed: number, batch: number, plan: AdaptivePlan): AdaptiveStep {
  const pairs = adjacentPairs(tally, adaptiveRanking(tally, plan), plan);
  if (pairs.every((p) => !p.inFocus || p.decision.decided))
    return { kind: 'stop', reason: plan.topK === null ? 'ranking_decided' : 'top_k_decided', pairs };
  const affordable = Math.floor((plan.budgetGames - gamesUsed) / plan.gamesPerMeeting);
  if (affordable < 1) return { kind: 'stop', reason: 'budget_games', pairs };
  const candidates = pairs
    .filter((p) => !p.decision.decided)
    .map((p) => ({
      pair: p,
      need: p.decision.progress + (p.inFocus ? 0 : OUTSIDE_FOCUS_OFFSET),
      tie: deriveSeed(plan.seed, `adaptive:${batch}:${Math.min(p.upper, p.lower)}-${Math.max(p.upper, p.lower)}`),
    }))
    .sort((x, y) => x.need - y.need || (x.tie < y.tie ? -1 : x.tie > y.tie ? 1 : 0));
  const count = Math.min(affordable, Math.max(1, plan.batchMeetings), candidates.length);
  const seats = plan.seats ?? 2;
  if (seats === 2) {
    const meetings = candidates.slice(0, count).map((c) => [c.pair.upper, c.pair.lower]);
    return { kind: 'play', meetings, pairs };
  }
  const ranking = pairs.length > 0 ? [(pairs[0] as AdjacentPair).upper, ...pairs.map((p) => p.lower)] : [];
  const undecided = candidates.map((c) => ({ pair: c.pair, need: c.need }));
  return { kind: 'play', meetings: chooseTables(undecided, ranking, count, seats, plan.seed, batch), pairs };
}

/** One key for an unordered pair of agents. */
const pairKey = (a: number, b: number): string => (a < b ? `${a}-${b}` : `${b}-${a}`);

/**
 * Up to `count` tables of `seats` agents for batch `batch`. Each table is built around the least resolved undecided
 * pair no earlier table of the batch seats together, then filled one seat at a time with the agent whose comparisons
 * with the agents already seated settle the most: the summed information 1 / (1 + need) of the undecided adjacent
 * pairs it completes, then the nearest in the ranking to the table's ranks (its results move those ranks most),
 * then a hash of the seed. Each table's cyclic seat order is shuffled with the seed, so across tables no agent keeps
 * following the same neighbour; the rotation set then gives every agent every seat.
 */
export function chooseTables(
  undecided: ReadonlyArray<{ pair: AdjacentPair; need: number }>,
  ranking: readonly number[],
  count: number,
  seats: number,
  seed: string,
  batch: number,
): number[][] {
  const info = new Map(undecided.map((u) => [pairKey(u.pair.upper, u.pair.lower), 1 / (1 + u.need)]));
  const place = new Map(ranking.map((agent, p) => [agent, p]));
  const tables: number[][] = [];
  const seated = new Set<string>();
  for (const anchor of undecided) {
    if (tables.length >= count) break;
    if (seated.has(pairKey(anchor.pair.upper, anchor.pair.lower))) continue;
    const table = [anchor.pair.upper, anchor.pair.lower];
    while (table.length < seats) table.push(bestFiller(table, ranking, info, place, seed, `${batch}:${tables.length}`));
    for (let i = 0; i < table.length; i++)
      for (let j = i + 1; j < table.length; j++) seated.add(pairKey(table[i] as number, table[j] as number));
    tables.push(shuffleInPlace(table, derivedRng(seed, `adaptive-seats:${batch}:${tables.length}`)));
  }
  return tables;
}

/** The agent to seat next at `table` (see chooseTables). */
function bestFiller(
  table: readonly number[],
  ranking: readonly number[],
  info: ReadonlyMap<string, number>,
  place: ReadonlyMap<number, number>,
  seed: string,
  label: string,
): number {
  const ranks = table.map((a) => place.get(a) as number);
  const low = Math.min(...ranks);
  const high = Math.max(...ranks);
  let best: { agent: number; gain: number; distance: number; tie: string } | null = null;
  for (const agent of ranking) {
    if (table.includes(agent)) continue;
    const gain = table.reduce((sum, other) => sum + (info.get(pairKey(agent, other)) ?? 0), 0);
    const p = place.get(agent) as number;
    const distance = p < low ? low - p : p > high ? p - high : 0;
    const tie = deriveSeed(seed, `adaptive-fill:${label}:${agent}`);
    if (
      best === null ||
      gain > best.gain ||
      (gain === best.gain && (distance < best.distance || (distance === best.distance && tie < best.tie)))
    )
      best = { agent, gain, distance, tie };
  }
  if (best === null) throw new RangeError(`a table of ${table.length + 1} seats needs more agents than the ${ranking.length} ranked`);
  return best.agent;
}
