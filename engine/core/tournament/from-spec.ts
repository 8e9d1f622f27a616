// Glue from a parsed tournament definition to the schedulers: run seed, static schedule config, meeting options
// and the number of games to expect (exact for round-robin, gauntlet and swiss; a minimum for knockout).

import type { Rng } from '../rng.js';
import { plannedGameCount, type StaticScheduleConfig } from './formats.js';
import { knockoutRoundCount } from './knockout.js';
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
  if (f.kind === 'swiss') return { count: swissRounds(spec) * Math.floor(n / 2) * perMeeting, exact: true };
  if (f.kind === 'knockout') {
    const third = f.third_place && knockoutRoundCount(n) >= 2 ? 1 : 0;
    return { count: (n - 1 + third) * perMeeting, exact: f.tie_break_pairs === 0 };
  }
  return { count: plannedGameCount(staticScheduleConfig(spec, seatsOf)), exact: true };
}
