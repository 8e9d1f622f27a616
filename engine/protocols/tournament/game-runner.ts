// Plays one scheduled game: a seat-key session, one agent process per seat through the runner with the launch
// contract, and a watch over the game until it ends or a seat forfeits. Attribution rules (spec §8.1):
// * non-zero exit or signal before the end → agent_crash; the runner failing to start a process → harness_error;
// * refused actions past the retry budget → agent_illegal_action, or agent_protocol_violation for malformed ones
//   (unknown method, unknown player);
// * no progress for move_seconds, or the game past game_seconds → the seats that acted least recently are on the clock
//   and forfeit (agent_timeout), or agent_protocol_violation when such a seat already exited without finishing;
// * anything the engine itself throws → harness_error (void, replayed by the executor).
import fs from 'node:fs';
import type { ChatMessage } from '../../contract/specarena.js';
import type { SeatScore, Termination } from '../../core/ratings/index.js';
import { operatorChannel } from '../../core/redaction.js';
import type { ScheduledGame } from '../../core/tournament/index.js';
import type { LaunchHandle, LaunchResult } from '../../runner/launch.js';
import type { ArenaEngine } from '../specarena/arena-engine.js';
import { issueSeatKey } from '../specarena/auth.js';
import { accountGame, type GameAccounting } from './model-usage.js';
import { placementsFromScores } from './placements.js';
import { EXIT_GRACE_MS, exitVerdict, launchSeat as launchSeatAgent, type Verdict } from './seat-launch.js';
import type { TournamentAgent } from './spec-file.js';

/** Refusals that mean the agent is not speaking the protocol, rather than making an illegal move. */
const PROTOCOL_CODES = new Set(['UNKNOWN_METHOD', 'PLAYER_NOT_FOUND', 'INVITE_ALREADY_USED']);
/** After the game ends, agents get this long to exit on their own before they are stopped. */
const EXIT_REPORT_GRACE_MS = 1_000;

export interface GameDeps {
  engine: ArenaEngine;
  /** Base URL agents reach the engine at. */
  url: string;
  authSecret: Buffer;
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
  /** Told the session id as soon as the game's session exists (the live view follows it). */
  onSession?: (sessionId: string) => void;
}

export interface TranscriptEntry {
  index: number;
  /** 'match': a ClawArena match event; 'model': a model agent's turn (prompt in data). The fields below carry them. */
  channel: 'operator' | 'chat' | 'match' | 'model';
  /** Seat number of the sender, or 'operator'. */
  from: number | 'operator' | string;
  to: number | 'operator' | string | null;
  content: string;
  timestamp: number;
  event_seq?: number;
  is_auto?: boolean;
  visibility?: 'public' | number[];
  data?: Record<string, unknown>;
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
}

export async function playGame(deps: GameDeps, game: ScheduledGame, signal: AbortSignal): Promise<GameOutcome> {
  const startedAt = Date.now();
  const { engine } = deps;
  let sessionId: string | null = null;
  let invites: string[] = [];
  const handles: Array<LaunchHandle | null> = [];
  const cleanups: Array<() => void> = [];
  let agentsStartedAt: number | null = null;
  let endedAtAgents: number | null = null;
  let teardown: Promise<void> | undefined;
  const removeWorkspaces = (): void => {
    for (const handle of handles) if (handle) fs.rm(handle.workspace, { recursive: true, force: true }, () => {});
  };

  const finish = (verdict: Verdict, scores: SeatScore[] | null, transcript: TranscriptEntry[]): GameOutcome => ({
    sessionId,
    invites,
    termination: verdict.termination,
    faultedSeats: verdict.faultedSeats,
    placements: verdict.termination === 'completed' && scores ? placementsFromScores(scores) : null,
    scores,
    detail: verdict.detail,
    agentMs: agentsStartedAt === null ? 0 : (endedAtAgents ?? Date.now()) - agentsStartedAt,
    startedAt,
    endedAt: Date.now(),
    transcript,
    ...(teardown ? { teardown } : {}),
    ...(handles.length > 0 ? { accounting: accountingOf(handles) } : {}),
  });

  try {
    const session = engine.createSession(game.challenge, deps.options, { seatKeysRequired: true, seed: game.seed });
    const id = session.id;
    sessionId = id;
    deps.onSession?.(id);
    invites = [...session.invites];
    const seatOf = new Map(invites.map((invite, seat) => [invite, seat]));
    const seats = game.seats.length;
    if (invites.length !== seats) throw new Error(`challenge ${game.challenge} has ${invites.length} seats, the schedule gave ${seats}`);

    let settle: (verdict: Verdict) => void = () => {};
    const verdict = new Promise<Verdict>((resolve) => {
      settle = resolve;
    });
    let settled = false;
    const decide = (v: Verdict): void => {
      if (settled) return;
      settled = true;
      endedAtAgents = Date.now();
      settle(v);
    };

    // Progress and who acted when: every committed message of either channel resets the move clock.
    const lastAction = new Array<number>(seats).fill(Number.NEGATIVE_INFINITY);
    const exitedClean = new Array<boolean>(seats).fill(false);
    let moveTimer: NodeJS.Timeout | undefined;
    const onClock = (): number[] => {
      const oldest = Math.min(...lastAction);
      return lastAction.flatMap((t, seat) => (t === oldest ? [seat] : []));
    };
    // A process that died is reported by the runner a moment after it exits; a clock that runs out in that moment
    // must not turn the crash into a timeout, so the timeout verdict waits briefly for exit reports.
    let timingOut = false;
    const timeout = (what: string): void => {
      if (timingOut) return;
      timingOut = true;
      const t = setTimeout(() => {
        const seatsOnClock = onClock();
        const left = seatsOnClock.filter((s) => exitedClean[s]);
        if (left.length > 0)
          decide({
            termination: 'agent_protocol_violation',
            faultedSeats: left,
            detail: `seat ${left.join(', ')} left before the game ended`,
          });
        else
          decide({
            termination: 'agent_timeout',
            faultedSeats: seatsOnClock,
            detail: `${what}: seat ${seatsOnClock.join(', ')} on the clock`,
          });
      }, EXIT_REPORT_GRACE_MS);
      cleanups.push(() => clearTimeout(t));
    };
    // The move clock starts once every seat has joined: process start-up is not a move (it has its own budget).
    let allJoined = false;
    const joined = (): string[] => engine.session(id)?.state.players ?? [];
    const armMove = (): void => {
      if (!allJoined) return;
      clearTimeout(moveTimer);
      moveTimer = setTimeout(() => timeout(`no move within ${deps.moveMs / 1000} s`), deps.moveMs);
    };
    const onMessage = (message: ChatMessage): void => {
      const seat = seatOf.get(message.from);
      if (seat !== undefined) lastAction[seat] = Date.now();
      if (!allJoined && joined().length >= seats) allJoined = true;
      armMove();
    };
    const startTimer = setTimeout(
      () => {
        if (allJoined) return;
        const inside = new Set(joined());
        const missing = invites.flatMap((invite, seat) => (inside.has(invite) ? [] : [seat]));
        if (missing.length === 0) {
          allJoined = true;
          armMove();
          return;
        }
        decide({
          termination: 'agent_timeout',
          faultedSeats: missing,
          detail: `seat ${missing.join(', ')} did not join within ${deps.startMs / 1000} s`,
        });
      },
      Math.min(deps.startMs, deps.gameMs),
    );
    cleanups.push(() => clearTimeout(startTimer));
    for (const channel of [operatorChannel(id), id]) {
      cleanups.push(
        engine.live.subscribe(channel, (event) => {
          if (event.type === 'new_message') onMessage(event.message);
          else decide({ termination: 'completed', faultedSeats: [], detail: 'game ended' });
        }),
      );
    }
    const refused = new Array<number>(seats).fill(0);
    cleanups.push(
      engine.onRejectedAction((sid, from, code) => {
        if (sid !== id) return;
        const seat = seatOf.get(from);
        if (seat === undefined) return;
        refused[seat] = (refused[seat] as number) + 1;
        if ((refused[seat] as number) > deps.maxIllegalActions) {
          const protocol = code === undefined || PROTOCOL_CODES.has(code);
          decide({
            termination: protocol ? 'agent_protocol_violation' : 'agent_illegal_action',
            faultedSeats: [seat],
            detail: `seat ${seat}: ${refused[seat]} refused actions (last ${code ?? 'malformed'}), budget ${deps.maxIllegalActions}`,
          });
        }
      }),
    );
    const gameTimer = setTimeout(() => timeout(`game over ${deps.gameMs / 1000} s`), deps.gameMs);
    cleanups.push(() => {
      clearTimeout(gameTimer);
      clearTimeout(moveTimer);
    });
    const onAbort = (): void => decide({ termination: 'interrupted', faultedSeats: [], detail: 'stopped by the operator' });
    signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();

    agentsStartedAt = Date.now();
    armMove();
    const mcpUrl = `${deps.url}/api/arena/mcp`;
    // Seats join in seat order: challenges deal private data by join order, so this is what makes seat k get the
    // same hand on the same seed, and a seat-swapped pair really swap hands.
    const launchSeat = (seat: number): void => {
      const agentIndex = game.seats[seat] as number;
      const agent = deps.agents[agentIndex];
      if (!agent) throw new Error(`no agent ${agentIndex}`);
      const handle = launchSeatAgent(deps, agent, game, seat, {
        ARENA_URL: deps.url,
        ARENA_INVITE: invites[seat] as string,
        ARENA_SESSION_KEY: issueSeatKey(deps.authSecret, id, seat, Date.now()),
        ARENA_MCP_URL: mcpUrl,
      });
      handles.push(handle);
      void handle.result.then((result) => onExit(seat, result));
    };
    void (async () => {
      const sleep = () => new Promise((resolve) => setTimeout(resolve, 5));
      for (let seat = 0; seat < seats && !settled; seat++) {
        launchSeat(seat);
        while (seat < seats - 1 && !settled && joined().length <= seat) await sleep();
      }
      // Challenges that say nothing on join still get their move clock once the table is full.
      while (!settled && !allJoined) {
        if (joined().length >= seats) {
          allJoined = true;
          armMove();
        } else await sleep();
      }
    })().catch((error: unknown) =>
      decide({ termination: 'harness_error', faultedSeats: [], detail: `harness: ${(error as Error).message}` }),
    );

    function onExit(seat: number, result: LaunchResult): void {
      if (settled) return;
      const exit = exitVerdict(seat, result);
      if (exit === 'clean') exitedClean[seat] = true;
      else if (exit) decide(exit);
    }

    const outcome = await verdict;
    for (const cleanup of cleanups.splice(0)) cleanup();
    // After a normal end the agents exit by themselves; the result does not wait for them. A forfeit stops them now.
    if (outcome.termination === 'completed') teardown = stopAgents(handles, EXIT_GRACE_MS).then(removeWorkspaces);
    else await stopAgents(handles, 0);
    let scores: SeatScore[] | null = null;
    if (outcome.termination === 'completed') {
      const ended = engine.session(id);
      if (ended?.status !== 'ended') return finish({ termination: 'harness_error', faultedSeats: [], detail: 'session lost' }, null, []);
      scores = invites.map((invite) => {
        const score = ended.state.scores[ended.state.players.indexOf(invite)];
        return { security: score?.security ?? 0, utility: score?.utility ?? 0 };
      });
    }
    return finish(outcome, scores, transcriptOf(engine, id, seatOf));
  } catch (error) {
    for (const cleanup of cleanups.splice(0)) cleanup();
    await stopAgents(handles, 0);
    return finish({ termination: 'harness_error', faultedSeats: [], detail: `harness: ${(error as Error).message}` }, null, []);
  } finally {
    if (teardown === undefined) removeWorkspaces();
  }
}

/** Accounting once every seat's process is gone (its whole stderr is known only at exit). */
export function accountingOf(handles: ReadonlyArray<LaunchHandle | null>): Promise<GameAccounting> {
  return Promise.all(handles.map((h) => (h ? h.result : null))).then(accountGame);
}

async function stopAgents(handles: ReadonlyArray<LaunchHandle | null>, graceMs: number): Promise<void> {
  await Promise.all(
    handles.map(async (handle) => {
      if (!handle) return;
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

/** Both channels merged in commit order, invites replaced by seat numbers. */
function transcriptOf(engine: ArenaEngine, sessionId: string, seatOf: ReadonlyMap<string, number>): TranscriptEntry[] {
  const label = (who: string | null | undefined): number | string | null => (who == null ? null : (seatOf.get(who) ?? who));
  const rows = [
    ...engine.transcript(operatorChannel(sessionId)).map((m) => ({ m, channel: 'operator' as const })),
    ...engine.transcript(sessionId).map((m) => ({ m, channel: 'chat' as const })),
  ].sort((a, b) => a.m.timestamp - b.m.timestamp);
  return rows.map(({ m, channel }, index) => ({
    index,
    channel,
    from: label(m.from) as TranscriptEntry['from'],
    to: label(m.to) as TranscriptEntry['to'],
    content: m.content,
    timestamp: m.timestamp,
  }));
}
