// Plays one scheduled game: a seat-key session, one agent process per seat through the runner with the launch
// contract, and a watch over the game until it ends or a seat forfeits. Attribution rules (spec §8.1):
// * non-zero exit or signal before the end → agent_crash; the runner failing to start a process → harness_error;
// * refused actions past the retry budget → agent_illegal_action, or agent_protocol_violation for malformed ones
//   (unknown method, unknown player);
// * no progress for move_seconds, or the game past game_seconds → of the seats that still owe a move (the operator's
//   finishedSeats are excused), those that acted least recently are on the clock and forfeit (agent_timeout), or
//   agent_protocol_violation when such a seat already exited without finishing;
// * a started seat that does not join within the start budget → agent_timeout; seats not yet started (they start in
//   seat order, each after the previous one joined) are never at fault;
// * anything the engine itself throws → harness_error (void, replayed by the executor).
import type { ChatMessage } from '../../contract/specarena.js';
import type { TranscriptEntry } from '../../contract/tournament.js';
import type { SeatScore } from '../../core/ratings/index.js';
import { operatorChannel } from '../../core/redaction.js';
import { seatsLabel } from '../../core/seat-label.js';
import { deriveSeed, type ScheduledGame } from '../../core/tournament/index.js';
import type { ArenaEngine } from '../../protocols/specarena/arena-engine.js';
import { issueSeatKey } from '../../protocols/specarena/auth.js';
import type { LaunchResult } from '../../runner/launch.js';
import { exitVerdict, launchSeat as launchSeatAgent, type Verdict } from '../launch/seat-launch.js';
import { placementsFromScores } from '../results/placements.js';
import { type GameContext, type GameOutcome, type GamePlay, playWith } from './game-play.js';

/** Refusals that mean the agent is not speaking the protocol, rather than making an illegal move. */
const PROTOCOL_CODES = new Set(['UNKNOWN_METHOD', 'PLAYER_NOT_FOUND', 'INVITE_ALREADY_USED']);
/** After the game ends, agents get this long to exit on their own before they are stopped. */
const EXIT_REPORT_GRACE_MS = 1_000;
/** The seat loop looks the seats up itself when no join event came for this long. */
const JOIN_RECHECK_MS = 250;

export interface GameDeps extends GameContext {
  engine: ArenaEngine;
  /** Base URL agents reach the engine at. */
  url: string;
  authSecret: Buffer;
}

export function playGame(deps: GameDeps, game: ScheduledGame, signal: AbortSignal): Promise<GameOutcome> {
  return playWith(deps.clock, (play) => playSpecArenaGame(deps, game, signal, play));
}

async function playSpecArenaGame(deps: GameDeps, game: ScheduledGame, signal: AbortSignal, play: GamePlay): Promise<GameOutcome> {
  const table = openTable(deps, game, play);
  const clocks = watchClocks(deps, play, table);
  const nextJoin = watchJoins(deps.engine, play, table);
  armStartBudget(deps, play, table, clocks);
  watchChannels(deps.engine, play, table, clocks);
  const refusals = watchRefusals(deps, play, table);
  armGameBudget(deps, play, clocks);
  play.interruptOn(signal);

  play.agentsStarting();
  clocks.armMove();
  startSeatsInOrder(deps, game, play, table, clocks, nextJoin);

  const outcome = await play.ended();
  return finishGame(deps.engine, play, table, outcome, refusals);
}

/** One game's table: its session, the seats' invites, and what the watchers below learn about each seat. */
interface Table {
  id: string;
  invites: string[];
  seatOf: ReadonlyMap<string, number>;
  seats: number;
  /** When each seat last committed a message on either channel. */
  lastAction: number[];
  /** Seats whose process exited cleanly before the game ended. */
  exitedClean: boolean[];
  /** Seats whose process has been started. */
  launched: Set<number>;
  /** Who has joined, as the engine's join events tell it. */
  players: readonly string[];
  /** The move clock starts once every seat has joined: process start-up is not a move (it has its own budget). */
  allJoined: boolean;
}

function openTable(deps: GameDeps, game: ScheduledGame, play: GamePlay): Table {
  // The run's mark on the session (onSession) commits with the session: one write transaction per game fewer.
  const session = deps.engine.createSession(game.challenge, deps.options, {
    seatKeysRequired: true,
    seed: game.seed,
    onCreated: (created) => deps.onSession?.(created),
  });
  play.sessionId = session.id;
  const invites = [...session.invites];
  play.invites = invites;
  const seats = game.seats.length;
  if (invites.length !== seats) throw new Error(`challenge ${game.challenge} has ${invites.length} seats, the schedule gave ${seats}`);
  return {
    id: session.id,
    invites,
    seatOf: new Map(invites.map((invite, seat) => [invite, seat])),
    seats,
    lastAction: new Array<number>(seats).fill(Number.NEGATIVE_INFINITY),
    exitedClean: new Array<boolean>(seats).fill(false),
    launched: new Set<number>(),
    players: [],
    allJoined: false,
  };
}

interface Clocks {
  /** (Re)starts the move clock, once every seat has joined. */
  armMove(): void;
  /** A committed message: its seat acted now, and the move clock starts over. */
  onMessage(message: ChatMessage): void;
  /** A clock ran out: the seats that acted least recently are at fault. */
  timeout(what: string): void;
  stop(): void;
}

/** Progress and who acted when: every committed message of either channel resets the move clock. */
function watchClocks(deps: GameDeps, play: GamePlay, table: Table): Clocks {
  let moveTimer: NodeJS.Timeout | undefined;
  // Of the seats that still owe a move (the operator names those with nothing left to do: a player that has made its
  // one guess is never blamed for the other's silence), those that acted least recently.
  const onClock = (): number[] => {
    const done = new Set(deps.engine.finishedPlayers(table.id).map((invite) => table.seatOf.get(invite)));
    const owing = table.lastAction.flatMap((t, seat) => (done.has(seat) ? [] : [{ t, seat }]));
    const candidates = owing.length > 0 ? owing : table.lastAction.map((t, seat) => ({ t, seat }));
    const oldest = Math.min(...candidates.map((c) => c.t));
    return candidates.flatMap((c) => (c.t === oldest ? [c.seat] : []));
  };
  // A process that died is reported by the runner a moment after it exits; a clock that runs out in that moment
  // must not turn the crash into a timeout, so the timeout verdict waits briefly for exit reports.
  let timingOut = false;
  const timeout = (what: string): void => {
    if (timingOut) return;
    timingOut = true;
    const t = setTimeout(() => {
      const seatsOnClock = onClock();
      const left = seatsOnClock.filter((s) => table.exitedClean[s]);
      if (left.length > 0)
        play.decide({
          termination: 'agent_protocol_violation',
          faultedSeats: left,
          detail: `${seatsLabel(left)} left before the game ended`,
        });
      else
        play.decide({
          termination: 'agent_timeout',
          faultedSeats: seatsOnClock,
          detail: `${what}: ${seatsLabel(seatsOnClock)} on the clock`,
        });
    }, EXIT_REPORT_GRACE_MS);
    play.onCleanup(() => clearTimeout(t));
  };
  const armMove = (): void => {
    if (!table.allJoined) return;
    clearTimeout(moveTimer);
    moveTimer = setTimeout(() => timeout(`no move within ${deps.moveMs / 1000} s`), deps.moveMs);
  };
  const onMessage = (message: ChatMessage): void => {
    const seat = table.seatOf.get(message.from);
    if (seat !== undefined) table.lastAction[seat] = deps.clock.now();
    armMove();
  };
  return { armMove, onMessage, timeout, stop: () => clearTimeout(moveTimer) };
}

/**
 * Keeps `table.players` current from the engine's join events, and returns the wait for the next one. The seat loop
 * re-reads the seats itself only if none came for a while (a safety net: every join this game can see goes through
 * the engine).
 */
function watchJoins(engine: ArenaEngine, play: GamePlay, table: Table): () => Promise<void> {
  let wake: (() => void) | undefined;
  const nextJoin = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (!play.settled) table.players = engine.players(table.id);
        done();
      }, JOIN_RECHECK_MS);
      function done(): void {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  play.onCleanup(
    engine.onJoin(table.id, (list) => {
      table.players = list;
      wake?.();
    }),
  );
  // A game that ends while the seat loop waits lets it go at once (the engine may close right after).
  play.onCleanup(() => wake?.());
  return nextJoin;
}

/** The start budget: every started seat must have joined by then, or it is at fault. */
function armStartBudget(deps: GameDeps, play: GamePlay, table: Table, clocks: Clocks): void {
  const startTimer = setTimeout(
    () => {
      if (table.allJoined) return;
      const inside = new Set(deps.engine.players(table.id));
      const missing = table.invites.flatMap((invite, seat) => (inside.has(invite) ? [] : [seat]));
      if (missing.length === 0) {
        table.allJoined = true;
        clocks.armMove();
        return;
      }
      // Seats start one after another, each once the previous one joined: a seat still waiting for its start never
      // had the chance to join and is not at fault, whichever seat order the game has.
      const late = missing.filter((seat) => table.launched.has(seat));
      const waiting = missing.filter((seat) => !table.launched.has(seat));
      const why = waiting.length > 0 ? `; ${seatsLabel(waiting)} not started (waits for ${seatsLabel(late)})` : '';
      play.decide(
        late.length > 0
          ? {
              termination: 'agent_timeout',
              faultedSeats: late,
              detail: `${seatsLabel(late)} did not join within ${deps.startMs / 1000} s${why}`,
            }
          : {
              termination: 'harness_error',
              faultedSeats: [],
              detail: `harness: ${seatsLabel(missing)} not started within ${deps.startMs / 1000} s`,
            },
      );
    },
    Math.min(deps.startMs, deps.gameMs),
  );
  play.onCleanup(() => clearTimeout(startTimer));
}

/** Both channels: each message is progress; the session's end event ends the game. */
function watchChannels(engine: ArenaEngine, play: GamePlay, table: Table, clocks: Clocks): void {
  for (const channel of [operatorChannel(table.id), table.id]) {
    play.onCleanup(
      engine.live.subscribe(channel, (event) => {
        if (event.type === 'new_message') clocks.onMessage(event.message);
        else play.decide({ termination: 'completed', faultedSeats: [], detail: 'game ended' });
      }),
    );
  }
}

/** Counts each seat's refused actions (kept for the transcript); past the budget the seat forfeits. */
function watchRefusals(deps: GameDeps, play: GamePlay, table: Table): Refusal[] {
  const refused = new Array<number>(table.seats).fill(0);
  const refusals: Refusal[] = [];
  play.onCleanup(
    deps.engine.onRejectedAction((sid, from, code, refusal) => {
      if (sid !== table.id) return;
      const seat = table.seatOf.get(from);
      if (seat === undefined) return;
      refused[seat] = (refused[seat] as number) + 1;
      refusals.push({ seat, code: code ?? null, message: refusal.message, at: refusal.at });
      if ((refused[seat] as number) > deps.maxIllegalActions) {
        const protocol = code === undefined || PROTOCOL_CODES.has(code);
        play.decide({
          termination: protocol ? 'agent_protocol_violation' : 'agent_illegal_action',
          faultedSeats: [seat],
          detail: `${seatsLabel([seat])}: ${refused[seat]} refused actions (last ${code ?? 'malformed'}), budget ${deps.maxIllegalActions}`,
        });
      }
    }),
  );
  return refusals;
}

/** The whole game's budget; its cleanup also stops the move clock. */
function armGameBudget(deps: GameDeps, play: GamePlay, clocks: Clocks): void {
  const gameTimer = setTimeout(() => clocks.timeout(`game over ${deps.gameMs / 1000} s`), deps.gameMs);
  play.onCleanup(() => {
    clearTimeout(gameTimer);
    clocks.stop();
  });
}

/**
 * Seats join in seat order: challenges deal private data by join order, so this is what makes seat k get the same
 * hand on the same seed, and a seat-swapped pair really swap hands.
 */
function startSeatsInOrder(
  deps: GameDeps,
  game: ScheduledGame,
  play: GamePlay,
  table: Table,
  clocks: Clocks,
  nextJoin: () => Promise<void>,
): void {
  const onExit = (seat: number, result: LaunchResult): void => {
    if (play.settled) return;
    const exit = exitVerdict(seat, result, deps.agents[game.seats[seat] as number]?.id);
    if (exit === 'clean') table.exitedClean[seat] = true;
    else if (exit) play.decide(exit);
  };
  const { seats } = table;
  void (async () => {
    for (let seat = 0; seat < seats && !play.settled; seat++) {
      launchSeat(deps, game, play, table, seat, onExit);
      while (seat < seats - 1 && !play.settled && table.players.length <= seat) await nextJoin();
    }
    // Challenges that say nothing on join still get their move clock once the table is full.
    while (!play.settled && !table.allJoined) {
      if (table.players.length >= seats) {
        table.allJoined = true;
        clocks.armMove();
      } else await nextJoin();
    }
  })().catch((error: unknown) =>
    play.decide({ termination: 'harness_error', faultedSeats: [], detail: `harness: ${(error as Error).message}` }),
  );
}

/** Starts one seat's agent: a lease on a warm process when the agent has one, else a fresh launch. */
function launchSeat(
  deps: GameDeps,
  game: ScheduledGame,
  play: GamePlay,
  table: Table,
  seat: number,
  onExit: (seat: number, result: LaunchResult) => void,
): void {
  table.launched.add(seat);
  const agentIndex = game.seats[seat] as number;
  const agent = deps.agents[agentIndex];
  if (!agent) throw new Error(`no agent ${agentIndex}`);
  const seatKey = issueSeatKey(deps.authSecret, table.id, seat, deps.clock.now());
  const invite = table.invites[seat] as string;
  const mcpUrl = `${deps.url}/api/arena/mcp`;
  const handle = deps.warm?.has(agentIndex)
    ? deps.warm.lease(
        agentIndex,
        {
          invite,
          seat_key: seatKey,
          challenge: game.challenge,
          seed: deriveSeed(game.seed, `agent:${seat}`),
          move_seconds: deps.moveMs / 1000,
          game_seconds: deps.gameMs / 1000,
          deadline: play.startedAt + deps.gameMs,
          agent_id: agent.id,
          game_index: game.gameIndex,
          seat,
          url: deps.url,
          mcp_url: mcpUrl,
        },
        play.verdict,
        seat,
      )
    : launchSeatAgent(deps, agent, game, seat, {
        ARENA_URL: deps.url,
        ARENA_INVITE: invite,
        ARENA_SESSION_KEY: seatKey,
        ARENA_MCP_URL: mcpUrl,
      });
  play.addSeat(handle, (result) => onExit(seat, result));
}

/** A completed game is scored from the ended session; any other ending keeps its verdict. Both keep the transcript. */
function finishGame(engine: ArenaEngine, play: GamePlay, table: Table, outcome: Verdict, refusals: readonly Refusal[]): GameOutcome {
  const { id, seatOf, invites } = table;
  if (outcome.termination !== 'completed') return play.finish(outcome, {}, transcriptOf(engine, id, seatOf, refusals));
  const ended = engine.session(id);
  if (ended?.status !== 'ended') return play.finish({ termination: 'harness_error', faultedSeats: [], detail: 'session lost' });
  const scores: SeatScore[] = invites.map((invite) => {
    const score = ended.state.scores[ended.state.players.indexOf(invite)];
    return { security: score?.security ?? 0, utility: score?.utility ?? 0 };
  });
  return play.finish(outcome, { scores, placements: placementsFromScores(scores) }, transcriptOf(engine, id, seatOf, refusals));
}

/** A refused action's reason: the HTTP answer the agent got, which no channel carries. */
interface Refusal {
  seat: number;
  code: string | null;
  message: string;
  at: number;
}

/**
 * Both channels merged in commit order, invites replaced by seat numbers. Each refusal follows the action it answers
 * as an operator line to that seat (the sort is stable, so it lands after the logged action of the same instant).
 */
function transcriptOf(
  engine: ArenaEngine,
  sessionId: string,
  seatOf: ReadonlyMap<string, number>,
  refusals: readonly Refusal[],
): TranscriptEntry[] {
  const label = (who: string | null | undefined): number | string | null => (who == null ? null : (seatOf.get(who) ?? who));
  const rows: Omit<TranscriptEntry, 'index'>[] = [
    ...engine.transcript(operatorChannel(sessionId)).map((m) => ({ m, channel: 'operator' as const })),
    ...engine.transcript(sessionId).map((m) => ({ m, channel: 'chat' as const })),
  ].map(({ m, channel }) => ({
    channel,
    from: label(m.from) as TranscriptEntry['from'],
    to: label(m.to) as TranscriptEntry['to'],
    content: m.content,
    timestamp: m.timestamp,
  }));
  for (const r of refusals)
    rows.push({
      channel: 'operator',
      from: 'operator',
      to: r.seat,
      content: `Refused${r.code ? ` (${r.code})` : ''}: ${r.message}`,
      timestamp: r.at,
      data: { kind: 'refusal', code: r.code },
    });
  rows.sort((a, b) => a.timestamp - b.timestamp);
  return rows.map((row, index) => ({ index, ...row }));
}
