// Swiss standings and pairing (§2.3), with standings and pairings worked out by hand in the comments.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/core/rng.js';
import {
  defaultSwissRounds,
  meetingKey,
  meetingPoints,
  nextSwissRound,
  type SwissHistoryEntry,
  swissRoundGames,
  swissStandings,
} from '../../../engine/core/tournament/index.js';

const sortedPairs = (meetings: Array<[number, number]>): string[] => meetings.map(([a, b]) => meetingKey(a, b));

describe('swiss standings', () => {
  // Six agents, two games per meeting. Round 1: 0 beat 3 2–0, 1 and 4 split 1–1, 5 beat 2 2–0.
  const history: SwissHistoryEntry[] = [
    { round: 1, agents: [0, 3], points: [2, 0] },
    { round: 1, agents: [1, 4], points: [1, 1] },
    { round: 1, agents: [2, 5], points: [0, 2] },
  ];

  it('orders by points, Buchholz, Sonneborn–Berger, direct encounter, seed', () => {
    // Points: 0:2 5:2 1:1 4:1 3:0 2:0.
    // Buchholz (opponent's points): 0←3:0, 5←2:0, 1←4:1, 4←1:1, 3←0:2, 2←5:2.
    // SB (own × opponent's points): 0: 2·0 = 0, 5: 2·0 = 0, 1: 1·1 = 1, 4: 1·1 = 1, 3: 0·2 = 0, 2: 0·2 = 0.
    // Ties: {0,5} never met → seed → 0, 5. {1,4} met 1–1 → direct encounter 1 each → seed → 1, 4. {2,3} → 2, 3.
    const table = swissStandings(6, history);
    expect(table.map((s) => s.agent)).toEqual([0, 5, 1, 4, 2, 3]);
    expect(table.map((s) => s.points)).toEqual([2, 2, 1, 1, 0, 0]);
    expect(table.map((s) => s.buchholz)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(table.map((s) => s.sonnebornBerger)).toEqual([0, 0, 1, 1, 0, 0]);
    expect(table.find((s) => s.agent === 1)?.directEncounter).toBe(1);
    expect(table.map((s) => s.place)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('breaks a tie by direct encounter', () => {
    // R1: 0–1 0:2 (1 wins), 2–3 2:0, 4–5 0:2. R2: 0–2 2:0, 1–4 0:2, 3–5 1:1.
    // Points: 0: 0+2 = 2, 1: 2+0 = 2, 2: 2+0 = 2, 3: 0+1 = 1, 4: 0+2 = 2, 5: 2+1 = 3.
    // Buchholz: 0: p1+p2 = 4, 1: p0+p4 = 4, 2: p3+p0 = 3, 4: p5+p1 = 5.
    // SB: 0: 0·p1 + 2·p2 = 4, 1: 2·p0 + 0·p4 = 4 → 0 and 1 tie on all three; 1 won their meeting 2–0.
    // Order: 5 (3 pts), 4 (B 5), 1 (B 4, DE 2), 0 (B 4, DE 0), 2 (B 3), 3 (1 pt).
    const h: SwissHistoryEntry[] = [
      { round: 1, agents: [0, 1], points: [0, 2] },
      { round: 1, agents: [2, 3], points: [2, 0] },
      { round: 1, agents: [4, 5], points: [0, 2] },
      { round: 2, agents: [0, 2], points: [2, 0] },
      { round: 2, agents: [1, 4], points: [0, 2] },
      { round: 2, agents: [3, 5], points: [1, 1] },
    ];
    const table = swissStandings(6, h);
    expect(table.map((s) => s.agent)).toEqual([5, 4, 1, 0, 2, 3]);
    expect(table.find((s) => s.agent === 0)?.sonnebornBerger).toBe(4);
    expect(table.find((s) => s.agent === 1)?.sonnebornBerger).toBe(4);
    expect(table.find((s) => s.agent === 1)?.directEncounter).toBe(2);
    expect(table.find((s) => s.agent === 0)?.directEncounter).toBe(0);
  });

  it('counts byes and down-floats', () => {
    const h: SwissHistoryEntry[] = [
      { round: 1, agents: [0, 1], points: [2, 0] },
      { round: 1, bye: 2, points: 2 },
      { round: 2, agents: [2, 1], points: [2, 0] },
    ];
    // Before round 2: 0: 2, 1: 0, 2: 2 → 2 (2 points) met 1 (0 points): a down-float for 2.
    const table = swissStandings(3, h);
    const two = table.find((s) => s.agent === 2);
    expect(two?.byes).toBe(1);
    expect(two?.downFloats).toBe(1);
    expect(two?.points).toBe(4);
    // The bye has no opponent: Buchholz of 2 is only 1's points (0).
    expect(two?.buchholz).toBe(0);
  });
});

describe('swiss pairing', () => {
  const rng = () => createRng('swiss-test');

  it('round 1 pairs top half against bottom half in seed order', () => {
    // One score group of 6 in seed order: 1st–4th, 2nd–5th, 3rd–6th.
    const pairing = nextSwissRound(swissStandings(6, []), [], rng());
    expect(pairing.round).toBe(1);
    expect(sortedPairs(pairing.meetings)).toEqual(['0-3', '1-4', '2-5']);
    expect(pairing.bye).toBeNull();
    expect(pairing.floats).toBe(0);
  });

  it('pairs within score groups and top half vs bottom half', () => {
    // 8 agents, round 1 (0–4, 1–5, 2–6, 3–7) all won 2–0 by the top half.
    // Winners {0,1,2,3} (2 points, Buchholz 0) and losers {4,5,6,7} (0 points, Buchholz 2).
    // Group of 4: 1st–3rd, 2nd–4th → 0–2, 1–3 and 4–6, 5–7; no floats.
    const h: SwissHistoryEntry[] = [0, 1, 2, 3].map((i) => ({
      round: 1,
      agents: [i, i + 4] as [number, number],
      points: [2, 0] as [number, number],
    }));
    const pairing = nextSwissRound(swissStandings(8, h), h, rng());
    expect(sortedPairs(pairing.meetings)).toEqual(['0-2', '1-3', '4-6', '5-7']);
    expect(pairing.floats).toBe(0);
    expect(pairing.round).toBe(2);
  });

  it('floats instead of repeating a meeting', () => {
    // Standings after the round-1 history above: 0, 5 | 1, 4 | 2, 3 (groups 2, 1, 0 points).
    // 0–5 fine. 1–4 already met → 1 and 4 must leave their group: 1–2 and 4–3 (2 floats, the minimum:
    // the {1,4} group cannot pair internally, so at least two cross-group meetings are needed).
    const h: SwissHistoryEntry[] = [
      { round: 1, agents: [0, 3], points: [2, 0] },
      { round: 1, agents: [1, 4], points: [1, 1] },
      { round: 1, agents: [2, 5], points: [0, 2] },
    ];
    const pairing = nextSwissRound(swissStandings(6, h), h, rng());
    expect(sortedPairs(pairing.meetings)).toEqual(['0-5', '1-2', '3-4']);
    expect(pairing.floats).toBe(2);
    expect(pairing.rematches).toBe(0);
  });

  it('gives the bye to the lowest-placed agent without one', () => {
    // 5 agents, round 1: bye to the 5th seed (agent 4); group 0..3 → 0–2, 1–3.
    const r1 = nextSwissRound(swissStandings(5, []), [], rng());
    expect(r1.bye).toBe(4);
    expect(sortedPairs(r1.meetings)).toEqual(['0-2', '1-3']);
    // 0 and 1 win 2–0; the bye scores 2. Standings: 0, 1, 4 (2 points, all Buchholz 0), 2, 3 (0 points).
    // Bye → lowest without one: 3. Group {0,1,4}: 0–1, then 4 floats down to 2 (1 float).
    const h: SwissHistoryEntry[] = [
      { round: 1, agents: [0, 2], points: [2, 0] },
      { round: 1, agents: [1, 3], points: [2, 0] },
      { round: 1, bye: 4, points: 2 },
    ];
    const r2 = nextSwissRound(swissStandings(5, h), h, rng());
    expect(r2.bye).toBe(3);
    expect(sortedPairs(r2.meetings)).toEqual(['0-1', '2-4']);
    expect(r2.floats).toBe(1);
  });

  it('never repeats a meeting while a rematch-free pairing exists (random histories)', () => {
    // Brute force: all perfect matchings of 6 agents (15) decide whether a rematch-free one exists.
    const matchings = (items: number[]): number[][][] => {
      if (items.length === 0) return [[]];
      const [first, ...rest] = items as [number, ...number[]];
      return rest.flatMap((partner, i) => matchings(rest.filter((_, j) => j !== i)).map((m) => [[first, partner], ...m]));
    };
    const allMatchings = matchings([0, 1, 2, 3, 4, 5]);
    expect(allMatchings).toHaveLength(15);
    let roundsChecked = 0;
    for (let s = 0; s < 25; s++) {
      const results = createRng(`results-${s}`);
      const history: SwissHistoryEntry[] = [];
      for (let round = 1; round <= 5; round++) {
        const pairing = nextSwissRound(swissStandings(6, history), history, createRng(`p-${s}-${round}`));
        expect(pairing.meetings.flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
        const met = new Set(history.map((e) => ('agents' in e ? meetingKey(e.agents[0], e.agents[1]) : '')));
        const avoidable = allMatchings.some((m) => m.every(([a, b]) => !met.has(meetingKey(a as number, b as number))));
        if (avoidable) expect(pairing.rematches).toBe(0);
        roundsChecked++;
        for (const [a, b] of pairing.meetings) {
          const pa = results.nextInt(0, 2);
          history.push({ round, agents: [a, b], points: [pa, 2 - pa] });
        }
      }
    }
    expect(roundsChecked).toBe(125);
  });
});

describe('swiss games', () => {
  it('expands a round into seat-swapped pairs with unique pairing indices', () => {
    const pairing = { round: 3, meetings: [[0, 1] as [number, number], [2, 3] as [number, number]], bye: null, floats: 0, rematches: 0 };
    const games = swissRoundGames(
      pairing,
      {
        challenges: [
          { id: 'a', seats: 2 },
          { id: 'b', seats: 2 },
        ],
        gamesPerPairing: 2,
        seed: 's',
      },
      100,
    );
    // 2 meetings × 2 challenges × 2 games = 8 games, indices 100..107; pairingIndex = board × 2 + challenge.
    expect(games.map((g) => g.gameIndex)).toEqual([100, 101, 102, 103, 104, 105, 106, 107]);
    expect(games.map((g) => g.pairingIndex)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(games[1]?.seats).toEqual([1, 0]);
    expect(games[1]?.swapOf).toBe(100);
    expect(() => swissRoundGames(pairing, { challenges: [{ id: 'dc', seats: 3 }], gamesPerPairing: 3, seed: 's' }, 0)).toThrow(/two-seat/);
  });

  it('sums meeting points per agent and defaults the round count', () => {
    // Game 1: agent 5 in seat 0 wins (1, 0); game 2: draw (½, ½) → 5: 1.5, 9: 0.5.
    expect(
      meetingPoints(
        [5, 9],
        [
          { seats: [5, 9], seatScores: [1, 0] },
          { seats: [9, 5], seatScores: [0.5, 0.5] },
        ],
      ),
    ).toEqual([1.5, 0.5]);
    // ceil(log2 N) + 1, capped at N − 1: N=8 → 4; N=3 → min(3, 2) = 2; N=16 → 5.
    expect([defaultSwissRounds(8), defaultSwissRounds(3), defaultSwissRounds(16)]).toEqual([4, 2, 5]);
  });
});
