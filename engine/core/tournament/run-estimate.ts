// How long a planned run takes, from the game times this data folder measured (issue 16, issue 43): pure, so every case
// is unit-tested, and its duration wording is shared by the engine's warnings and the builder.

/** Fewer measured games than this and a sample does not count. */
export const MIN_SAMPLES = 3;
/** A run planned longer than this (at its concurrency) is flagged before Start. */
export const LONG_RUN_SECONDS = 24 * 3600;
/** And so is a plan of more games than this, however fast they are. */
export const MANY_GAMES = 10_000;

/**
 * Where a challenge's game time comes from: past games in which only this run's agents sat, else any agents' games of
 * the challenge, else nothing measured (only the game limit bounds it).
 */
export type EstimateSource = 'agents' | 'challenge' | 'limits';

export interface ChallengeTimes {
  challenge: string;
  /** Wall-clock ms of recent normally ended games of the challenge whose seats were all agents of this run. */
  agentGames: readonly number[];
  /** Wall-clock ms of recent normally ended games of the challenge, any agents. */
  allGames: readonly number[];
}

export interface EstimateInput {
  planned: number;
  concurrency: number;
  gamesPerPairing: number;
  gameSeconds: number;
  times: readonly ChallengeTimes[];
}

export interface ChallengeEstimate {
  challenge: string;
  samples: number;
  median_ms: number | null;
  source: EstimateSource;
}

export interface PlannedDuration {
  seconds: number | null;
  worst_case_seconds: number;
  per_challenge: ChallengeEstimate[];
  warnings: string[];
}

export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** A run's length: "under 1 s", "40 s", "12 min", "3.5 h", "4.2 days". */
export function durationText(seconds: number): string {
  if (seconds < 1) return 'under 1 s';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} days`;
}

/** One game's time: "40 ms", "2.3 s", "4 min" — a fast game is never "0.0 s". */
export function gameTimeText(ms: number): string {
  if (ms < 1) return 'under 1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 90_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return durationText(ms / 1000);
}

function challengeEstimate(times: ChallengeTimes): ChallengeEstimate {
  if (times.agentGames.length >= MIN_SAMPLES)
    return { challenge: times.challenge, samples: times.agentGames.length, median_ms: median(times.agentGames), source: 'agents' };
  if (times.allGames.length >= MIN_SAMPLES)
    return { challenge: times.challenge, samples: times.allGames.length, median_ms: median(times.allGames), source: 'challenge' };
  return { challenge: times.challenge, samples: times.allGames.length, median_ms: null, source: 'limits' };
}

/**
 * Games run in waves of `concurrency`, so the run takes about ⌈planned / concurrency⌉ games' time: the mean of the
 * challenges' medians (weighted by their equal share of the plan), never less than one game and never more than the
 * worst case, where every game uses its whole game_seconds.
 */
export function estimateDuration(input: EstimateInput): PlannedDuration {
  const per = input.times.map(challengeEstimate);
  const concurrency = Math.max(1, input.concurrency);
  const waves = Math.ceil(Math.max(0, input.planned) / concurrency);
  const worst = waves * input.gameSeconds;
  const measured = per.length > 0 && per.every((p) => p.median_ms !== null);
  const meanGameSeconds = measured ? per.reduce((sum, p) => sum + (p.median_ms as number), 0) / per.length / 1000 : null;
  const seconds = meanGameSeconds === null ? null : Math.min(worst, waves * meanGameSeconds);
  const warnings: string[] = [];
  if (seconds !== null && seconds > LONG_RUN_SECONDS)
    warnings.push(`At the measured game times this run takes about ${durationText(seconds)} at concurrency ${concurrency}.`);
  if (input.planned > MANY_GAMES)
    warnings.push(
      `${input.planned.toLocaleString('en-US')} games planned (${input.gamesPerPairing.toLocaleString('en-US')} per pairing); check games_per_pairing before you start.`,
    );
  const unmeasured = per.filter((p) => p.median_ms === null).map((p) => p.challenge);
  if (unmeasured.length > 0)
    warnings.push(
      `No measured games of ${unmeasured.join(', ')} in this data folder yet; the run takes at most ${durationText(worst)} (every game using its whole ${input.gameSeconds} s game limit), usually far less.`,
    );
  return { seconds, worst_case_seconds: worst, per_challenge: per, warnings };
}
