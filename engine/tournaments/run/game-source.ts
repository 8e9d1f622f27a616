// The games of a run, produced lazily: round-robin and gauntlet stream from the core generator (memory does not grow
// with the planned count); swiss and knockout produce a round (or a tie-break) at a time from the results recorded so
// far. Results only enter through record(), in game order per round, so a resumed run regenerates the same games.
import {
  type AdaptiveStopReason,
  type AdjacentPair,
  adaptivePlan,
  addTableUnits,
  decideKnockoutMeeting,
  defaultByePoints,
  emptyAdaptiveTally,
  expectedGameCount,
  type KnockoutMeeting,
  knockoutFirstRound,
  knockoutMeetingGames,
  knockoutTieBreakGames,
  meetingGames,
  meetingOptions,
  meetingPoints,
  nextAdaptiveStep,
  nextKnockoutRound,
  nextSwissRound,
  runSeed,
  type ScheduledGame,
  type SwissHistoryEntry,
  scheduleGames,
  staticScheduleConfig,
  swissRoundGames,
  swissRoundRng,
  swissRounds,
  swissStandings,
  type TournamentSpec,
  thirdPlaceMeeting,
} from '../../core/tournament/index.js';

export type NextGame = ScheduledGame | 'wait' | null;

export interface GameSource {
  /** The next game, 'wait' while the next games depend on results still being played, null when the run is complete. */
  next(): NextGame;
  /** The final result of a game: score per seat (1 / ½ / 0; ½ each for a game voided after its replays). */
  record(game: ScheduledGame, seatScores: readonly number[]): void;
  /** Format-specific state for reports (swiss table, knockout bracket, adaptive pairs). */
  summary(): Record<string, unknown> | null;
  /** Why the source ended, when the format decides that itself (adaptive); null while it goes on. */
  stopReason?(): string | null;
}

/** Stable identity of a scheduled game (§9): challenge, round, meeting, opening and seat order. */
export function gameKey(game: ScheduledGame): string {
  return `${game.challenge}:r${game.round}:p${game.pairingIndex}:o${game.opening}:s${game.seats.join('-')}`;
}

export function createGameSource(spec: TournamentSpec, seatsOf: (challenge: string) => number): GameSource {
  if (spec.format.kind === 'swiss') return swissSource(spec, seatsOf);
  if (spec.format.kind === 'knockout') return knockoutSource(spec, seatsOf);
  if (spec.format.kind === 'adaptive') return adaptiveSource(spec, seatsOf);
  if (spec.format.kind === 'replay') return replaySource(spec.format, spec.challenges[0] as string);
  const stream = scheduleGames(staticScheduleConfig(spec, seatsOf));
  return {
    next() {
      const step = stream.next();
      return step.done ? null : step.value;
    },
    record() {},
    summary: () => null,
  };
}

export function plannedGames(spec: TournamentSpec, seatsOf: (challenge: string) => number): { count: number; exact: boolean } {
  return expectedGameCount(spec, seatsOf);
}

/** One recorded game again: its seed and seat order, as game 0 of round 1. */
function replaySource(format: { seed: string; seats: number[] }, challenge: string): GameSource {
  let given = false;
  return {
    next() {
      if (given) return null;
      given = true;
      return { gameIndex: 0, round: 1, pairingIndex: 0, seats: [...format.seats], seed: format.seed, setSize: 1, opening: 0, challenge };
    },
    record() {},
    summary: () => null,
  };
}

/** A queue of generated games plus the results of the ones handed out. */
class RoundQueue {
  private queue: ScheduledGame[] = [];
  private outstanding = new Set<number>();
  readonly results = new Map<number, { game: ScheduledGame; scores: readonly number[] }>();
  nextIndex = 0;

  push(games: readonly ScheduledGame[]): void {
    this.queue.push(...games);
    for (const g of games) this.outstanding.add(g.gameIndex);
    this.nextIndex += games.length;
  }
  take(): ScheduledGame | undefined {
    return this.queue.shift();
  }
  record(game: ScheduledGame, scores: readonly number[]): void {
    this.outstanding.delete(game.gameIndex);
    this.results.set(game.gameIndex, { game, scores });
  }
  get settled(): boolean {
    return this.queue.length === 0 && this.outstanding.size === 0;
  }
}

/** One adjacent pair as summaries and reports show it (agents by definition index). */
function pairSummary(p: AdjacentPair) {
  const [low, high] = p.decision.interval;
  return {
    place: p.place,
    upper: p.upper,
    lower: p.lower,
    in_focus: p.inFocus,
    decided: p.decision.decided,
    units: p.units,
    /** The upper agent's mean head-to-head score and its confidence sequence. */
    mean_score: p.units > 0 ? p.score / p.units : null,
    score_interval: [low, high],
  };
}

/**
 * Batches of meetings chosen by nextAdaptiveStep from the head-to-head units of the batches before: a batch is
 * chosen only once every game of the previous one has its final result, so the schedule depends on the seed and the
 * results alone, never on which game finished first. A meeting is a seat-swapped pair, or at a table of more seats a
 * set of seat rotations; each set gives every two agents at it one unit from their placements.
 */
function adaptiveSource(spec: TournamentSpec, seatsOf: (challenge: string) => number): GameSource {
  const challenge = spec.challenges[0] as string;
  const plan = adaptivePlan(spec, seatsOf(challenge));
  const seed = runSeed(spec);
  const tally = emptyAdaptiveTally(spec.agents.length);
  const queue = new RoundQueue();
  let batch = 0;
  let meetings: number[][] = [];
  let pairs: AdjacentPair[] = [];
  let stopped: AdaptiveStopReason | null = null;

  const closeBatch = (): void => {
    const sets = new Map<number, Array<{ seats: readonly number[]; places: readonly number[] }>>();
    for (const r of queue.results.values()) {
      if (r.game.round !== batch) continue;
      const key = r.game.swapOf ?? r.game.gameIndex;
      // Seat scores order the seats as their placements do (a void game ties them all), so they serve as places.
      const set = sets.get(key) ?? [];
      set.push({ seats: r.game.seats, places: r.scores.map((score) => -score) });
      sets.set(key, set);
    }
    for (const key of [...sets.keys()].sort((x, y) => x - y)) addTableUnits(tally, sets.get(key) ?? []);
  };

  return {
    next() {
      if (stopped !== null) return null;
      for (;;) {
        const game = queue.take();
        if (game) return game;
        if (!queue.settled) return 'wait';
        if (batch > 0) closeBatch();
        const step = nextAdaptiveStep(tally, queue.nextIndex, batch + 1, plan);
        pairs = step.pairs;
        if (step.kind === 'stop') {
          stopped = step.reason;
          return null;
        }
        batch++;
        meetings = step.meetings;
        meetings.forEach((table, pairingIndex) => {
          const meeting = { challenge, round: batch, pairingIndex, table, gamesPerPairing: spec.games_per_pairing };
          queue.push([...meetingGames(meeting, seed, queue.nextIndex)]);
        });
      }
    },
    record: (game, scores) => queue.record(game, scores),
    stopReason: () => stopped,
    summary: () => ({
      format: 'adaptive',
      confidence: plan.confidence,
      top_k: plan.topK,
      stop_reason: stopped,
      batches: batch,
      ranking: pairs.length > 0 ? [pairs[0]?.upper, ...pairs.map((p) => p.lower)] : [],
      pairs: pairs.map(pairSummary),
      budget: { games: plan.budgetGames, games_scheduled: queue.nextIndex },
    }),
  };
}

function swissSource(spec: TournamentSpec, seatsOf: (challenge: string) => number): GameSource {
  const options = meetingOptions(spec, seatsOf);
  const agentCount = spec.agents.length;
  const rounds = swissRounds(spec);
  const byePoints =
    spec.format.kind === 'swiss' && spec.format.bye_points !== undefined
      ? spec.format.bye_points
      : defaultByePoints(spec.games_per_pairing, spec.challenges.length);
  const history: SwissHistoryEntry[] = [];
  const queue = new RoundQueue();
  let round = 0;
  let meetings: Array<[number, number]> = [];
  let done = false;

  const closeRound = (): void => {
    const games = [...queue.results.values()].filter((r) => r.game.round === round);
    for (const pair of meetings) {
      const mine = games.filter((r) => r.game.seats.includes(pair[0]) && r.game.seats.includes(pair[1]));
      const points = meetingPoints(
        pair,
        mine.map((r) => ({ seats: r.game.seats, seatScores: r.scores })),
      );
      history.push({ round, agents: pair, points });
    }
  };
  const openRound = (): void => {
    round++;
    const standings = swissStandings(agentCount, history);
    const pairing = nextSwissRound(standings, history, swissRoundRng(spec, round));
    meetings = pairing.meetings;
    if (pairing.bye !== null) history.push({ round, bye: pairing.bye, points: byePoints });
    queue.push(swissRoundGames(pairing, options, queue.nextIndex));
  };

  return {
    next() {
      if (done) return null;
      for (;;) {
        const game = queue.take();
        if (game) return game;
        if (!queue.settled) return 'wait';
        if (round > 0) closeRound();
        if (round >= rounds) {
          done = true;
          return null;
        }
        openRound();
      }
    },
    record: (game, scores) => queue.record(game, scores),
    summary: () => ({ format: 'swiss', rounds, standings: swissStandings(agentCount, history), history }),
  };
}

interface MeetingState {
  meeting: KnockoutMeeting;
  points: { high: number; low: number };
  tieBreaksPlayed: number;
  winner: number | null;
  loser: number | null;
  decidedBy: string | null;
  gameIndices: number[];
}

function knockoutSource(spec: TournamentSpec, seatsOf: (challenge: string) => number): GameSource {
  const options = meetingOptions(spec, seatsOf);
  const format = spec.format.kind === 'knockout' ? spec.format : { tie_break_pairs: 3, third_place: false };
  const seeding = spec.agents.map((_, i) => i);
  const seedRank = (agent: number): number => agent + 1;
  const queue = new RoundQueue();
  const bracket: MeetingState[] = [];
  let current: MeetingState[] = [];
  let done = false;

  const open = (list: readonly KnockoutMeeting[]): void => {
    current = list.map((meeting) => ({
      meeting,
      points: { high: 0, low: 0 },
      tieBreaksPlayed: 0,
      winner: null,
      loser: null,
      decidedBy: null,
      gameIndices: [],
    }));
    bracket.push(...current);
    for (const state of current) {
      const games = knockoutMeetingGames(state.meeting, options, queue.nextIndex);
      state.gameIndices.push(...games.map((g) => g.gameIndex));
      queue.push(games);
    }
  };
  const tally = (state: MeetingState): void => {
    state.points = { high: 0, low: 0 };
    const { high, low } = state.meeting;
    for (const index of state.gameIndices) {
      const r = queue.results.get(index);
      if (!r || low === null) continue;
      const [h, l] = meetingPoints([high, low], [{ seats: r.game.seats, seatScores: r.scores }]);
      state.points.high += h;
      state.points.low += l;
    }
  };
  /** Decides what it can; returns false when tie-break games were queued. */
  const decide = (): boolean => {
    let queued = false;
    for (const state of current) {
      if (state.winner !== null) continue;
      tally(state);
      const decision = decideKnockoutMeeting(state.meeting, state.points, state.tieBreaksPlayed, format.tie_break_pairs);
      if (decision.status === 'decided') {
        state.winner = decision.winner;
        state.loser = decision.loser;
        state.decidedBy = decision.decidedBy;
        continue;
      }
      state.tieBreaksPlayed = decision.pair;
      const games = knockoutTieBreakGames(state.meeting, decision.pair, options, queue.nextIndex);
      state.gameIndices.push(...games.map((g) => g.gameIndex));
      queue.push(games);
      queued = true;
    }
    return !queued;
  };
  open(knockoutFirstRound(seeding));

  return {
    next() {
      if (done) return null;
      for (;;) {
        const game = queue.take();
        if (game) return game;
        if (!queue.settled) return 'wait';
        if (!decide()) continue;
        const main = current.filter((s) => !s.meeting.thirdPlace);
        const following = nextKnockoutRound(
          main.map((s) => s.meeting),
          main.map((s) => s.winner as number),
          seedRank,
        );
        if (following.length === 0) {
          done = true;
          return null;
        }
        const losers = main.map((s) => s.loser).filter((l): l is number => l !== null);
        const next = [...following];
        const final = following[0];
        if (format.third_place && following.length === 1 && final && main.length === 2 && losers.length === 2)
          next.push(thirdPlaceMeeting(final, [losers[0] as number, losers[1] as number], seedRank));
        open(next);
      }
    },
    record: (game, scores) => queue.record(game, scores),
    summary: () => ({
      format: 'knockout',
      meetings: bracket.map((s) => ({
        round: s.meeting.round,
        pairing_index: s.meeting.pairingIndex,
        high: s.meeting.high,
        low: s.meeting.low,
        third_place: s.meeting.thirdPlace === true,
        points: s.points,
        tie_break_pairs: s.tieBreaksPlayed,
        winner: s.winner,
        decided_by: s.decidedBy,
      })),
    }),
  };
}
