// Simulated fields for the adaptive format (issue 46): agents with known Elo ratings play seat-swapped pairs (seat 0
// has a small edge, draws happen), scheduled either by the adaptive format's own step function or by round-robin in
// whole rounds, each until every adjacent pair of the ranking is decided by the same rule. The vitest checks and
// `npm run bench:adaptive` both call this; nothing here starts a process.
import { type RatingUnit, ratingIntervals } from '../ratings/rating-intervals.js';
import { createRng, type Rng } from '../rng.js';
import {
  type AdaptivePlan,
  type AdaptiveTally,
  type AdjacentPair,
  adaptiveRanking,
  addAdaptiveUnit,
  adjacentPairs,
  emptyAdaptiveTally,
  nextAdaptiveStep,
} from './adaptive.js';

export interface SimulatedField {
  /** True ratings (Elo), by agent index. */
  elo: number[];
}

export interface FieldRun {
  games: number;
  /** Every adjacent pair decided (false: the game cap ended it). */
  resolved: boolean;
  decidedPairs: number;
  /** Decided adjacent pairs whose order contradicts the true ratings. */
  wrongPairs: number;
  /** BT rating intervals (centred like the truth) that contain the true rating, of those checked. */
  intervals: { checked: number; covered: number };
  /** Head-to-head confidence sequences of the final adjacent pairs that contain the true expected score. */
  sequences: { checked: number; covered: number };
}

/** Seat 0's edge, in Elo: seat-swapped units cancel it, as they do in real runs. */
const SEAT_EDGE = 20;
/** The most a game can be drawn with; near-certain games are drawn less (the expected score stays the Elo one). */
const DRAW_RATE = 0.3;

function expectedScore(eloA: number, eloB: number): number {
  return 1 / (1 + 10 ** ((eloB - eloA) / 400));
}

/** Seat 0's score in one game. */
function playGame(rng: Rng, seat0: number, seat1: number): number {
  const p = expectedScore(seat0 + SEAT_EDGE, seat1);
  const d = Math.min(DRAW_RATE, 2 * p, 2 * (1 - p));
  if (rng.next() < d) return 0.5;
  return rng.next() < (p - d / 2) / (1 - d) ? 1 : 0;
}

/** The true mean of a's unit score against b (both seat orders). */
export function trueUnitScore(field: SimulatedField, a: number, b: number): number {
  const ea = field.elo[a] as number;
  const eb = field.elo[b] as number;
  return (expectedScore(ea + SEAT_EDGE, eb) + 1 - expectedScore(eb + SEAT_EDGE, ea)) / 2;
}

/**
 * A field of `agents` ratings drawn uniformly from [0, spread], redrawn until adjacent true ratings are at least
 * `minGap` apart (closer pairs take either schedule tens of thousands of games, which no real budget allows).
 */
export function simulatedField(rng: Rng, agents: number, spread = 600, minGap = 40): SimulatedField {
  for (;;) {
    const elo = Array.from({ length: agents }, () => Math.round(rng.next() * spread));
    const sorted = [...elo].sort((x, y) => x - y);
    if (sorted.every((e, i) => i === 0 || e - (sorted[i - 1] as number) >= minGap)) return { elo };
  }
}

class FieldPlay {
  readonly tally: AdaptiveTally;
  readonly units: RatingUnit[] = [];
  games = 0;
  constructor(
    readonly field: SimulatedField,
    private readonly rng: Rng,
  ) {
    this.tally = emptyAdaptiveTally(field.elo.length);
  }
  /** One seat-swapped unit: a in seat 0, then b in seat 0, same opening. */
  meet(a: number, b: number): void {
    const first = playGame(this.rng, this.field.elo[a] as number, this.field.elo[b] as number);
    const second = 1 - playGame(this.rng, this.field.elo[b] as number, this.field.elo[a] as number);
    addAdaptiveUnit(this.tally, a, b, (first + second) / 2);
    this.units.push({ comparisons: [{ a, b, y: first, weight: 1 }] }, { comparisons: [{ a, b, y: second, weight: 1 }] });
    this.games += 2;
  }
  result(pairs: readonly AdjacentPair[], resolved: boolean): FieldRun {
    const elo = this.field.elo;
    const decided = pairs.filter((p) => p.decision.decided);
    const run: FieldRun = {
      games: this.games,
      resolved,
      decidedPairs: decided.length,
      wrongPairs: decided.filter((p) => (elo[p.upper] as number) < (elo[p.lower] as number)).length,
      intervals: { checked: 0, covered: 0 },
      sequences: { checked: 0, covered: 0 },
    };
    const mean = elo.reduce((s, e) => s + e, 0) / elo.length;
    ratingIntervals(elo.length, this.units, { ranks: false }).agents.forEach((interval, i) => {
      const truth = (elo[i] as number) - mean + 1000;
      run.intervals.checked++;
      if (interval.lower <= truth && truth <= interval.upper) run.intervals.covered++;
    });
    for (const p of pairs) {
      if (p.units === 0) continue;
      const truth = trueUnitScore(this.field, p.upper, p.lower);
      run.sequences.checked++;
      if (p.decision.interval[0] <= truth && truth <= p.decision.interval[1]) run.sequences.covered++;
    }
    return run;
  }
}

/** The adaptive format's schedule, step by step, until it stops or `maxGames` are played. */
export function runAdaptive(field: SimulatedField, plan: AdaptivePlan, seed: string): FieldRun {
  const play = new FieldPlay(field, createRng(`${seed}:games`));
  for (let batch = 1; ; batch++) {
    const step = nextAdaptiveStep(play.tally, play.games, batch, plan);
    if (step.kind === 'stop') return play.result(step.pairs, step.reason !== 'budget_games');
    for (const table of step.meetings) play.meet(table[0] as number, table[1] as number);
  }
}

/** Round-robin in whole rounds (every pair meets once per round) until the same rule decides every adjacent pair. */
export function runRoundRobin(field: SimulatedField, plan: AdaptivePlan, seed: string): FieldRun {
  const play = new FieldPlay(field, createRng(`${seed}:games`));
  const k = field.elo.length;
  const rules = { confidence: plan.confidence, topK: plan.topK };
  for (;;) {
    const pairs = adjacentPairs(play.tally, adaptiveRanking(play.tally, rules), rules);
    const done = pairs.every((p) => !p.inFocus || p.decision.decided);
    if (done || play.games + k * (k - 1) > plan.budgetGames) return play.result(pairs, done);
    for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) play.meet(a, b);
  }
}

export interface AdaptiveBenchRow {
  agents: number;
  fields: number;
  /** Fields both schedules resolved within the cap (the ratio is taken over these). */
  resolved: number;
  adaptiveGames: number;
  roundRobinGames: number;
  /** Adaptive runs' decided adjacent pairs, and those ordered wrongly. */
  decidedPairs: number;
  wrongPairs: number;
  /** The same for the round-robin runs. */
  roundRobinDecided: number;
  roundRobinWrong: number;
  intervals: { checked: number; covered: number };
  sequences: { checked: number; covered: number };
}

/** `fields` simulated fields of `agents` agents, each run both ways with the same seeds. */
export function compareSchedules(options: {
  agents: number;
  fields: number;
  seed: string;
  confidence?: number;
  maxGames?: number;
}): AdaptiveBenchRow {
  const rng = createRng(`${options.seed}:fields:${options.agents}`);
  const plan: AdaptivePlan = {
    seed: options.seed,
    confidence: options.confidence ?? 0.95,
    topK: null,
    gamesPerMeeting: 2,
    batchMeetings: 1,
    budgetGames: options.maxGames ?? 200_000,
  };
  const row: AdaptiveBenchRow = {
    agents: options.agents,
    fields: options.fields,
    resolved: 0,
    adaptiveGames: 0,
    roundRobinGames: 0,
    decidedPairs: 0,
    wrongPairs: 0,
    roundRobinDecided: 0,
    roundRobinWrong: 0,
    intervals: { checked: 0, covered: 0 },
    sequences: { checked: 0, covered: 0 },
  };
  for (let f = 0; f < options.fields; f++) {
    const field = simulatedField(rng, options.agents);
    const seed = `${options.seed}:${options.agents}:${f}`;
    const adaptive = runAdaptive(field, { ...plan, seed }, seed);
    const roundRobin = runRoundRobin(field, { ...plan, seed }, seed);
    row.decidedPairs += adaptive.decidedPairs;
    row.wrongPairs += adaptive.wrongPairs;
    row.roundRobinDecided += roundRobin.decidedPairs;
    row.roundRobinWrong += roundRobin.wrongPairs;
    row.intervals.checked += adaptive.intervals.checked;
    row.intervals.covered += adaptive.intervals.covered;
    row.sequences.checked += adaptive.sequences.checked;
    row.sequences.covered += adaptive.sequences.covered;
    if (!adaptive.resolved || !roundRobin.resolved) continue;
    row.resolved++;
    row.adaptiveGames += adaptive.games;
    row.roundRobinGames += roundRobin.games;
  }
  return row;
}
