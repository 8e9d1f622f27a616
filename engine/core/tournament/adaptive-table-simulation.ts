// Simulated fields at tables of more than two seats for the adaptive format (issue 46): agents of known Elo ratings
// finish a game in Plackett–Luce order (the next place goes to a remaining agent with probability ∝ 10^(elo/400);
// seat 0 has a small edge that the seat rotation cancels). Each run plays seat-rotation sets chosen either by the
// adaptive format's step function or by every table of the field in whole rounds, until the same rule decides every
// adjacent pair. `npm run bench:adaptive` calls this; nothing here starts a process.
import { createRng, type Rng } from '../rng.js';
import {
  type AdaptiveTally,
  type AdjacentPair,
  adaptiveRanking,
  addTableUnits,
  adjacentPairs,
  emptyAdaptiveTally,
  nextAdaptiveStep,
} from './adaptive.js';
import { simulatedField } from './adaptive-simulation.js';
import { rotateSeats } from './meeting-games.js';

/** Seat 0's edge, in Elo. */
const SEAT_EDGE = 20;

/** Placements (1 = first) of one game with `seats` in seat order. */
function placeTable(rng: Rng, elo: readonly number[], seats: readonly number[]): number[] {
  const weight = seats.map((agent, seat) => 10 ** (((elo[agent] as number) + (seat === 0 ? SEAT_EDGE : 0)) / 400));
  const places = seats.map(() => 0);
  const left = seats.map((_, seat) => seat);
  for (let place = 1; left.length > 0; place++) {
    let draw = rng.next() * left.reduce((sum, seat) => sum + (weight[seat] as number), 0);
    let pick = 0;
    while (pick < left.length - 1 && draw >= (weight[left[pick] as number] as number)) draw -= weight[left[pick++] as number] as number;
    places[left[pick] as number] = place;
    left.splice(pick, 1);
  }
  return places;
}

/** One seat-rotation set at `table`: as many games as seats, one per rotation. */
function playSet(tally: AdaptiveTally, rng: Rng, elo: readonly number[], table: readonly number[]): number {
  addTableUnits(
    tally,
    table.map((_, shift) => {
      const seats = rotateSeats(table, shift);
      return { seats, places: placeTable(rng, elo, seats) };
    }),
  );
  return table.length;
}

/** Every table of `seats` agents out of `agents`, in lexicographic order. */
function allTables(agents: number, seats: number, from = 0): number[][] {
  if (seats === 0) return [[]];
  const out: number[][] = [];
  for (let a = from; a <= agents - seats; a++) for (const rest of allTables(agents, seats - 1, a + 1)) out.push([a, ...rest]);
  return out;
}

interface TableRun {
  games: number;
  resolved: boolean;
  decided: number;
  wrong: number;
}

function outcome(elo: readonly number[], pairs: readonly AdjacentPair[], games: number, resolved: boolean): TableRun {
  const decided = pairs.filter((p) => p.decision.decided);
  return {
    games,
    resolved,
    decided: decided.length,
    wrong: decided.filter((p) => (elo[p.upper] as number) < (elo[p.lower] as number)).length,
  };
}

export interface TableBenchRow {
  agents: number;
  seats: number;
  fields: number;
  /** Fields both schedules resolved within the cap (the games are summed over these). */
  resolved: number;
  adaptiveGames: number;
  allTablesGames: number;
  decidedPairs: number;
  wrongPairs: number;
}

/** `fields` simulated fields of `agents` agents at `seats`-seat tables, each run both ways with the same seeds. */
export function compareTableSchedules(options: {
  agents: number;
  seats: number;
  fields: number;
  seed: string;
  maxGames?: number;
}): TableBenchRow {
  const { agents, seats } = options;
  const cap = options.maxGames ?? 200_000;
  const rules = { confidence: 0.95, topK: null };
  const fieldRng = createRng(`${options.seed}:table-fields:${agents}:${seats}`);
  const tables = allTables(agents, seats);
  const row: TableBenchRow = {
    agents,
    seats,
    fields: options.fields,
    resolved: 0,
    adaptiveGames: 0,
    allTablesGames: 0,
    decidedPairs: 0,
    wrongPairs: 0,
  };
  for (let f = 0; f < options.fields; f++) {
    const { elo } = simulatedField(fieldRng, agents);
    const seed = `${options.seed}:${agents}:${seats}:${f}`;
    const plan = { seed, ...rules, gamesPerMeeting: seats, batchMeetings: 1, budgetGames: cap, seats };
    let adaptive: TableRun | null = null;
    const tally = emptyAdaptiveTally(agents);
    const rng = createRng(`${seed}:games`);
    for (let batch = 1, games = 0; adaptive === null; batch++) {
      const step = nextAdaptiveStep(tally, games, batch, plan);
      if (step.kind === 'stop') adaptive = outcome(elo, step.pairs, games, step.reason !== 'budget_games');
      else for (const table of step.meetings) games += playSet(tally, rng, elo, table);
    }
    let rounds: TableRun | null = null;
    const roundTally = emptyAdaptiveTally(agents);
    const roundRng = createRng(`${seed}:games`);
    for (let games = 0; rounds === null; ) {
      const pairs = adjacentPairs(roundTally, adaptiveRanking(roundTally, rules), rules);
      const done = pairs.every((p) => p.decision.decided);
      if (done || games + tables.length * seats > cap) rounds = outcome(elo, pairs, games, done);
      else for (const table of tables) games += playSet(roundTally, roundRng, elo, table);
    }
    row.decidedPairs += adaptive.decided;
    row.wrongPairs += adaptive.wrong;
    if (!adaptive.resolved || !rounds.resolved) continue;
    row.resolved++;
    row.adaptiveGames += adaptive.games;
    row.allTablesGames += rounds.games;
  }
  return row;
}
