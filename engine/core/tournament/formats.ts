// Static formats (round-robin, gauntlet): a lazy game stream plus a closed-form count. Several challenges are
// interleaved round by round (round r of every challenge, in the listed order), so a run that stops early has
// seen every challenge. Swiss and knockout depend on results and live in swiss.ts / knockout.ts.
//
// Seating rules, for a challenge with n seats:
// * n = 2: circle-method rounds; a meeting plays games_per_pairing games.
// * n > 2 (round-robin): a meeting is a table of n agents. Every n-combination is a table while there are at most
//   max_tables of them; otherwise max_tables tables are sampled, balanced on how often each agent plays and how
//   often two agents share a table. Tables are shuffled by the seed and packed into rounds where no agent sits twice.
// * n > 2 (gauntlet): each table is one challenger plus n − 1 field agents, with the same limit.
// * Games of a meeting: when games_per_pairing is a multiple of n they form pairs/sets — one opening seed played
//   under each of the n cyclic seat rotations (each agent takes each seat once); otherwise every game has its own
//   opening and game k uses rotation k mod n.
import { gauntletMeetingsPerCycle, gauntletRounds } from './gauntlet.js';
import { meetingGames } from './meeting-games.js';
import { DEFAULT_MAX_TABLES, roundRobinMeetingsPerCycle, roundRobinRounds } from './round-robin.js';
import type { ChallengeSeats, ScheduledGame } from './types.js';

export type FormatKind = 'round-robin' | 'gauntlet' | 'swiss' | 'knockout' | 'adaptive';

export interface StaticScheduleConfig {
  format: 'round-robin' | 'gauntlet';
  agentCount: number;
  challenges: readonly ChallengeSeats[];
  gamesPerPairing: number;
  /** Run seed as a string (`String(spec.seed)`). */
  seed: string;
  /** Repeats of the whole schedule with fresh openings; default 1. */
  cycles?: number;
  /** Gauntlet: the first `challengers` agents meet the rest; default 1. */
  challengers?: number;
  /** n-seat challenges: above this many tables per cycle a balanced sample is drawn; default 200. */
  maxTables?: number;
}

function normalised(config: StaticScheduleConfig): Required<StaticScheduleConfig> {
  const out = {
    ...config,
    cycles: config.cycles ?? 1,
    challengers: config.challengers ?? 1,
    maxTables: config.maxTables ?? DEFAULT_MAX_TABLES,
  };
  if (!Number.isInteger(out.gamesPerPairing) || out.gamesPerPairing < 1) throw new RangeError(`gamesPerPairing must be an integer ≥ 1`);
  if (!Number.isInteger(out.cycles) || out.cycles < 1) throw new RangeError(`cycles must be an integer ≥ 1`);
  if (!Number.isInteger(out.maxTables) || out.maxTables < 1) throw new RangeError(`maxTables must be an integer ≥ 1`);
  if (out.challenges.length === 0) throw new RangeError('at least one challenge is needed');
  return out;
}

/** Closed form: cycles × meetings per cycle × games per meeting, summed over challenges. */
export function plannedGameCount(config: StaticScheduleConfig): number {
  const c = normalised(config);
  let total = 0;
  for (const challenge of c.challenges) {
    const meetings =
      c.format === 'round-robin'
        ? roundRobinMeetingsPerCycle(c.agentCount, challenge.seats, c.maxTables)
        : gauntletMeetingsPerCycle(c.agentCount, c.challengers, challenge.seats, c.maxTables);
    total += c.cycles * meetings * c.gamesPerPairing;
  }
  return total;
}

function roundsFor(c: Required<StaticScheduleConfig>, challenge: ChallengeSeats): Generator<number[][]> {
  const opts = {
    agentCount: c.agentCount,
    seats: challenge.seats,
    cycles: c.cycles,
    maxTables: c.maxTables,
    seed: c.seed,
    challenge: challenge.id,
  };
  return c.format === 'round-robin' ? roundRobinRounds(opts) : gauntletRounds({ ...opts, challengers: c.challengers });
}

/** Every game of a round-robin or gauntlet run, generated on demand; call again to restart from game 0. */
export function* scheduleGames(config: StaticScheduleConfig): Generator<ScheduledGame> {
  const c = normalised(config);
  const streams = c.challenges.map((challenge) => ({ challenge, rounds: roundsFor(c, challenge), done: false }));
  let gameIndex = 0;
  for (let round = 1; streams.some((s) => !s.done); round++) {
    let pairingIndex = 0;
    for (const stream of streams) {
      if (stream.done) continue;
      const next = stream.rounds.next();
      if (next.done) {
        stream.done = true;
        continue;
      }
      for (const table of next.value) {
        const plan = { challenge: stream.challenge.id, round, pairingIndex, table, gamesPerPairing: c.gamesPerPairing };
        for (const game of meetingGames(plan, c.seed, gameIndex)) {
          yield game;
          gameIndex++;
        }
        pairingIndex++;
      }
    }
  }
}
