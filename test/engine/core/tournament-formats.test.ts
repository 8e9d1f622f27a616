// Static schedules (round-robin, gauntlet, n-seat tables): pairings, seat swapping, seeds, counts and laziness.
// Expected pairings are worked out by hand in the comments.
import { describe, expect, it } from 'vitest';
import {
  bergerRound,
  combinations,
  isPaired,
  meetingGames,
  plannedGameCount,
  rotateSeats,
  type ScheduledGame,
  type StaticScheduleConfig,
  scheduleGames,
  unitOf,
} from '../../../engine/core/tournament/index.js';

const pairKey = (a: number, b: number): string => (a < b ? `${a}-${b}` : `${b}-${a}`);
const all = (config: StaticScheduleConfig): ScheduledGame[] => [...scheduleGames(config)];
const rr = (agentCount: number, gamesPerPairing: number, extra: Partial<StaticScheduleConfig> = {}): StaticScheduleConfig => ({
  format: 'round-robin',
  agentCount,
  challenges: [{ id: 'psi', seats: 2 }],
  gamesPerPairing,
  seed: 'run-1',
  ...extra,
});

/** Every agent at most once per (challenge, round). */
function expectNoDoubleBooking(games: ScheduledGame[]): void {
  const tables = new Map<string, Map<number, number>>();
  for (const g of games) {
    const key = `${g.challenge}/${g.round}`;
    const seen = tables.get(key) ?? new Map<number, number>();
    for (const agent of g.seats) {
      const owner = seen.get(agent);
      expect(owner === undefined || owner === g.pairingIndex, `agent ${agent} in two meetings of ${key}`).toBe(true);
      seen.set(agent, g.pairingIndex);
    }
    tables.set(key, seen);
  }
}

describe('circle method', () => {
  it('builds the hand-derived rounds for 4 agents', () => {
    // m = 4, ring = {0,1,2} turning, agent 3 fixed; at(i) = (i + r) mod 3.
    // r=0: at0=0 meets 3 (r even → [0,3]); at1=1 meets at2=2.
    // r=1: at0=1 meets 3 (r odd → [3,1]); at1=2 meets at2=0.
    // r=2: at0=2 meets 3 → [2,3]; at1=0 meets at2=1.
    expect(bergerRound(4, 0)).toEqual([
      [0, 3],
      [1, 2],
    ]);
    expect(bergerRound(4, 1)).toEqual([
      [3, 1],
      [2, 0],
    ]);
    expect(bergerRound(4, 2)).toEqual([
      [2, 3],
      [0, 1],
    ]);
  });

  it('leaves one agent out per round with an odd count', () => {
    // 5 agents → phantom agent 5 → 5 rounds of 2 meetings; whoever meets the phantom sits out.
    const sitting = [0, 1, 2, 3, 4].map((r) => {
      const playing = bergerRound(5, r).flat();
      expect(playing).toHaveLength(4);
      return [0, 1, 2, 3, 4].find((a) => !playing.includes(a));
    });
    expect(new Set(sitting).size).toBe(5);
  });
});

describe('round-robin', () => {
  it('meets every pair exactly once per cycle, as one seat-swapped pair', () => {
    // 5 agents, 2 games per pairing: C(5,2) = 10 meetings × 2 = 20 games in 5 rounds.
    const config = rr(5, 2);
    const games = all(config);
    expect(plannedGameCount(config)).toBe(20);
    expect(games).toHaveLength(20);
    expect(new Set(games.map((g) => g.round))).toEqual(new Set([1, 2, 3, 4, 5]));
    const perPair = new Map<string, number>();
    for (const g of games)
      perPair.set(
        pairKey(g.seats[0] as number, g.seats[1] as number),
        (perPair.get(pairKey(g.seats[0] as number, g.seats[1] as number)) ?? 0) + 1,
      );
    expect(perPair.size).toBe(10);
    expect([...perPair.values()].every((n) => n === 2)).toBe(true);
    expectNoDoubleBooking(games);
    expect(games.map((g) => g.gameIndex)).toEqual([...Array(20).keys()]);
  });

  it('repeats the round-robin per cycle with fresh openings', () => {
    // cycles = 2: 2 × 10 meetings × 2 games = 40 games, rounds 1..10; each pair now has 2 pairs with 2 seeds.
    const games = all(rr(5, 2, { cycles: 2 }));
    expect(games).toHaveLength(40);
    expect(plannedGameCount(rr(5, 2, { cycles: 2 }))).toBe(40);
    expect(Math.max(...games.map((g) => g.round))).toBe(10);
    const seedsPerPair = new Map<string, Set<string>>();
    for (const g of games) {
      const key = pairKey(g.seats[0] as number, g.seats[1] as number);
      seedsPerPair.set(key, (seedsPerPair.get(key) ?? new Set()).add(g.seed));
    }
    expect([...seedsPerPair.values()].every((s) => s.size === 2)).toBe(true);
  });

  it('pairs games as (seats, reversed seats) on one seed when games_per_pairing is even', () => {
    const games = all(rr(4, 4));
    // 6 meetings × 4 games = 24; each meeting = 2 pairs = 2 openings.
    expect(games).toHaveLength(24);
    const byIndex = new Map(games.map((g) => [g.gameIndex, g]));
    for (const g of games) {
      expect(g.setSize).toBe(2);
      if (g.swapOf === undefined) continue;
      const head = byIndex.get(g.swapOf) as ScheduledGame;
      expect(g.gameIndex).toBe(head.gameIndex + 1);
      expect(g.seed).toBe(head.seed);
      expect(g.seats).toEqual([...head.seats].reverse());
      expect(unitOf(g)).toBe(head.gameIndex);
    }
    expect(games.filter((g) => g.swapOf !== undefined)).toHaveLength(12);
    // Two openings per meeting have different seeds.
    const meeting = games.filter((g) => g.round === 1 && g.pairingIndex === 0);
    expect(meeting.map((g) => g.opening)).toEqual([0, 0, 1, 1]);
    expect(new Set(meeting.map((g) => g.seed)).size).toBe(2);
  });

  it('plays odd games_per_pairing unpaired, alternating seats, one opening each', () => {
    // 3 games on 2 seats: 3 % 2 ≠ 0 → unpaired; rotation k mod 2 → [a,b], [b,a], [a,b].
    const meeting = all(rr(2, 3));
    expect(meeting).toHaveLength(3);
    expect(meeting.every((g) => g.swapOf === undefined && g.setSize === 1)).toBe(true);
    const [a, b] = (meeting[0] as ScheduledGame).seats as [number, number];
    expect(meeting.map((g) => g.seats)).toEqual([
      [a, b],
      [b, a],
      [a, b],
    ]);
    expect(new Set(meeting.map((g) => g.seed)).size).toBe(3);
  });

  it('spreads the first seat evenly with one game per meeting', () => {
    // Berger orientation: with 6 agents every agent is first in 2 or 3 of its 5 games (|first − second| = 1).
    const first = new Array<number>(6).fill(0);
    for (const g of all(rr(6, 1))) first[g.seats[0] as number] = (first[g.seats[0] as number] as number) + 1;
    expect(first.every((f) => f === 2 || f === 3)).toBe(true);
    expect(first.reduce((x, y) => x + y, 0)).toBe(15);
  });

  it('is deterministic per seed and changes every seed with the run seed', () => {
    const a = all(rr(6, 2));
    expect(all(rr(6, 2))).toEqual(a);
    const b = all(rr(6, 2, { seed: 'run-2' }));
    const seedsA = new Set(a.map((g) => g.seed));
    expect(b.some((g) => seedsA.has(g.seed))).toBe(false);
    // Pairs share seeds, so 30 games carry 15 distinct seeds.
    expect(seedsA.size).toBe(15);
  });

  it('generates lazily: a 2-billion-game plan yields its first games at once', () => {
    // C(2000, 2) = 1 999 000 meetings × 1000 games = 1 999 000 000 games.
    const config = rr(2000, 1000);
    expect(plannedGameCount(config)).toBe(1_999_000_000);
    const started = Date.now();
    const it = scheduleGames(config);
    const first = [it.next().value, it.next().value] as ScheduledGame[];
    expect(Date.now() - started).toBeLessThan(2000);
    expect(first[1]?.swapOf).toBe(0);
  });

  it('rejects invalid sizes', () => {
    expect(() => plannedGameCount(rr(4, 0))).toThrow(RangeError);
    expect(() => all(rr(2, 1, { challenges: [{ id: 'dc', seats: 3 }] }))).toThrow(/at least 3 agents/);
  });
});

describe('gauntlet', () => {
  it('plays the first agent against each other agent only', () => {
    // 4 agents, 1 challenger: meetings 0–1, 0–2, 0–3, one per round; 3 × 2 games.
    const config: StaticScheduleConfig = { ...rr(4, 2), format: 'gauntlet' };
    const games = all(config);
    expect(plannedGameCount(config)).toBe(6);
    expect(games).toHaveLength(6);
    expect(new Set(games.map((g) => pairKey(g.seats[0] as number, g.seats[1] as number)))).toEqual(new Set(['0-1', '0-2', '0-3']));
    expect(new Set(games.map((g) => g.round))).toEqual(new Set([1, 2, 3]));
  });

  it('with 2 challengers: each challenger meets each field agent once, never each other', () => {
    // k = 2, M = 4 → L = 4 rounds; (c, f) meets in round (f − c) mod 4 → 8 meetings, 2 per round.
    const config: StaticScheduleConfig = { ...rr(6, 1), format: 'gauntlet', challengers: 2 };
    const games = all(config);
    expect(plannedGameCount(config)).toBe(8);
    const pairs = games.map((g) => pairKey(g.seats[0] as number, g.seats[1] as number));
    expect(new Set(pairs)).toEqual(new Set(['0-2', '0-3', '0-4', '0-5', '1-2', '1-3', '1-4', '1-5']));
    expect(pairs).toHaveLength(8);
    expect(Math.max(...games.map((g) => g.round))).toBe(4);
    expectNoDoubleBooking(games);
  });

  it('for a 3-seat challenge seats one challenger with every 2 field agents', () => {
    // 1 challenger + C(3, 2) = 3 tables: {0,1,2}, {0,1,3}, {0,2,3}.
    const games = all({ ...rr(4, 3), format: 'gauntlet', challenges: [{ id: 'dc', seats: 3 }] });
    const tables = new Set(games.map((g) => [...g.seats].sort().join(',')));
    expect(tables).toEqual(new Set(['0,1,2', '0,1,3', '0,2,3']));
    expect(games).toHaveLength(9);
  });
});

describe('n-seat round-robin', () => {
  it('plays every 3-combination once as a set of 3 rotations on one seed', () => {
    // 5 agents, 3 seats: C(5,3) = 10 tables; games_per_pairing 3 = one set of 3 rotations → 30 games.
    const config = rr(5, 3, { challenges: [{ id: 'dc', seats: 3 }] });
    const games = all(config);
    expect(plannedGameCount(config)).toBe(30);
    expect(games).toHaveLength(30);
    const sets = new Map<number, ScheduledGame[]>();
    for (const g of games) sets.set(unitOf(g), [...(sets.get(unitOf(g)) ?? []), g]);
    expect(sets.size).toBe(10);
    const tables = new Set<string>();
    for (const set of sets.values()) {
      expect(set).toHaveLength(3);
      expect(new Set(set.map((g) => g.seed)).size).toBe(1);
      // Every agent of the table sits in every seat once.
      for (let seat = 0; seat < 3; seat++) expect(new Set(set.map((g) => g.seats[seat])).size).toBe(3);
      tables.add([...(set[0] as ScheduledGame).seats].sort().join(','));
    }
    expect(tables.size).toBe(10);
    expectNoDoubleBooking(games);
  });

  it('samples a balanced set of tables above max_tables', () => {
    // 7 agents, 3 seats: C(7,3) = 35 > 7 → 7 sampled tables; 7 × 3 seats / 7 agents = 3 tables per agent, and
    // 7 × 3 = 21 shared pairs over C(7,2) = 21 pairs allows each pair once (a Fano plane).
    const config = rr(7, 1, { challenges: [{ id: 'dc', seats: 3 }], maxTables: 7 });
    expect(plannedGameCount(config)).toBe(7);
    const games = all(config);
    const seated = new Array<number>(7).fill(0);
    const together = new Map<string, number>();
    for (const g of games) {
      for (const a of g.seats) seated[a] = (seated[a] as number) + 1;
      for (const [a, b] of combinations(g.seats, 2))
        together.set(pairKey(a as number, b as number), (together.get(pairKey(a as number, b as number)) ?? 0) + 1);
    }
    expect(seated).toEqual([3, 3, 3, 3, 3, 3, 3]);
    const counts = [...together.values()];
    expect(Math.max(...counts) - Math.min(...counts, ...(together.size < 21 ? [0] : []))).toBeLessThanOrEqual(1);
  });
});

describe('several challenges', () => {
  it('interleaves challenges round by round with contiguous indices', () => {
    // psi (2 seats): 6 meetings × 2 = 12 games; dc (3 seats): C(4,3) = 4 tables × 3 = 12 games.
    const config = rr(4, 3, {
      challenges: [
        { id: 'psi', seats: 2 },
        { id: 'dc', seats: 3 },
      ],
    });
    expect(plannedGameCount(config)).toBe(6 * 3 + 4 * 3);
    const games = all(config);
    expect(games).toHaveLength(30);
    expect(games.map((g) => g.gameIndex)).toEqual([...Array(30).keys()]);
    // Round 1 holds psi's two meetings first, then dc's first table.
    expect(games.slice(0, 9).map((g) => g.challenge)).toEqual(['psi', 'psi', 'psi', 'psi', 'psi', 'psi', 'dc', 'dc', 'dc']);
    const keys = new Set(games.map((g) => `${g.round}/${g.pairingIndex}/${g.opening}/${g.seats.join(',')}`));
    expect(keys.size).toBe(30);
  });
});

describe('meeting expansion', () => {
  it('rotates seats cyclically and decides pairing by divisibility', () => {
    expect(rotateSeats([7, 8, 9], 1)).toEqual([8, 9, 7]);
    expect(isPaired(4, 2)).toBe(true);
    expect(isPaired(3, 2)).toBe(false);
    expect(isPaired(6, 3)).toBe(true);
    const games = [
      ...meetingGames({ challenge: 'c', round: 1, pairingIndex: 0, table: [4, 5], gamesPerPairing: 2, firstOpening: 3 }, 's', 10),
    ];
    expect(games.map((g) => [g.gameIndex, g.opening, g.swapOf])).toEqual([
      [10, 3, undefined],
      [11, 3, 10],
    ]);
  });
});
