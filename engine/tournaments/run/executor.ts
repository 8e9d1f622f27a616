// Runs a tournament: pulls games from the lazy source, keeps `concurrency` games in flight, commits each finished
// attempt in its own transaction, replays void games (harness faults) up to MAX_ATTEMPTS, and stops on completion, a
// GSPRT decision, pause or cancel. On start it reads the committed attempts, so a resumed run skips what is settled
// and replays what was in flight when the process died (those never reached the database).

import path from 'node:path';
import type { Isolation } from '../../contract/isolation.js';
import type { RunningGame, TournamentEvent } from '../../contract/tournament.js';
import type { AgentLifecycleStats } from '../../contract/warm-agent.js';
import type { Clock } from '../../core/clock.js';
import { createListeners } from '../../core/listeners.js';
import type { PlayableRegistry } from '../../core/playables.js';
import type { ScheduledGame, TournamentSpec } from '../../core/tournament/index.js';
import type { Store, StoredTournament, StoredTournamentGame } from '../../db/store.js';
import { grantedSecrets } from '../../runner/agent-env.js';
import { type SandboxPolicy, sandboxPolicy } from '../../runner/sandbox-policy.js';
import { registerSecrets, secretScrubber } from '../../runtime/known-secrets.js';
import { launchWarmSlot, type ModelReplaySource } from '../launch/seat-launch.js';
import { blameByCause, VoidStreak } from '../launch/void-cause.js';
import { modelCacheSource } from '../model-cache.js';
import { commitGame, runTally } from '../results/game-commit.js';
import { type RunOutcome, recordOutcome } from '../results/run-outcome.js';
import { leaderOf } from '../results/run-standings.js';
import { countedResult, isSettled, seatPoints, sprtOfTally } from '../results/stats.js';
import type { TournamentAgent } from '../spec-file.js';
import { DEFAULT_MAX_RESTARTS, type WarmHooks, WarmPool } from '../warm/warm-pool.js';
import { WorkerLifecycles } from '../warm/worker-lifecycles.js';
import { type GameAccounting, gameRow, type LatestAttempt, latestOf } from './attempt-row.js';
import type { GameOutcome } from './game-play.js';
import { type GameContext, type GameRunner, type GameRunners, runnerFor } from './game-runner.js';
import { createGameSource, type GameSource, gameKey } from './game-source.js';

export type { RunOutcome } from '../results/run-outcome.js';

export const DEFAULT_MAX_ILLEGAL_ACTIONS = 3;
/** Least time a seat gets to start its process and join (a loaded machine starts Node in seconds, not ms). */
const START_BUDGET_MS = 10_000;

export interface ExecutorDeps {
  store: Store;
  dataDir: string;
  clock: Clock;
  /** What each challenge of the run is: its protocol picks the runner. */
  playables: PlayableRegistry;
  /** One runner per protocol; tests put scripted ones here. */
  runners: GameRunners;
  hostEnv?: NodeJS.ProcessEnv;
  /** Where warm agents' processes get their seats (the engine's next-seat route); needed for persistent agents. */
  warm?: WarmHooks;
  /** Games play on game workers, which keep the warm agents themselves (no warm pool here). */
  remoteGames?: boolean;
  /** How seats are sandboxed (trusted agent folders); default: all sandboxed, the data directory hidden. */
  sandbox?: SandboxPolicy;
  /** `arena replay`: model calls answered from a recorded run. */
  modelReplay?: ModelReplaySource;
}

export type EventListener = (event: TournamentEvent) => void;

export class TournamentExecutor {
  private readonly listeners = createListeners<TournamentEvent>();
  private readonly source: GameSource;
  /**
   * The latest attempt of each game that is not settled yet, only what scheduling reads of it: a void attempt waiting
   * for its replay, or a committed game a resumed run has not reached. A game leaves it when it settles (the source
   * never yields a game twice), so the map stays as small as the replays, not as large as the run.
   */
  private readonly latest = new Map<string, LatestAttempt>();
  private readonly replays: ScheduledGame[] = [];
  private readonly active = new Map<string, AbortController>();
  /** What the live view shows about each game in flight (same keys as `active`). */
  private readonly inFlight = new Map<string, RunningGame>();
  private mode: 'running' | 'pausing' | 'cancelling' | 'halting' | 'stopping' = 'running';
  private stopReason = 'complete';
  /** The reason the run finished with, once it has. */
  private finishedBy: string | null = null;
  private done = 0;
  private sprt: ReturnType<typeof sprtOfTally> = null;
  private resolve: ((outcome: RunOutcome) => void) | null = null;
  private outcomeRecorded = false;
  private readonly voidStreak = new VoidStreak();
  /** Why the run paused by itself (a set-up fault that keeps voiding games); null for the operator's pause. */
  private pauseReason: string | null = null;
  private sourceDrained = false;
  /** Agent processes of finished games still exiting; the run ends only after they are gone. */
  private readonly teardowns = new Set<Promise<void>>();
  /** Processes of the persistent agents, started with run() and closed when it ends. */
  private warm: WarmPool | null = null;
  /** Runs on game workers with warm agents: each worker's figures. */
  private workerLifecycles: WorkerLifecycles | null = null;
  private savedLifecycles = '';
  /** Model usage of every stored attempt (void ones too: they were paid for), for the budget's tokens and usd. */
  private readonly spent = { tokens: 0, usd: 0 };

  constructor(
    private readonly deps: ExecutorDeps,
    readonly tournament: StoredTournament,
    private readonly spec: TournamentSpec,
    private readonly agents: readonly TournamentAgent[],
    seatsOf: (challenge: string) => number,
  ) {
    this.source = createGameSource(spec, seatsOf);
    // Granted secrets join the process-wide scrubber before any agent starts: whatever an agent prints or says is
    // stored and shown without them.
    for (const agent of agents) registerSecrets(grantedSecrets(agent.manifest, deps.hostEnv ?? process.env));
  }

  on(listener: EventListener): () => void {
    return this.listeners.add(listener);
  }

  get gamesDone(): number {
    return this.done;
  }

  /** Each agent's lifecycle and restarts while warm agents run; null for runs of per-game agents only. */
  lifecycles(): AgentLifecycleStats[] | null {
    return this.warm?.stats() ?? this.workerLifecycles?.stats() ?? null;
  }

  /** How many games' latest attempts this run holds in memory (see `latest`). */
  get heldAttempts(): number {
    return this.latest.size;
  }

  /** Games in flight now, in game order. */
  runningGames(): RunningGame[] {
    return [...this.inFlight.values()].sort((a, b) => a.game_index - b.game_index);
  }

  /** The outcome is recorded (status and event); what is left is tearing down its agents, which takes a moment. */
  get ended(): boolean {
    return this.outcomeRecorded;
  }

  /** A pause or cancel the run has accepted and is carrying out (games in flight end first); null otherwise. */
  get stopping(): 'pausing' | 'cancelling' | null {
    if (this.ended) return null;
    return this.mode === 'pausing' ? 'pausing' : this.mode === 'cancelling' ? 'cancelling' : null;
  }

  /** Finishes the games in flight, then stops; resume with a new executor. */
  pause(): void {
    if (this.mode === 'running') this.mode = 'pausing';
    this.pump();
  }

  /** A resume asked for while a pause still waits for the games in flight: the pause is called off and the run goes on. */
  unpause(): void {
    if (this.mode === 'pausing') {
      this.mode = 'running';
      this.pauseReason = null;
    }
    this.pump();
  }

  /** Stops the games in flight (their attempts are discarded) and ends the run. */
  cancel(): void {
    this.mode = 'cancelling';
    for (const controller of this.active.values()) controller.abort();
    this.pump();
  }

  /**
   * App shutdown: games in flight are stopped and never stored (void: they replay on resume), and the run is left
   * 'paused', so the next start lists it as paused and the user resumes it. (A crash leaves it 'running', and the
   * next start continues it by itself.)
   */
  halt(): void {
    this.mode = 'halting';
    for (const controller of this.active.values()) controller.abort();
    this.pump();
  }

  /** The format's table (swiss standings, knockout bracket) from the committed games, without playing. */
  replaySummary(): Record<string, unknown> | null {
    this.readLatest();
    for (;;) {
      const next = this.source.next();
      if (next === null || next === 'wait') break;
      const row = this.latest.get(gameKey(next));
      if (!row || !isSettled(row)) break;
      this.source.record(next, seatPoints(row));
      this.done++;
    }
    return this.formatSummary();
  }

  /** The format's table as it stands; an adaptive run's carries the budget used, model usage included. */
  formatSummary(): Record<string, unknown> | null {
    const summary = this.source.summary();
    if (summary === null || this.spec.format.kind !== 'adaptive') return summary;
    const budget = this.spec.budget ?? {};
    const used = summary.budget as Record<string, unknown>;
    const id = (agent: unknown): string => this.agents[agent as number]?.id ?? String(agent);
    return {
      ...summary,
      stop_reason: this.finishedBy ?? summary.stop_reason,
      ranking: (summary.ranking as unknown[]).map(id),
      pairs: (summary.pairs as Array<Record<string, unknown>>).map((p) => ({ ...p, upper: id(p.upper), lower: id(p.lower) })),
      budget: { ...budget, ...used, games_done: this.done, tokens_used: this.spent.tokens, usd_used: this.spent.usd },
    };
  }

  /** The budget's tokens or usd limit this run's recorded usage has reached, as a stop reason; null when within. */
  private overBudget(): string | null {
    const budget = this.spec.budget;
    if (budget?.tokens !== undefined && this.spent.tokens >= budget.tokens) return 'budget_tokens';
    if (budget?.usd !== undefined && this.spent.usd >= budget.usd) return 'budget_usd';
    return null;
  }

  private addUsage(usage: ReadonlyArray<{ prompt_tokens?: number; completion_tokens?: number; cost_usd?: number } | null> | null): void {
    for (const seat of usage ?? []) {
      if (!seat) continue;
      this.spent.tokens += (seat.prompt_tokens ?? 0) + (seat.completion_tokens ?? 0);
      this.spent.usd += seat.cost_usd ?? 0;
    }
  }

  /** Fills `latest` from the committed attempts (a cursor, one row at a time); returns how many there were. */
  private readLatest(): number {
    let attempts = 0;
    for (const row of this.deps.store.tournaments.eachGame(this.tournament.id)) {
      attempts++;
      this.addUsage(row.usage as Parameters<TournamentExecutor['addUsage']>[0]);
      const seen = this.latest.get(row.gameKey);
      if (!seen || row.attempt > seen.attempt) this.latest.set(row.gameKey, latestOf(row));
    }
    return attempts;
  }

  run(): Promise<RunOutcome> {
    const { store } = this.deps;
    const resumed = this.readLatest() > 0;
    this.sprt = sprtOfTally(this.spec, runTally(store, this.tournament.id));
    if (this.agents.some((a) => a.manifest.lifecycle === 'persistent')) {
      if (this.deps.remoteGames)
        this.workerLifecycles = new WorkerLifecycles(this.agents, this.deps.store.lifecycles.get(this.tournament.id));
      else this.warm = this.startWarmPool();
      this.saveLifecycles();
    }
    // A reason the run paused with is over once it runs again.
    store.tournaments.setStatus(this.tournament.id, 'running', this.deps.clock.now(), this.tournament.stopReason ? '' : null);
    return new Promise<RunOutcome>((resolve) => {
      this.resolve = resolve;
      this.emit({
        event: 'started',
        tournament_id: this.tournament.id,
        name: this.tournament.name,
        planned_games: this.tournament.plannedGames,
        planned_exact: this.tournament.plannedExact,
        games_done: [...this.latest.values()].filter(isSettled).length,
        resumed,
        at: this.deps.clock.now(),
      });
      if (this.sprt && this.sprt.decision !== 'continue') this.stop(`sprt_${this.sprt.decision}`);
      this.pump();
    });
  }

  private startWarmPool(): WarmPool {
    const { warm } = this.deps;
    if (!warm) throw new Error("persistent agents need the engine's next-seat route (no warm desk)");
    const workspaceRoot = this.workspaceRoot();
    const hostEnv = this.deps.hostEnv;
    return new WarmPool({
      ...warm,
      agents: this.agents,
      launch: (agent, slot, env, onStderr, onModelCall) =>
        launchWarmSlot(
          { workspaceRoot, sandbox: this.sandbox(), ...(hostEnv ? { hostEnv } : {}) },
          agent,
          slot,
          env,
          onStderr,
          onModelCall,
        ),
      maxRestarts: this.spec.max_restarts ?? DEFAULT_MAX_RESTARTS,
      clock: this.deps.clock,
      startMs: this.startMs(),
      previous: this.deps.store.lifecycles.get(this.tournament.id),
    });
  }

  /** Keeps the warm agents' figures with the tournament when they changed, so a resumed run goes on from them. */
  private saveLifecycles(): void {
    const stats = this.lifecycles();
    if (!stats) return;
    const text = JSON.stringify(stats);
    if (text === this.savedLifecycles) return;
    this.savedLifecycles = text;
    this.deps.store.lifecycles.set(this.tournament.id, stats);
  }

  private workspaceRoot(): string {
    return path.join(this.deps.dataDir, 'tournaments', this.tournament.id, 'work');
  }

  private sandbox(): SandboxPolicy {
    return this.deps.sandbox ?? sandboxPolicy(this.deps.dataDir);
  }

  private startMs(): number {
    return Math.max(this.spec.limits.move_seconds * 1000, START_BUDGET_MS);
  }

  private emit(raw: TournamentEvent): void {
    this.listeners.emit(secretScrubber().deep(raw));
  }

  private stop(reason: string): void {
    if (this.mode !== 'running') return;
    this.stopReason = reason;
    this.mode = 'stopping';
  }

  private pump(): void {
    if (this.resolve === null) return;
    try {
      while (this.mode === 'running' && this.active.size < this.spec.concurrency) {
        // Checked before each new game: games in flight finish, nothing new starts past the budget.
        const over = this.overBudget();
        if (over) {
          this.stop(over);
          break;
        }
        const game = this.nextToPlay();
        if (game === null) break;
        this.launch(game.game, game.attempt);
      }
    } catch (error) {
      this.end({ status: 'failed', error: (error as Error).message });
      return;
    }
    if (this.active.size > 0) return;
    if (this.mode === 'pausing') this.end({ status: 'paused', ...(this.pauseReason ? { reason: this.pauseReason } : {}) });
    else if (this.mode === 'cancelling') this.end({ status: 'cancelled' });
    else if (this.mode === 'halting') this.end({ status: 'halted' });
    else if (this.mode === 'stopping' || (this.sourceDrained && this.replays.length === 0)) {
      this.finishedBy = this.mode === 'stopping' ? this.stopReason : (this.source.stopReason?.() ?? this.stopReason);
      this.end({ status: 'finished', stopReason: this.finishedBy });
    }
  }

  /** The next attempt to start, or null when nothing can start now. Settled games from earlier runs feed the source. */
  private nextToPlay(): { game: ScheduledGame; attempt: number } | null {
    for (;;) {
      const replay = this.replays.shift();
      if (replay) return { game: replay, attempt: (this.latest.get(gameKey(replay))?.attempt ?? 0) + 1 };
      if (this.sourceDrained) return null;
      const next = this.source.next();
      if (next === 'wait') return null;
      if (next === null) {
        this.sourceDrained = true;
        return null;
      }
      const previous = this.latest.get(gameKey(next));
      if (previous && isSettled(previous)) {
        this.settle(next, previous, false);
        continue;
      }
      return { game: next, attempt: (previous?.attempt ?? 0) + 1 };
    }
  }

  private settle(game: ScheduledGame, row: LatestAttempt, live: boolean): void {
    this.latest.delete(gameKey(game));
    const points = seatPoints(row);
    this.source.record(game, points);
    this.done++;
    if (live && this.spec.stop.kind === 'sprt') {
      // The run tally already holds the counts: O(1) per game, however long the run.
      this.sprt = sprtOfTally(this.spec, runTally(this.deps.store, this.tournament.id));
      if (this.sprt && this.sprt.decision !== 'continue') this.stop(`sprt_${this.sprt.decision}`);
    }
  }

  private runnerFor(challenge: string): GameRunner {
    return runnerFor(this.deps.playables, this.deps.runners, challenge);
  }

  /** What every game of this run gets; `onSession` tells the live view where the game can be followed. */
  private contextFor(running: RunningGame): GameContext {
    const limits = this.spec.limits;
    return {
      clock: this.deps.clock,
      workspaceRoot: this.workspaceRoot(),
      agents: this.agents,
      options: this.spec.options,
      moveMs: limits.move_seconds * 1000,
      gameMs: limits.game_seconds * 1000,
      startMs: this.startMs(),
      maxIllegalActions: this.spec.max_illegal_actions ?? DEFAULT_MAX_ILLEGAL_ACTIONS,
      onSession: (sessionId) => {
        running.session_id = sessionId;
        // Known as this tournament's from the start, so the Sessions page can leave it out while it runs.
        this.deps.store.sessions.markTournamentSession(sessionId, this.tournament.id);
      },
      run: {
        tournamentId: this.tournament.id,
        attempt: running.attempt,
        maxRestarts: this.spec.max_restarts ?? DEFAULT_MAX_RESTARTS,
        manifest: this.tournament.manifest,
        manifestHash: this.tournament.manifestHash,
      },
      ...(this.deps.hostEnv ? { hostEnv: this.deps.hostEnv } : {}),
      ...(this.warm ? { warm: this.warm } : {}),
      ...(this.deps.modelReplay ? { modelReplay: this.deps.modelReplay } : {}),
      modelCache: modelCacheSource(this.deps.store),
      sandbox: this.sandbox(),
    };
  }

  private launch(game: ScheduledGame, attempt: number): void {
    const key = gameKey(game);
    const controller = new AbortController();
    this.active.set(key, controller);
    const seatIds = game.seats.map((a) => this.agents[a]?.id ?? String(a));
    const running: RunningGame = {
      game_index: game.gameIndex,
      attempt,
      challenge: game.challenge,
      seats: seatIds,
      session_id: null,
      started_at: this.deps.clock.now(),
    };
    this.inFlight.set(key, running);
    // A runner that creates its live session synchronously inside play() has reported it before game_started goes out.
    const played = this.runnerFor(game.challenge).play(this.contextFor(running), game, controller.signal);
    this.emit({
      event: 'game_started',
      tournament_id: this.tournament.id,
      game_index: game.gameIndex,
      attempt,
      challenge: game.challenge,
      seats: seatIds,
      seed: game.seed,
      session_id: running.session_id,
      at: running.started_at,
    });
    // The game's row waits for the accounting: usage lines are known only once every seat's process has exited
    // (bounded: a finished game stops its agents after a short grace).
    const accounted = played.then(async (outcome) => ({
      outcome,
      accounting: outcome.accounting ? await outcome.accounting.catch(() => null) : null,
      isolation: outcome.isolation ? await outcome.isolation.catch(() => null) : null,
    }));
    void accounted.then(({ outcome, accounting, isolation }) => this.finishGame(game, attempt, seatIds, outcome, accounting, isolation));
  }

  /** A game's outcome is committed, settles or queues a replay, and is announced; then more games may start. */
  private finishGame(
    game: ScheduledGame,
    attempt: number,
    seatIds: string[],
    outcome: GameOutcome,
    accounting: GameAccounting | null,
    isolation: Isolation[] | null,
  ): void {
    const key = gameKey(game);
    this.active.delete(key);
    this.inFlight.delete(key);
    outcome = blameByCause(outcome, accounting, seatIds);
    if (outcome.teardown) {
      const t = outcome.teardown.catch(() => {});
      this.teardowns.add(t);
      void t.then(() => this.teardowns.delete(t));
    }
    // A cancelled game never reaches the database: it did not happen.
    if ((this.mode === 'cancelling' || this.mode === 'halting') && outcome.termination === 'interrupted') {
      this.closeGame(game, outcome);
      this.pump();
      return;
    }
    const row = this.commit(game, attempt, outcome, accounting, isolation);
    if (!row) return;
    this.addUsage(row.usage as Parameters<TournamentExecutor['addUsage']>[0]);
    if (outcome.workerId && outcome.lifecycles) this.workerLifecycles?.update(outcome.workerId, outcome.lifecycles);
    this.saveLifecycles();
    this.closeGame(game, outcome);
    this.latest.set(key, latestOf(row));
    const settled = isSettled(row);
    if (settled) this.settle(game, row, true);
    else this.replays.push(game);
    // The same set-up fault again: stop playing into it; the run waits for the fix and a resume.
    const repeated = this.voidStreak.record(outcome, seatIds);
    if (repeated !== null && this.mode === 'running') {
      this.pauseReason = repeated;
      this.mode = 'pausing';
    }
    this.emit({
      event: 'game_ended',
      tournament_id: this.tournament.id,
      game_index: game.gameIndex,
      attempt,
      challenge: game.challenge,
      seats: seatIds,
      termination: row.termination,
      fault: row.fault,
      faulted_seats: row.faultedSeats,
      ...countedResult(row),
      replay: !settled,
      duration_ms: row.endedAt - row.startedAt,
      games_done: this.done,
      planned_games: this.tournament.plannedGames,
      // From the run tally (cached, O(1)): the leader counts the games the standings rate.
      leader: leaderOf(
        runTally(this.deps.store, this.tournament.id).ratings,
        this.agents.map((a) => a.id),
      ),
      sprt: this.sprt ? { llr: this.sprt.llr, lower: this.sprt.lower, upper: this.sprt.upper, decision: this.sprt.decision } : null,
      ...(this.warm ? { lifecycles: this.warm.stats() } : {}),
      at: this.deps.clock.now(),
    });
    this.pump();
  }

  /** The game's record is written (or the game dropped): its runner closes what the game leaves behind. */
  private closeGame(game: ScheduledGame, outcome: GameOutcome): void {
    try {
      this.runnerFor(game.challenge).closed?.(outcome);
    } catch {
      // Tidying up is not worth a failed run: the session is then an ordinary leftover the expiry sweep removes.
    }
  }

  /** Stores the attempt; a database that refuses it fails the run (null), since results would be lost. */
  private commit(
    game: ScheduledGame,
    attempt: number,
    outcome: GameOutcome,
    accounting: GameAccounting | null,
    isolation: Isolation[] | null,
  ): StoredTournamentGame | null {
    try {
      // Stored without any secret an agent printed or said (the record is what reports and the UI show).
      const scrub = secretScrubber();
      const record = scrub.deep({ ...gameRow(this.tournament.id, game, attempt, outcome, accounting), isolation });
      return commitGame(this.deps.store, record, accounting?.calls ? scrub.deep(accounting.calls) : null);
    } catch (error) {
      this.mode = 'cancelling';
      for (const c of this.active.values()) c.abort();
      this.end({ status: 'failed', error: `could not store game ${game.gameIndex}: ${(error as Error).message}` });
      return null;
    }
  }

  private end(outcome: RunOutcome): void {
    const resolve = this.resolve;
    if (resolve === null) return;
    this.resolve = null;
    // Before the event goes out: whoever reads the summary on it sees a run that no longer plays.
    this.outcomeRecorded = true;
    const event = recordOutcome(this.deps.store, this.tournament.id, outcome, this.done, this.deps.clock.now());
    if (event) this.emit(event);
    this.saveLifecycles();
    const warm = this.warm?.close() ?? Promise.resolve();
    void Promise.all([...this.teardowns, warm]).then(() => resolve(outcome));
  }
}
