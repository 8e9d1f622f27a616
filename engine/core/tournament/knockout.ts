// Single-elimination knockout (§2.4, project decision). Seeds are 1-based ranks in the given seeding order
// (definition order unless a prior rating supplies one). The bracket is the next power of two; the missing
// entrants are byes, and the standard seeding order gives them to the top seeds.
import { meetingGames } from './meeting-games.js';
import type { MeetingGamesOptions, ScheduledGame } from './types.js';

export const DEFAULT_TIE_BREAK_PAIRS = 3;

/**
 * Seed ranks in bracket slot order for a bracket of `size` (a power of two): [1, 2] → [1, 4, 2, 3] →
 * [1, 8, 4, 5, 2, 7, 3, 6]. Each step replaces seed s by (s, 2m + 1 − s), so 1 meets the lowest seed and 1 and 2
 * can only meet in the final.
 */
export function knockoutSeedOrder(size: number): number[] {
  if (!Number.isInteger(size) || size < 1 || (size & (size - 1)) !== 0)
    throw new RangeError(`bracket size must be a power of two, got ${size}`);
  let order = [1];
  for (let m = 1; m < size; m *= 2) order = order.flatMap((s) => [s, 2 * m + 1 - s]);
  return order;
}

export function bracketSize(agentCount: number): number {
  let size = 1;
  while (size < agentCount) size *= 2;
  return size;
}

export interface KnockoutMeeting {
  /** From 1. */
  round: number;
  /** Position in the round's bracket order, from 0. */
  pairingIndex: number;
  /** The better-seeded agent. */
  high: number;
  /** Its opponent; null for a bye (high advances without games). */
  low: number | null;
  /** Third-place meetings are played beside the final and do not feed a next round. */
  thirdPlace?: boolean;
}

/** Round 1 from a seeding (agent indices, best seed first). */
export function knockoutFirstRound(seeding: readonly number[]): KnockoutMeeting[] {
  if (seeding.length < 2) throw new RangeError('knockout needs at least 2 agents');
  if (new Set(seeding).size !== seeding.length) throw new RangeError('knockout seeding lists an agent twice');
  const order = knockoutSeedOrder(bracketSize(seeding.length));
  const meetings: KnockoutMeeting[] = [];
  for (let i = 0; i < order.length; i += 2) {
    const a = order[i] as number;
    const b = order[i + 1] as number;
    const [hi, lo] = a < b ? [a, b] : [b, a];
    meetings.push({
      round: 1,
      pairingIndex: i / 2,
      high: seeding[hi - 1] as number,
      low: lo <= seeding.length ? (seeding[lo - 1] as number) : null,
    });
  }
  return meetings;
}

export type KnockoutDecision =
  | { status: 'decided'; winner: number; loser: number | null; decidedBy: 'bye' | 'games' | 'tie_break' | 'seed' }
  | { status: 'tie_break'; pair: number };

/**
 * Decides a meeting from the points of all its games so far (regular + tie-break). Level after the regular
 * games → another tie-break pair, up to `tieBreakPairs`; still level → the higher seed advances.
 */
export function decideKnockoutMeeting(
  meeting: KnockoutMeeting,
  points: { high: number; low: number },
  tieBreakPairsPlayed: number,
  tieBreakPairs = DEFAULT_TIE_BREAK_PAIRS,
): KnockoutDecision {
  if (meeting.low === null) return { status: 'decided', winner: meeting.high, loser: null, decidedBy: 'bye' };
  const by = tieBreakPairsPlayed === 0 ? 'games' : 'tie_break';
  if (points.high > points.low) return { status: 'decided', winner: meeting.high, loser: meeting.low, decidedBy: by };
  if (points.low > points.high) return { status: 'decided', winner: meeting.low, loser: meeting.high, decidedBy: by };
  if (tieBreakPairsPlayed < tieBreakPairs) return { status: 'tie_break', pair: tieBreakPairsPlayed + 1 };
  return { status: 'decided', winner: meeting.high, loser: meeting.low, decidedBy: 'seed' };
}

/**
 * The next round from the winners of the previous (non-third-place) round, in pairingIndex order: winners 2i and
 * 2i + 1 meet. Empty once a single winner remains. `seedRank(agent)` orders each new meeting (lower = better).
 */
export function nextKnockoutRound(
  previous: readonly KnockoutMeeting[],
  winners: readonly number[],
  seedRank: (agent: number) => number,
): KnockoutMeeting[] {
  const main = previous.filter((m) => !m.thirdPlace);
  if (winners.length !== main.length) throw new RangeError(`expected ${main.length} winners, got ${winners.length}`);
  if (winners.length < 2) return [];
  const round = (main[0]?.round ?? 0) + 1;
  const out: KnockoutMeeting[] = [];
  for (let i = 0; i < winners.length; i += 2) {
    const a = winners[i] as number;
    const b = winners[i + 1] as number;
    const [high, low] = seedRank(a) <= seedRank(b) ? [a, b] : [b, a];
    out.push({ round, pairingIndex: i / 2, high, low });
  }
  return out;
}

/** The third-place meeting between the two semi-final losers (call when the next round is the final). */
export function thirdPlaceMeeting(
  final: KnockoutMeeting,
  semiFinalLosers: readonly [number, number],
  seedRank: (agent: number) => number,
): KnockoutMeeting {
  const [a, b] = semiFinalLosers;
  const [high, low] = seedRank(a) <= seedRank(b) ? [a, b] : [b, a];
  return { round: final.round, pairingIndex: final.pairingIndex + 1, high, low, thirdPlace: true };
}

export function knockoutRoundCount(agentCount: number): number {
  return Math.log2(bracketSize(agentCount));
}

/**
 * Regular games of a meeting (none for a bye), gamesPerPairing per challenge. pairingIndex =
 * meeting pairingIndex × challenges + challenge position, as in swiss.
 */
export function knockoutMeetingGames(meeting: KnockoutMeeting, options: MeetingGamesOptions, firstGameIndex: number): ScheduledGame[] {
  if (meeting.low === null) return [];
  const out: ScheduledGame[] = [];
  let gameIndex = firstGameIndex;
  options.challenges.forEach((challenge, c) => {
    if (challenge.seats !== 2) throw new RangeError(`knockout needs two-seat challenges; ${challenge.id} has ${challenge.seats}`);
    const plan = {
      challenge: challenge.id,
      round: meeting.round,
      pairingIndex: meeting.pairingIndex * options.challenges.length + c,
      table: [meeting.high, meeting.low as number],
      gamesPerPairing: options.gamesPerPairing,
    };
    for (const game of meetingGames(plan, options.seed, gameIndex)) {
      out.push(game);
      gameIndex++;
    }
  });
  return out;
}

/**
 * Tie-break pair number `pair` (from 1): one seat-swapped pair on a fresh opening, numbered after the regular
 * openings. With several challenges the pairs cycle through them in the listed order.
 */
export function knockoutTieBreakGames(
  meeting: KnockoutMeeting,
  pair: number,
  options: MeetingGamesOptions,
  firstGameIndex: number,
): ScheduledGame[] {
  if (meeting.low === null) return [];
  const c = (pair - 1) % options.challenges.length;
  const challenge = options.challenges[c];
  if (challenge === undefined) throw new RangeError('knockout needs at least one challenge');
  const regularOpenings = options.gamesPerPairing % 2 === 0 ? options.gamesPerPairing / 2 : options.gamesPerPairing;
  const plan = {
    challenge: challenge.id,
    round: meeting.round,
    pairingIndex: meeting.pairingIndex * options.challenges.length + c,
    table: [meeting.high, meeting.low],
    gamesPerPairing: 2,
    firstOpening: regularOpenings + Math.floor((pair - 1) / options.challenges.length),
  };
  return [...meetingGames(plan, options.seed, firstGameIndex)];
}
