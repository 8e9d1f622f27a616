// What one tournament game owns whatever its protocol (SpecArena session or ClawArena match): the agent processes and
// their workspaces, the cleanups of its watchers, the first verdict that ends it, the operator's stop, and the
// GameOutcome built from all that. The runners keep only their protocol: how seats join, what counts as progress,
// and where scores, placements and the transcript come from.
import type { Isolation } from '../../contract/isolation.js';
import type { TranscriptEntry } from '../../contract/tournament.js';
import type { AgentLifecycleStats } from '../../contract/warm-agent.js';
import type { Clock } from '../../core/clock.js';
import type { SeatScore, Termination } from '../../core/ratings/index.js';
import { isolationOf, type LaunchHandle, type LaunchResult } from '../../runner/launch.js';
import type { SandboxPolicy } from '../../runner/sandbox-policy.js';
import { removeWorkspace } from '../../runner/workspace-removal.js';
import { EXIT_GRACE_MS, type ModelReplaySource, type Verdict } from '../launch/seat-launch.js';
import type { VoidCause } from '../launch/void-cause.js';
import type { ModelCacheSource } from '../model-cache.js';
import { accountGame, type GameAccounting } from '../results/model-usage.js';
import type { TournamentAgent } from '../spec-file.js';
import type { WarmPool } from '../warm/warm-pool.js';

/** What every game of a run gets, whatever its protocol. */
export interface GameContext {
  clock: Clock;
  /** Agent workspaces are created (and removed) under this folder. */
  workspaceRoot: string;
  agents: readonly TournamentAgent[];
  options: Record<string, unknown>;
  moveMs: number;
  gameMs: number;
  /** Budget for every seat's process to start and join. */
  startMs: number;
  maxIllegalActions: number;
  hostEnv?: NodeJS.ProcessEnv;
  /** How seats are sandboxed (trusted agent folders, the hidden data directory). */
  sandbox?: SandboxPolicy;
  /** Told the live session id as soon as it exists (the live view follows it). */
  onSession(sessionId: string): void;
  /** Warm (persistent) agents' processes: their seats are handed to a running process instead of launched. */
  warm?: WarmPool;
  /** `arena replay`: model calls answered from the recorded run (seat-launch.ts). */
  modelReplay?: ModelReplaySource;
  /** model.yaml `cache: true` (model-cache.ts). */
  modelCache?: ModelCacheSource;
  /** Which attempt of which run this is: game workers key their jobs by it and check agents against its manifest. */
  run?: { tournamentId: string; attempt: number; manifest: Record<string, unknown>; manifestHash: string; maxRestarts?: number };
}

export interface GameOutcome {
  sessionId: string | null;
  invites: string[];
  termination: Termination;
  faultedSeats: number[];
  placements: number[] | null;
  /** Per seat (seat order), when the game completed. */
  scores: SeatScore[] | null;
  detail: string;
  /** Wall time from the first agent start to the end of the game: time the game spent on the agents. */
  agentMs: number;
  startedAt: number;
  endedAt: number;
  transcript: TranscriptEntry[];
  /** Settles once every agent process of the game is gone and its workspace removed (the result does not wait). */
  teardown?: Promise<void>;
  /** Model-agent accounting from each seat's stderr; settles once every agent process has exited. */
  accounting?: Promise<GameAccounting>;
  /** The isolation each launched seat got (seat order); settles once every agent process has exited. */
  isolation?: Promise<Isolation[]>;
  /** The game worker that played it (runs dispatched to workers); absent for games played in this process. */
  workerId?: string;
  /** A void game's cause when the set-up, not an agent, failed it (void-cause.ts): repeats pause the run. */
  voidCause?: VoidCause;
  /**
   * The worker's public key, its signature of the record it returned (checked before the record is accepted) and the
   * canonical JSON of what the signature covers (engine/workers/worker-keys.ts), kept so a bundle re-checks it offline.
   */
  workerSignature?: { key: string; signature: string; attestation: string };
  /** The worker's warm-agent figures for this tournament after the game (agents kept warm on workers). */
  lifecycles?: AgentLifecycleStats[];
}

/**
 * Runs `play` with a fresh GamePlay; anything it throws is the engine's fault (harness_error, void and replayed), and
 * the agents' workspaces go once play is over unless a finished game's agents are still exiting (they go after).
 */
export async function playWith(clock: Clock, play: (game: GamePlay) => Promise<GameOutcome>): Promise<GameOutcome> {
  const game = new GamePlay(clock);
  try {
    return await play(game);
  } catch (error) {
    // The verdict is what warm seats end with; a game that threw must still end for them.
    game.decide({ termination: 'harness_error', faultedSeats: [], detail: `harness: ${(error as Error).message}` });
    game.runCleanups();
    await stopAgents(game.handles, 0);
    return game.finish({ termination: 'harness_error', faultedSeats: [], detail: `harness: ${(error as Error).message}` });
  } finally {
    game.release();
  }
}

export class GamePlay {
  readonly startedAt: number;
  /** Reported in the outcome; set by the runner once the session (or match) exists. */
  sessionId: string | null = null;
  invites: string[] = [];
  readonly handles: LaunchHandle[] = [];
  /** The first verdict decided; the game ends on it. */
  readonly verdict: Promise<Verdict>;
  private settleVerdict: (verdict: Verdict) => void = () => {};
  private decided = false;
  private readonly cleanups: Array<() => void> = [];
  private agentsStartedAt: number | null = null;
  private decidedAt: number | null = null;
  private teardown: Promise<void> | undefined;

  constructor(private readonly clock: Clock) {
    this.startedAt = clock.now();
    this.verdict = new Promise<Verdict>((resolve) => {
      this.settleVerdict = resolve;
    });
  }

  /** True once a verdict is in: seats still to launch are not, and later exits are not judged. */
  get settled(): boolean {
    return this.decided;
  }

  /** The first call wins; later ones (a crash reported after the game ended) are ignored. */
  decide(verdict: Verdict): void {
    if (this.decided) return;
    this.decided = true;
    this.decidedAt = this.clock.now();
    this.settleVerdict(verdict);
  }

  /** Runs once the game ends, whichever way (timers, subscriptions, tokens). */
  onCleanup(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  /** The operator's stop (pause, cancel, shutdown) ends the game as interrupted, also when it came before this call. */
  interruptOn(signal: AbortSignal): void {
    const onAbort = (): void => this.decide({ termination: 'interrupted', faultedSeats: [], detail: 'stopped by the operator' });
    signal.addEventListener('abort', onAbort, { once: true });
    this.onCleanup(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
  }

  /** Marks the start of the time the game spends on its agents (agentMs). */
  agentsStarting(): void {
    this.agentsStartedAt = this.clock.now();
  }

  /** Keeps a started seat's process (stopped, accounted and its workspace removed with the game) and hears its exit. */
  addSeat(handle: LaunchHandle, onExit: (result: LaunchResult) => void): void {
    this.handles.push(handle);
    void handle.result.then(onExit);
  }

  /**
   * Waits for the verdict, then runs the cleanups. After a normal end the agents exit by themselves and the result
   * does not wait for them; a forfeit or stop ends them now.
   */
  async ended(): Promise<Verdict> {
    const verdict = await this.verdict;
    this.runCleanups();
    if (verdict.termination === 'completed') this.teardown = stopAgents(this.handles, EXIT_GRACE_MS).then(() => this.removeWorkspaces());
    else await stopAgents(this.handles, 0);
    return verdict;
  }

  /** The outcome; placements and scores count only for a completed game. */
  finish(
    verdict: Verdict,
    result: { placements?: number[] | null; scores?: SeatScore[] | null } = {},
    transcript: TranscriptEntry[] = [],
  ): GameOutcome {
    const completed = verdict.termination === 'completed';
    return {
      sessionId: this.sessionId,
      invites: this.invites,
      termination: verdict.termination,
      faultedSeats: verdict.faultedSeats,
      placements: completed ? (result.placements ?? null) : null,
      scores: result.scores ?? null,
      detail: verdict.detail,
      ...(verdict.voidCause ? { voidCause: verdict.voidCause } : {}),
      agentMs: this.agentsStartedAt === null ? 0 : (this.decidedAt ?? this.clock.now()) - this.agentsStartedAt,
      startedAt: this.startedAt,
      endedAt: this.clock.now(),
      transcript,
      ...(this.teardown ? { teardown: this.teardown } : {}),
      ...(this.handles.length > 0 ? { accounting: accountingOf(this.handles) } : {}),
      ...(this.handles.length > 0
        ? { isolation: Promise.all(this.handles.map((h) => h.result.then((r) => isolationOf(r.isolation)))) }
        : {}),
    };
  }

  runCleanups(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  /** Removes the workspaces now unless the teardown of a finished game will. */
  release(): void {
    if (this.teardown === undefined) void this.removeWorkspaces();
  }

  private async removeWorkspaces(): Promise<void> {
    // Warm seats have no workspace of the game's (their process keeps its own).
    await Promise.all(this.handles.filter((h) => h.workspace).map((h) => removeWorkspace(h.workspace)));
  }
}

/** Accounting once every seat's process is gone (its whole stderr is known only at exit). */
function accountingOf(handles: readonly LaunchHandle[]): Promise<GameAccounting> {
  return Promise.all(handles.map((h) => h.result)).then(accountGame);
}

/** Gives each agent `graceMs` to exit by itself, then stops it; settles once all are gone. */
async function stopAgents(handles: readonly LaunchHandle[], graceMs: number): Promise<void> {
  await Promise.all(
    handles.map(async (handle) => {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      const exited = await Promise.race([handle.result.then(() => true), grace.then(() => false)]);
      clearTimeout(timer);
      if (!exited) {
        handle.stop();
        await handle.result;
      }
    }),
  );
}
