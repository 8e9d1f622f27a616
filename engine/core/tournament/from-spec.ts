// Glue from a parsed tournament definition to the schedulers: run seed, static schedule config, meeting options
// and the number of games to expect (exact for round-robin, gauntlet and swiss; a minimum for knockout).

import type { Rng } from '../rng.js';
import type { AdaptivePlan } from './adaptive.js';
import { plannedGameCount, type StaticScheduleConfig } from './formats.js';
import { knockoutRoundCount } from './knockout.js';
import { isPaired } from './meeting-games.js';
import { derivedRng } from './seeds.js';
import type { TournamentSpec } from './spec.js';
import { defaultSwissRounds } from './swiss.js';
import type { ChallengeSeats, MeetingGamesOptions } from './types.js';

/** The run seed as the schedulers take it. */
export function runSeed(spec: Pick<TournamentSpec, 'seed'>): string {
  return String(spec.seed);
}

export function challengeSeats(spec: Pick<TournamentSpec, 'challenges'>, seatsOf: (challenge: string) => number): ChallengeSeats[] {
  return spec.challenges.map((id) => ({ id, seats: seatsOf(id) }));
}

/** Round-robin / gauntlet configuration; throws for the result-dependent formats. */
export function staticScheduleConfig(spec: TournamentSpec, seatsOf: (challenge: string) => number): StaticScheduleConfig {
  const base = {
    agentCount: spec.agents.length,
    challenges: challengeSeats(spec, seatsOf),
    gamesPerPairing: spec.games_per_pairing,
    seed: runSeed(spec),
  };
  const f = spec.format;
  if (f.kind === 'round-robin') return { ...base, format: 'round-robin', cycles: f.cycles, maxTables: f.max_tables };
  if (f.kind === 'gauntlet') return { ...base, format: 'gauntlet', cycles: f.cycles, maxTables: f.max_tables, challengers: f.challengers };
  throw new RangeError(`${f.kind} schedules depend on results; use nextSwissRound / nextKnockoutRound`);
}

export function meetingOptions(spec: TournamentSpec, seatsOf: (challenge: string) => number): MeetingGamesOptions {
  return { challenges: challengeSeats(spec, seatsOf), gamesPerPairing: spec.games_per_pairing, seed: runSeed(spec) };
}

/** Swiss rounds of the definition, or the default ceil(log2 N) + 1 capped at N − 1. */
export function swissRounds(spec: TournamentSpec): number {
  return spec.format.kind === 'swiss' && spec.format.rounds !== undefined ? spec.format.rounds : defaultSwissRounds(spec.agents.length);
}

/** The RNG for round `round` of a swiss run: one per round, so a resumed run pairs the same way. */
export function swissRoundRng(spec: Pick<TournamentSpec, 'seed'>, round: number): Rng {
  return derivedRng(runSeed(spec), `swiss-round:${round}`);
}

/**
 * Games the run will play. Swiss: rounds × ⌊N/2⌋ meetings (a bye has no games). Knockout: N − 1 decisive meetings
 * (+ 1 with a third-place meeting) before tie-breaks, so `exact` is false there.
 */
export function expectedGameCount(spec: TournamentSpec, seatsOf: (challenge: string) => number): { count: number; exact: boolean } {
  const f = spec.format;
  const perMeeting = spec.games_per_pairing * spec.challenges.length;
  const n = spec.agents.length;
  if (f.kind === 'replay') return { count: 1, exact: true };
  // The budget is the most it plays; it stops earlier once the ranking is decided.
  if (f.kind === 'adaptive') return { count: spec.budget?.games ?? 0, exact: false };
  if (f.kind === 'swiss') return { count: swissRounds(spec) * Math.floor(n / 2) * perMeeting, exact: true };
  if (f.kind === 'knockout') {
    const third = f.third_place && knockoutRoundCount(n) >= 2 ? 1 : 0;
    return { count: (n - 1 + third) * perMeeting, exact: f.tie_break_pairs === 0 };
  }
  return { count: plannedGameCount(staticScheduleConfig(spec, seatsOf)), exact: true };
}

/**
 * Why the definition cannot be played as written, before anything starts (issue 15): a challenge whose seat count
 * lies outside its range, a format that cannot fill its tables with these agents, or a plan of 0 games. Empty when
 * it can be played. `seatRange` is the catalogue's range of a challenge, the same one the builder shows.
 */
export function scheduleProblems(
  spec: TournamentSpec,
  seatsOf: (challenge: string) => number,
  seatRange: (challenge: string) => { min: number; max: number } | undefined = () => undefined,
): string[] {
  const problems: string[] = [];
  const n = spec.agents.length;
  const f = spec.format;
  spec.challenges.forEach((challenge) => {
    const seats = seatsOf(challenge);
    const range = seatRange(challenge);
    const allowed = range ? (range.min === range.max ? `${range.min}` : `${range.min}–${range.max}`) : `${seats}`;
    if (range && (seats < range.min || seats > range.max)) {
      problems.push(`challenge '${challenge}': ${seats} seats per game, but it is played by ${allowed}`);
      return;
    }
    const table = `'${challenge}' seats ${seats} players per game${range && range.min !== range.max ? ` (it allows ${allowed})` : ''}`;
    if ((f.kind === 'round-robin' || f.kind === 'swiss' || f.kind === 'knockout') && n < seats)
      problems.push(`${table}: ${f.kind} needs at least ${seats} agents, the definition has ${n}`);
    if (f.kind === 'adaptive' && n < seats)
      problems.push(`${table}: format adaptive needs at least ${seats} agents, the definition has ${n}`);
    if (f.kind === 'adaptive' && seats > 2 && !isPaired(spec.games_per_pairing, seats))
      problems.push(
        `${table}: format adaptive plays seat-rotation sets, one game per seat rotation: games_per_pairing must be a multiple of ${seats}, got ${spec.games_per_pairing}`,
      );
    if (f.kind === 'replay' && f.seats.length !== seats) problems.push(`${table}: the replayed game had ${f.seats.length} seats`);
    if (f.kind === 'gauntlet' && n - f.challengers < seats - 1)
      problems.push(
        `${table}: a gauntlet game seats 1 challenger and ${seats - 1} field agents, the definition has ${n - f.challengers} field agent${n - f.challengers === 1 ? '' : 's'}`,
      );
  });
  if (f.kind === 'adaptive' && spec.challenges.length !== 1)
    problems.push(`format adaptive plays one challenge; the definition lists ${spec.challenges.length}`);
  if (
    f.kind === 'adaptive' &&
    spec.challenges.length === 1 &&
    seatsOf(spec.challenges[0] as string) === 2 &&
    !isPaired(spec.games_per_pairing, 2)
  )
    problems.push(`format adaptive plays seat-swapped pairs: games_per_pairing must be even, got ${spec.games_per_pairing}`);
  if (problems.length === 0 && expectedGameCount(spec, seatsOf).count === 0) problems.push('the definition plans 0 games');
  return problems;
}

/** The adaptive format's plan from the definition: concurrency in meetings (tables), the budget in games. */
export function adaptivePlan(spec: TournamentSpec, seats = 2): AdaptivePlan {
  const f = spec.format;
  if (f.kind !== 'adaptive') throw new RangeError(`${f.kind} is not the adaptive format`);
  return {
    seed: runSeed(spec),
    confidence: f.confidence,
    topK: f.focus?.top_k ?? null,
    gamesPerMeeting: spec.games_per_pairing,
    batchMeetings: Math.max(1, Math.floor(spec.concurrency / spec.games_per_pairing)),
    budgetGames: spec.budget?.games ?? 0,
    seats,
  };
}
