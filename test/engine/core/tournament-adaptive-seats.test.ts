// The adaptive format at tables of more than two seats (issue 46): each seat-rotation set gives every two agents at
// the table one unit from their placements, tables are built around the least resolved pair and filled with the
// agents whose comparisons settle the most, every set rotates the seats, and the stop rule decides on placements.
// Fields of known strength are simulated through the real game source; the real-game run is in
// test/engine/tournaments/adaptive-seats-run.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../../engine/core/rng.js';
import {
  type AdaptivePlan,
  addAdaptiveUnit,
  addTableUnits,
  emptyAdaptiveTally,
  nextAdaptiveStep,
  pairEvidence,
  parseTournamentSpec,
  type ScheduledGame,
  scheduleProblems,
  type TournamentSpec,
} from '../../../engine/core/tournament/index.js';
import { createGameSource, gameKey } from '../../../engine/tournaments/run/game-source.js';

const plan = (extra: Partial<AdaptivePlan> = {}): AdaptivePlan => ({
  seed: 's1',
  confidence: 0.95,
  topK: null,
  gamesPerMeeting: 3,
  batchMeetings: 1,
  budgetGames: 1000,
  seats: 3,
  ...extra,
});

function meet(tally: ReturnType<typeof emptyAdaptiveTally>, a: number, b: number, units: number, score: number): void {
  for (let i = 0; i < units; i++) addAdaptiveUnit(tally, a, b, score);
}

const spec = (agents: number, extra: Record<string, unknown> = {}): TournamentSpec => {
  const parsed = parseTournamentSpec({
    name: 'adaptive tables',
    challenge: 'dining-cryptographers',
    format: { kind: 'adaptive' },
    budget: { games: 600 },
    games_per_pairing: 3,
    concurrency: 3,
    seed: 'tables-1',
    agents: Array.from({ length: agents }, (_, i) => ({ manifest: `m${i}`, id: `agent-${i}` })),
    limits: { move_seconds: 5, game_seconds: 60 },
    ...extra,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.spec;
};

/** Seat scores as the engine derives them from placements: the share of the other seats each seat placed above. */
function seatScores(places: readonly number[]): number[] {
  return places.map((mine, i) => {
    let sum = 0;
    places.forEach((other, j) => {
      if (j !== i) sum += mine < other ? 1 : mine === other ? 0.5 : 0;
    });
    return sum / (places.length - 1);
  });
}

/**
 * Placements of a game among agents of known strength (Plackett–Luce: the next place goes to a remaining agent with
 * probability ∝ 10^(elo/400)), with seat 0 given a 60 Elo edge, so a schedule that did not rotate seats would be biased.
 */
function playTable(rng: Rng, elo: readonly number[], seats: readonly number[]): number[] {
  const weight = seats.map((agent, seat) => 10 ** (((elo[agent] as number) + (seat === 0 ? 60 : 0)) / 400));
  const places = seats.map(() => 0);
  const left = seats.map((_, seat) => seat);
  for (let place = 1; left.length > 0; place++) {
    const total = left.reduce((s, seat) => s + (weight[seat] as number), 0);
    let draw = rng.next() * total;
    let pick = 0;
    while (pick < left.length - 1 && draw >= (weight[left[pick] as number] as number)) draw -= weight[left[pick++] as number] as number;
    places[left[pick] as number] = place;
    left.splice(pick, 1);
  }
  return places;
}

/** A whole run through the game source, results from `result`; a batch is recorded in reverse, as concurrency may. */
function playThrough(s: TournamentSpec, seats: number, result: (game: ScheduledGame) => number[]) {
  const source = createGameSource(s, () => seats);
  const games: ScheduledGame[] = [];
  let pending: ScheduledGame[] = [];
  for (;;) {
    const next = source.next();
    if (next !== 'wait' && next !== null) {
      pending.push(next);
      games.push(next);
      continue;
    }
    for (const game of pending.reverse()) source.record(game, seatScores(result(game)));
    pending = [];
    if (next === null) return { games, reason: source.stopReason?.() ?? null, summary: source.summary() as Record<string, unknown> };
  }
}

describe('adaptive units at a multi-seat table', () => {
  it('gives every two agents of a rotation set one unit: the share of games one placed above the other', () => {
    const tally = emptyAdaptiveTally(4);
    addTableUnits(tally, [
      { seats: [0, 1, 3], places: [1, 2, 3] },
      { seats: [1, 3, 0], places: [1, 1, 3] },
      { seats: [3, 0, 1], places: [2, 1, 3] },
    ]);
    // 0 vs 1: above, below, above → 2/3. 0 vs 3: above, below, above → 2/3. 1 vs 3: above, tie, below → 1/2.
    expect(pairEvidence(tally, 0, 1)).toEqual({ units: 1, score: 2 / 3 });
    expect(pairEvidence(tally, 3, 0).score).toBeCloseTo(1 / 3, 12);
    expect(pairEvidence(tally, 1, 3)).toEqual({ units: 1, score: 0.5 });
    expect(pairEvidence(tally, 0, 2).units).toBe(0);
  });
});

describe('adaptive tables', () => {
  it('seats the least resolved pair with the agent whose comparisons settle the most undecided pairs', () => {
    const t = emptyAdaptiveTally(5);
    // Ranking 0 > 1 > 2 > 3 > 4: 0–1 and 3–4 decided, 1–2 barely started, 2–3 half way.
    meet(t, 0, 1, 60, 0.95);
    meet(t, 1, 2, 1, 0.6);
    meet(t, 2, 3, 12, 0.8);
    meet(t, 3, 4, 60, 0.95);
    meet(t, 0, 4, 60, 1);
    const step = nextAdaptiveStep(t, 0, 1, plan());
    if (step.kind !== 'play') throw new Error('expected a batch');
    expect(step.meetings).toHaveLength(1);
    // Around 1–2 (least resolved), agent 3 completes the undecided 2–3: the table is {1, 2, 3} in some seat order.
    expect([...(step.meetings[0] as number[])].sort()).toEqual([1, 2, 3]);
  });

  it('builds each table of a batch around a pair no earlier table seats together, agents all distinct', () => {
    const t = emptyAdaptiveTally(7);
    const step = nextAdaptiveStep(t, 0, 1, plan({ batchMeetings: 3, seats: 4 }));
    if (step.kind !== 'play') throw new Error('expected a batch');
    expect(step.meetings.length).toBeGreaterThanOrEqual(2);
    const together = new Set<string>();
    for (const table of step.meetings) {
      expect(new Set(table).size).toBe(4);
      const sorted = [...table].sort();
      const anchorsSeatedBefore = sorted.every((a, i) => sorted.slice(i + 1).every((b) => together.has(`${a}-${b}`)));
      expect(anchorsSeatedBefore).toBe(false);
      for (const a of sorted) for (const b of sorted) if (a < b) together.add(`${a}-${b}`);
    }
  });

  it('leaves a level pair outside a top-k focus alone while a focus pair is undecided', () => {
    const t = emptyAdaptiveTally(4);
    meet(t, 0, 1, 3, 0.7);
    meet(t, 1, 2, 60, 0.95);
    meet(t, 2, 3, 40, 0.5);
    meet(t, 0, 2, 60, 1);
    meet(t, 1, 3, 60, 1);
    const step = nextAdaptiveStep(t, 0, 1, plan({ topK: 1, seats: 2, gamesPerMeeting: 2 }));
    expect(step).toMatchObject({ kind: 'play', meetings: [[0, 1]] });
  });

  it('refuses tables it cannot fill or rotate, naming the fix', () => {
    const seatsOf = () => 3;
    expect(scheduleProblems(spec(2), seatsOf).join('\n')).toContain('format adaptive needs at least 3 agents, the definition has 2');
    expect(scheduleProblems(spec(4, { games_per_pairing: 2 }), seatsOf).join('\n')).toContain(
      'games_per_pairing must be a multiple of 3, got 2',
    );
    expect(scheduleProblems(spec(4, { games_per_pairing: 6 }), seatsOf)).toEqual([]);
    expect(scheduleProblems(spec(3), seatsOf)).toEqual([]);
  });
});

describe('adaptive runs at multi-seat tables, fields of known strength', () => {
  const cases = [
    { seats: 3, elo: [0, 400, 150, 800, 550, 950] },
    { seats: 4, elo: [300, 0, 900, 600, 150, 750, 450] },
  ];
  for (const { seats, elo } of cases) {
    it(`${seats} seats, ${elo.length} agents: stops with ranking_decided on the true order, every set rotating the seats`, () => {
      const rng = createRng(`field-${seats}`);
      const run = playThrough(spec(elo.length, { games_per_pairing: seats, budget: { games: 6000 } }), seats, (game) =>
        playTable(rng, elo, game.seats),
      );
      expect(run.reason).toBe('ranking_decided');
      const truth = elo.map((_, i) => i).sort((a, b) => (elo[b] as number) - (elo[a] as number));
      expect(run.summary.ranking).toEqual(truth);
      expect((run.summary.pairs as Array<{ decided: boolean }>).every((p) => p.decided)).toBe(true);
      // Sets: `seats` games on one opening, each agent in each seat once; agents all distinct at a table.
      expect(run.games.length % seats).toBe(0);
      for (let i = 0; i < run.games.length; i += seats) {
        const set = run.games.slice(i, i + seats);
        expect(new Set(set.map((g) => g.seed)).size).toBe(1);
        for (let seat = 0; seat < seats; seat++) expect(new Set(set.map((g) => g.seats[seat])).size).toBe(seats);
        expect(new Set(set[0]?.seats).size).toBe(seats);
      }
      // It spends its games on the close pairs: fewer than every table of the field once per decided set would take.
      expect(run.games.length).toBeLessThan(6000);
    });
  }

  it('stops with top_k_decided once the top k are ordered and separated, leaving the rest undecided', () => {
    const elo = [0, 1000, 500, 0];
    const rng = createRng('focus');
    const run = playThrough(spec(4, { format: { kind: 'adaptive', focus: { top_k: 2 } } }), 3, (game) => playTable(rng, elo, game.seats));
    expect(run.reason).toBe('top_k_decided');
    expect((run.summary.ranking as number[]).slice(0, 2)).toEqual([1, 2]);
    const pairs = run.summary.pairs as Array<{ place: number; decided: boolean; in_focus: boolean }>;
    expect(pairs.filter((p) => p.in_focus).every((p) => p.decided)).toBe(true);
    expect(pairs.find((p) => p.place === 3)?.decided).toBe(false);
  });

  it('schedules the same tables for the same seed and results, whatever order each batch finishes in', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.boolean(), (seed, reverse) => {
        const elo = [0, 300, 600, 900, 200];
        const once = (flip: boolean): string[] => {
          const rng = createRng(`det-${seed}`);
          const results = new Map<string, number[]>();
          const s = spec(5, { seed: `det-${seed}`, budget: { games: 90 } });
          const source = createGameSource(s, () => 3);
          const keys: string[] = [];
          let pending: ScheduledGame[] = [];
          for (;;) {
            const next = source.next();
            if (next !== 'wait' && next !== null) {
              pending.push(next);
              keys.push(gameKey(next));
              continue;
            }
            // Results are drawn in game order (the same in both runs), recorded in either order.
            for (const g of pending) results.set(gameKey(g), playTable(rng, elo, g.seats));
            for (const g of flip ? [...pending].reverse() : pending) source.record(g, seatScores(results.get(gameKey(g)) as number[]));
            pending = [];
            if (next === null) return keys;
          }
        };
        expect(once(reverse)).toEqual(once(false));
      }),
      { numRuns: 20 },
    );
  });
});
