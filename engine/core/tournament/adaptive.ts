// The adaptive format (issue 46): after each batch, the next meetings go to the adjacent pairs of the current ranking
// whose order is least resolved, and the run stops once every adjacent pair (or, with a top-k focus, the top k and
// their boundary) is decided, or when the game budget is spent. Everything here is a pure function of the run seed
// and the results so far, so a resumed run makes the same choices (and the benchmark replays it without processes).
import { emptyBtData, fitBradleyTerry } from '../ratings/bradley-terry.js';
import { type PairDecision, pairDecision } from './adaptive-decision.js';
import { deriveSeed } from './seeds.js';

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
}

export type AdaptiveStep =
  | { kind: 'play'; meetings: Array<[number, number]>; pairs: AdjacentPair[] }
  | { kind: 'stop'; reason: AdaptiveStopReason; pairs: AdjacentPair[] };

/** Pairs outside a top-k focus are played only when three times less resolved than the least resolved focus pair. */
const OUTSIDE_FOCUS_WEIGHT = 3;

/**
 * The next batch (numbered from 1) given the results so far and the games already scheduled: the undecided adjacent
 * pairs, least resolved first (progress toward the decision boundary, weighted by the focus), ties broken by a hash
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
      need: p.decision.progress * (p.inFocus ? 1 : OUTSIDE_FOCUS_WEIGHT),
      tie: deriveSeed(plan.seed, `adaptive:${batch}:${Math.min(p.upper, p.lower)}-${Math.max(p.upper, p.lower)}`),
    }))
    .sort((x, y) => x.need - y.need || (x.tie < y.tie ? -1 : x.tie > y.tie ? 1 : 0));
  const count = Math.min(affordable, Math.max(1, plan.batchMeetings), candidates.length);
  const meetings = candidates.slice(0, count).map((c): [number, number] => [c.pair.upper, c.pair.lower]);
  return { kind: 'play', meetings, pairs };
}
