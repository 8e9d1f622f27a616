// The adaptive format (issue 46): its decision rule, pairing rule, stop rule, the game source that schedules it
// batch by batch, the schedule as a function of seed + results only, and the definition's budget validation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AdaptivePlan,
  adaptiveRanking,
  addAdaptiveUnit,
  emptyAdaptiveTally,
  nextAdaptiveStep,
  pairDecision,
  parseTournamentSpec,
  type ScheduledGame,
  scheduleProblems,
  sequenceBoundary,
  type TournamentSpec,
} from '../../../engine/core/tournament/index.js';
import { createGameSource, gameKey } from '../../../engine/tournaments/run/game-source.js';

const plan = (extra: Partial<AdaptivePlan> = {}): AdaptivePlan => ({
  seed: 's1',
  confidence: 0.95,
  topK: null,
  gamesPerMeeting: 2,
  batchMeetings: 1,
  budgetGames: 1000,
  ...extra,
});

/** `units` units of a against b in which a scores `score` each. */
function meet(tally: ReturnType<typeof emptyAdaptiveTally>, a: number, b: number, units: number, score: number): void {
  for (let i = 0; i < units; i++) addAdaptiveUnit(tally, a, b, score);
}

describe('adaptive decision rule', () => {
  it('decides only past the time-uniform boundary, which is wider than a one-look z test', () => {
    // 20 units: the one-look 95% z half-width on the sum would be 1.96·√(20/4) ≈ 4.4; the sequence needs more.
    const b20 = sequenceBoundary(20, 0.95);
    expect(b20).toBeGreaterThan(1.96 * Math.sqrt(5));
    expect(pairDecision({ units: 20, score: 10 + b20 - 0.01 }, 0.95).decided).toBe(false);
    const d = pairDecision({ units: 20, score: 10 + b20 + 0.01 }, 0.95);
    expect(d).toMatchObject({ decided: true, leader: 'a' });
    expect(pairDecision({ units: 20, score: 10 - b20 - 0.01 }, 0.95)).toMatchObject({ decided: true, leader: 'b' });
    expect(pairDecision({ units: 0, score: 0 }, 0.95)).toMatchObject({ decided: false, progress: 0 });
    // A higher confidence needs more.
    expect(sequenceBoundary(20, 0.99)).toBeGreaterThan(b20);
  });

  it('keeps its error rate under repeated looks: a level pair is rarely ever decided', () => {
    // 400 level pairs looked at after every unit for 300 units: a fixed 95% test would cross in far more than 5%.
    let crossed = 0;
    let seed = 7;
    const rand = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let rep = 0; rep < 400; rep++) {
      let score = 0;
      for (let u = 1; u <= 300; u++) {
        score += rand() < 0.5 ? 1 : 0;
        if (pairDecision({ units: u, score }, 0.95).decided) {
          crossed++;
          break;
        }
      }
    }
    expect(crossed / 400).toBeLessThanOrEqual(0.05);
  });
});

describe('adaptive pairing and stop rules', () => {
  it('plays the least resolved adjacent pair, upper agent first', () => {
    const t = emptyAdaptiveTally(3);
    // 0 clearly above 1 (decided); 1 barely above 2.
    meet(t, 0, 1, 60, 0.9);
    meet(t, 1, 2, 4, 0.6);
    expect(adaptiveRanking(t, plan())).toEqual([0, 1, 2]);
    const step = nextAdaptiveStep(t, 128, 1, plan());
    expect(step.kind).toBe('play');
    if (step.kind !== 'play') return;
    expect(step.meetings).toEqual([[1, 2]]);
    expect(step.pairs.map((p) => p.decision.decided)).toEqual([true, false]);
  });

  it('fills a batch with distinct undecided pairs, least resolved first', () => {
    const t = emptyAdaptiveTally(4);
    meet(t, 0, 1, 6, 0.7);
    meet(t, 1, 2, 2, 0.6);
    meet(t, 2, 3, 10, 0.7);
    const step = nextAdaptiveStep(t, 0, 1, plan({ batchMeetings: 2 }));
    if (step.kind !== 'play') throw new Error('expected a batch');
    expect(step.meetings).toEqual([
      [1, 2],
      [0, 1],
    ]);
  });

  it('stops when every adjacent pair is decided, or the top-k set is', () => {
    const t = emptyAdaptiveTally(3);
    meet(t, 0, 1, 80, 0.9);
    meet(t, 1, 2, 80, 0.9);
    expect(nextAdaptiveStep(t, 0, 1, plan())).toMatchObject({ kind: 'stop', reason: 'ranking_decided' });
    const u = emptyAdaptiveTally(3);
    meet(u, 0, 1, 80, 0.9);
    meet(u, 1, 2, 4, 0.5);
    expect(nextAdaptiveStep(u, 0, 1, plan()).kind).toBe('play');
    expect(nextAdaptiveStep(u, 0, 1, plan({ topK: 1 }))).toMatchObject({ kind: 'stop', reason: 'top_k_decided' });
  });

  it('stops when the next meeting would pass the game budget', () => {
    const t = emptyAdaptiveTally(3);
    expect(nextAdaptiveStep(t, 59, 1, plan({ budgetGames: 60 }))).toMatchObject({ kind: 'stop', reason: 'budget_games' });
    const step = nextAdaptiveStep(t, 56, 1, plan({ budgetGames: 60, batchMeetings: 4 }));
    if (step.kind !== 'play') throw new Error('expected a batch');
    expect(step.meetings).toHaveLength(2);
  });

  it('shows a pair decided against the BT order in its decided order', () => {
    const t = emptyAdaptiveTally(3);
    // 1 beats 0 head to head decisively, but 0 crushes 2 and 1 only edges 2: BT may put 0 first.
    meet(t, 1, 0, 120, 0.75);
    meet(t, 0, 2, 400, 0.99);
    meet(t, 1, 2, 400, 0.8);
    const ranking = adaptiveRanking(t, plan());
    expect(ranking.indexOf(1)).toBeLessThan(ranking.indexOf(0));
  });
});

const spec = (extra: Record<string, unknown> = {}): TournamentSpec => {
  const parsed = parseTournamentSpec({
    name: 'adaptive',
    challenge: 'psi',
    format: { kind: 'adaptive' },
    budget: { games: 60 },
    concurrency: 4,
    seed: 'seed-a',
    agents: [
      { manifest: 'a', id: 'a' },
      { manifest: 'b', id: 'b' },
      { manifest: 'c', id: 'c' },
      { manifest: 'd', id: 'd' },
    ],
    limits: { move_seconds: 5, game_seconds: 60 },
    ...extra,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.spec;
};

/**
 * Plays a whole run through the game source: `outcome(k)` is seat 0's score in the k-th game handed out. Games of a
 * batch are recorded in the order `order` gives, as a run with concurrency would finish them.
 */
function playThrough(
  s: TournamentSpec,
  outcome: (k: number) => number,
  order: (n: number) => number[],
): { games: string[]; reason: string | null } {
  const source = createGameSource(s, () => 2);
  const games: string[] = [];
  let pending: ScheduledGame[] = [];
  for (;;) {
    const next = source.next();
    if (next !== 'wait' && next !== null) {
      pending.push(next);
      games.push(gameKey(next));
      continue;
    }
    if (next === null) return { games, reason: source.stopReason?.() ?? null };
    const perm = order(pending.length);
    for (const i of perm) {
      const game = pending[i] as ScheduledGame;
      const y = outcome(game.gameIndex);
      source.record(game, [y, 1 - y]);
    }
    pending = [];
  }
}

describe('adaptive game source', () => {
  it('plays seat-swapped pairs with one opening, and stops with a reason within the budget', () => {
    const source = createGameSource(spec(), () => 2);
    const first = source.next();
    const second = source.next();
    if (first === null || first === 'wait' || second === null || second === 'wait') throw new Error('expected games');
    expect(second.seats).toEqual([...first.seats].reverse());
    expect(second.seed).toBe(first.seed);
    expect(second.swapOf).toBe(first.gameIndex);
    const run = playThrough(
      spec(),
      (i) => (i % 3 === 0 ? 1 : 0.5),
      (n) => [...Array(n).keys()],
    );
    expect(run.games.length).toBeLessThanOrEqual(60);
    expect(run.reason).toBe('budget_games');
  });

  it('is a deterministic function of the seed and the results, whatever order a batch finishes in', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0, 0.5, 1), { minLength: 60, maxLength: 60 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        (results, seed, concurrency) => {
          const s = spec({ seed, concurrency });
          const outcome = (i: number): number => results[i % results.length] as number;
          const inOrder = playThrough(s, outcome, (n) => [...Array(n).keys()]);
          const reversed = playThrough(s, outcome, (n) => [...Array(n).keys()].reverse());
          expect(reversed).toEqual(inOrder);
          expect(inOrder.games.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('depends on the seed: another seed breaks ties another way', () => {
    const outcome = (): number => 0.5;
    const keys = (seed: string) => playThrough(spec({ seed }), outcome, (n) => [...Array(n).keys()]).games.slice(0, 2);
    const all = new Set(['a', 'b', 'c', 'd', 'e', 'f'].map((s) => JSON.stringify(keys(s))));
    expect(all.size).toBeGreaterThan(1);
  });
});

describe('adaptive definition', () => {
  it('refuses format adaptive without budget.games, naming the field', () => {
    const parsed = parseTournamentSpec({
      name: 'x',
      challenge: 'psi',
      format: 'adaptive',
      seed: 1,
      agents: [{ manifest: 'a' }, { manifest: 'b' }],
      limits: { move_seconds: 5, game_seconds: 60 },
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((i) => i.path)).toContain('budget.games');
    expect(parsed.errors.join('\n')).toMatch(/budget.games: Required/);
  });

  it('refuses a budget on other formats, a top_k that is not fewer than the agents, and odd games_per_pairing', () => {
    const other = parseTournamentSpec({ ...spec(), challenge: undefined, format: 'round-robin', budget: { games: 4 } });
    expect(other.ok).toBe(false);
    const topK = parseTournamentSpec({ ...spec(), challenge: undefined, format: { kind: 'adaptive', focus: { top_k: 4 } } });
    expect(topK.ok).toBe(false);
    expect(scheduleProblems(spec({ games_per_pairing: 3 }), () => 2)).toEqual([
      'format adaptive plays seat-swapped pairs: games_per_pairing must be even, got 3',
    ]);
    // Three seats: seat-rotation sets, so games_per_pairing must be a multiple of 3.
    expect(scheduleProblems(spec(), () => 3)[0]).toMatch(/games_per_pairing must be a multiple of 3, got 2/);
  });
});
