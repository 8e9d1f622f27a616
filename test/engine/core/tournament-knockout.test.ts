// Knockout bracket (§2.4): seeding order, byes, tie-breaks and progression to the final, derived by hand.
import { describe, expect, it } from 'vitest';
import {
  bracketSize,
  decideKnockoutMeeting,
  type KnockoutMeeting,
  knockoutFirstRound,
  knockoutMeetingGames,
  knockoutRoundCount,
  knockoutSeedOrder,
  knockoutTieBreakGames,
  nextKnockoutRound,
  thirdPlaceMeeting,
} from '../../../engine/core/tournament/index.js';

const options = { challenges: [{ id: 'psi', seats: 2 }], gamesPerPairing: 2, seed: 'ko' };

describe('bracket', () => {
  it('uses the standard seeding order', () => {
    // [1] → [1,2] → [1,4,2,3] → [1,8,4,5,2,7,3,6]: s is followed by 2m + 1 − s.
    expect(knockoutSeedOrder(2)).toEqual([1, 2]);
    expect(knockoutSeedOrder(4)).toEqual([1, 4, 2, 3]);
    expect(knockoutSeedOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    // Seeds 1 and 2 sit in opposite halves of a 16 bracket; every first-round pair sums to 17.
    const order16 = knockoutSeedOrder(16);
    expect(order16.slice(0, 8)).toContain(1);
    expect(order16.slice(8)).toContain(2);
    for (let i = 0; i < 16; i += 2) expect((order16[i] as number) + (order16[i + 1] as number)).toBe(17);
    expect(() => knockoutSeedOrder(6)).toThrow(RangeError);
  });

  it('gives byes to the top seeds', () => {
    // 5 agents → bracket 8, seeds 6, 7, 8 are byes. Slots [1,8 | 4,5 | 2,7 | 3,6] → agents are seed − 1:
    // 0 vs bye, 3 vs 4, 1 vs bye, 2 vs bye.
    expect(bracketSize(5)).toBe(8);
    expect(knockoutRoundCount(5)).toBe(3);
    const r1 = knockoutFirstRound([0, 1, 2, 3, 4]);
    expect(r1.map((m) => [m.high, m.low])).toEqual([
      [0, null],
      [3, 4],
      [1, null],
      [2, null],
    ]);
    expect(knockoutMeetingGames(r1[0] as KnockoutMeeting, options, 0)).toEqual([]);
    expect(decideKnockoutMeeting(r1[0] as KnockoutMeeting, { high: 0, low: 0 }, 0)).toEqual({
      status: 'decided',
      winner: 0,
      loser: null,
      decidedBy: 'bye',
    });
  });

  it('follows the seeding given, not the agent order', () => {
    // Seeding [4, 2, 0, 1]: seed 1 = agent 4, seed 4 = agent 1. Bracket 4: (1 v 4), (2 v 3) → 4 v 1, 2 v 0.
    expect(knockoutFirstRound([4, 2, 0, 1]).map((m) => [m.high, m.low])).toEqual([
      [4, 1],
      [2, 0],
    ]);
  });

  it('progresses from winners to the final, with a third-place meeting', () => {
    const seedRank = (agent: number): number => agent + 1;
    const r1 = knockoutFirstRound([0, 1, 2, 3, 4]);
    // Round 1 winners in bracket order: 0 (bye), 4 (beat 3), 1 (bye), 2 (bye).
    const r2 = nextKnockoutRound(r1, [0, 4, 1, 2], seedRank);
    expect(r2.map((m) => [m.round, m.high, m.low])).toEqual([
      [2, 0, 4],
      [2, 1, 2],
    ]);
    // Semi-finals: 4 beats 0, 1 beats 2 → final 1 (seed 2) v 4 (seed 5), higher seed first.
    const final = nextKnockoutRound(r2, [4, 1], seedRank);
    expect(final.map((m) => [m.round, m.high, m.low])).toEqual([[3, 1, 4]]);
    const third = thirdPlaceMeeting(final[0] as KnockoutMeeting, [0, 2], seedRank);
    expect([third.high, third.low, third.thirdPlace, third.round]).toEqual([0, 2, true, 3]);
    // The final's winner ends the bracket; the third-place meeting is ignored when pairing.
    expect(nextKnockoutRound([...final, third], [1], seedRank)).toEqual([]);
    expect(() => nextKnockoutRound(r2, [4], seedRank)).toThrow(/expected 2 winners/);
  });
});

describe('deciding a meeting', () => {
  const meeting: KnockoutMeeting = { round: 1, pairingIndex: 0, high: 3, low: 7 };

  it('needs tie-break pairs while level, then falls back to the seed', () => {
    // 1–1 after the regular pair → tie-break pair 1.
    expect(decideKnockoutMeeting(meeting, { high: 1, low: 1 }, 0, 3)).toEqual({ status: 'tie_break', pair: 1 });
    // Still level after 2 tie-break pairs (3–3) → pair 3.
    expect(decideKnockoutMeeting(meeting, { high: 3, low: 3 }, 2, 3)).toEqual({ status: 'tie_break', pair: 3 });
    // Decided during the tie-break: 4.5–3.5 for the lower seed.
    expect(decideKnockoutMeeting(meeting, { high: 3.5, low: 4.5 }, 1, 3)).toEqual({
      status: 'decided',
      winner: 7,
      loser: 3,
      decidedBy: 'tie_break',
    });
    // Level after all 3 tie-break pairs → higher seed advances.
    expect(decideKnockoutMeeting(meeting, { high: 4, low: 4 }, 3, 3)).toEqual({
      status: 'decided',
      winner: 3,
      loser: 7,
      decidedBy: 'seed',
    });
    // Decided by the regular games.
    expect(decideKnockoutMeeting(meeting, { high: 0.5, low: 1.5 }, 0, 3)).toEqual({
      status: 'decided',
      winner: 7,
      loser: 3,
      decidedBy: 'games',
    });
  });

  it('plays each tie-break pair on a fresh opening with swapped seats', () => {
    const regular = knockoutMeetingGames(meeting, options, 10);
    // 2 games per pairing = 1 pair on opening 0.
    expect(regular.map((g) => [g.gameIndex, g.seats, g.opening])).toEqual([
      [10, [3, 7], 0],
      [11, [7, 3], 0],
    ]);
    const tb1 = knockoutTieBreakGames(meeting, 1, options, 12);
    const tb2 = knockoutTieBreakGames(meeting, 2, options, 14);
    // Regular openings = 2 / 2 = 1 → tie-break pair 1 uses opening 1, pair 2 opening 2.
    expect(tb1.map((g) => [g.gameIndex, g.seats, g.opening, g.swapOf])).toEqual([
      [12, [3, 7], 1, undefined],
      [13, [7, 3], 1, 12],
    ]);
    expect(tb2[0]?.opening).toBe(2);
    expect(new Set([regular[0]?.seed, tb1[0]?.seed, tb2[0]?.seed]).size).toBe(3);
  });
});
