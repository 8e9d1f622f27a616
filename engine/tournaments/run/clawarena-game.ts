// Plays one scheduled game of a ClawArena game type: createMatch() with one scoped token per seat, one agent process per
// seat through the runner with the ClawArena environment, and a watch over the match until it finishes. Attribution:
// * a seat not connected when the start budget runs out → agent_timeout (the match would start with it auto-played);
// * non-zero exit or signal before the end → agent_crash; a clean exit before the end → agent_protocol_violation
//   (the server would keep auto-playing a seat whose agent is gone, which is the agent's fault, not a result);
// * the match past game_seconds → agent_timeout for the seats the server had to auto-play, else every seat;
// * anything the engine itself throws → harness_error (void, replayed by the executor).
// Placements come from the match result (1 = best, ties share); there is no security/utility, so scores stay null.
import type { JsonObject } from '../../../games/kit/game.js';
import { seatsLabel } from '../../core/seat-label.js';
import type { ScheduledGame } from '../../core/tournament/index.js';
import { matchTranscript } from '../../protocols/clawarena/match-transcript.js';
import type { ClawArenaMatchApi } from '../../protocols/clawarena/scheduled-matches.js';
import type { LaunchResult } from '../../runner/launch.js';
import { exitVerdict, launchSeat } from '../launch/seat-launch.js';
import type { TournamentAgent } from '../spec-file.js';
import type { WarmSlotLaunch } from '../warm/warm-pool.js';
import { type GameContext, type GameOutcome, type GamePlay, playWith } from './game-play.js';

export interface ClawGameDeps extends GameContext {
  clawarena: ClawArenaMatchApi;
}

/** A ClawArena agent name from a tournament agent id (the service allows letters, digits, space and `._-`). */
export function clawSeatName(agentId: string): string {
  const cleaned = agentId.replace(/[^\p{L}\p{N} ._-]/gu, '-').replace(/^[^\p{L}\p{N}]+/u, '');
  return `t-${cleaned}`.slice(0, 64);
}

/** What a warm ClawArena slot needs of the service: an agent of its own and an unscoped token for it. */
export interface ClawArenaWarmApi {
  agentByName(name: string): { agentId: number } | undefined;
  createAgent(input: { name: string }): { agent: { agentId: number } };
  issueToken(agentId: number, matchId: number | null): string;
  agentEnvironment(token: string): Record<string, string>;
}

/** A warm slot of a ClawArena agent: its own ClawArena agent (reused across runs) and a fresh unscoped token for it. */
export function clawArenaWarmSlot(clawarena: ClawArenaWarmApi): (agent: TournamentAgent, slot: number) => WarmSlotLaunch {
  return (agent, slot) => {
    const name = `${clawSeatName(agent.id).slice(0, 58)}.w${slot}`;
    const clawAgent = clawarena.agentByName(name) ?? clawarena.createAgent({ name }).agent;
    // An unscoped token replaces the agent's earlier ones: a replaced slot's process is locked out.
    const token = clawarena.issueToken(clawAgent.agentId, null);
    return { env: clawarena.agentEnvironment(token), clawAgentId: clawAgent.agentId };
  };
}

export function playClawGame(deps: ClawGameDeps, game: ScheduledGame, signal: AbortSignal): Promise<GameOutcome> {
  return playWith(deps.clock, (play) => playMatch(deps, game, signal, play));
}

async function playMatch(deps: ClawGameDeps, game: ScheduledGame, signal: AbortSignal, play: GamePlay): Promise<GameOutcome> {
  const { clawarena } = deps;
  const seats = game.seats.length;
  const agentsOf = game.seats.map((index) => {
    const agent = deps.agents[index];
    if (!agent) throw new Error(`no agent ${index}`);
    return agent;
  });
  // Warm seats are leased first: createMatch seats the chosen process's own ClawArena agent.
  const leased = game.seats.map((index, seat) => (deps.warm?.has(index) ? deps.warm.leaseClaw(index, play.verdict, seat) : null));
  const created = clawarena.createMatch({
    gameType: game.challenge,
    seats: agentsOf.map((a, seat) => {
      const agentId = leased[seat]?.clawAgentId;
      return agentId != null ? { agentId } : { name: clawSeatName(a.id) };
    }),
    seed: game.seed,
    options: deps.options as JsonObject,
    waitForConnect: true,
    startTimeoutMs: deps.startMs,
  });
  const id = created.matchId;
  play.sessionId = `clawarena:${id}`;
  // Told at once, so the running list names the match and the viewer can follow its events live.
  deps.onSession(play.sessionId);
  play.onCleanup(() => clawarena.revokeMatchTokens(id));
  const seatOfAgentId = new Map(created.seats.map((s) => [s.agentId, s.seat]));
  play.onCleanup(
    clawarena.onMatchFinished((finished) => {
      if (finished.matchId === id) play.decide({ termination: 'completed', faultedSeats: [], detail: 'match finished' });
    }),
  );

  /** Seats the server played by default (deadline passed), from the agent ids its auto events name. */
  const autoSeats = (): number[] => {
    const seen = new Set<number>();
    for (const event of clawarena.matchEvents(id)) {
      if (!event.isAuto) continue;
      const actor = event.data.agent_id ?? event.data.actor_id ?? event.data.player_id;
      const seat = typeof actor === 'number' ? seatOfAgentId.get(actor) : undefined;
      if (seat !== undefined) seen.add(seat);
    }
    return [...seen].sort((a, b) => a - b);
  };
  const startTimer = setTimeout(
    () => {
      const view = clawarena.match(id);
      const missing = (view?.seats ?? []).filter((s) => !s.connected).map((s) => s.seat);
      if (missing.length > 0)
        play.decide({
          termination: 'agent_timeout',
          faultedSeats: missing,
          detail: `${seatsLabel(missing)} did not connect within ${deps.startMs / 1000} s`,
        });
    },
    Math.min(deps.startMs, deps.gameMs),
  );
  const gameTimer = setTimeout(() => {
    const auto = autoSeats();
    const faulted = auto.length > 0 ? auto : game.seats.map((_, seat) => seat);
    play.decide({
      termination: 'agent_timeout',
      faultedSeats: faulted,
      detail: `game over ${deps.gameMs / 1000} s: ${seatsLabel(faulted)} on the clock`,
    });
  }, deps.gameMs);
  play.onCleanup(() => {
    clearTimeout(startTimer);
    clearTimeout(gameTimer);
  });
  play.interruptOn(signal);

  const onExit = (seat: number, result: LaunchResult): void => {
    if (play.settled) return;
    // The finish event is published before the agent can see it, but the exit report may still arrive first when
    // both happen within one tick; the match status is the tie-breaker.
    if (clawarena.match(id)?.status === 'finished') return;
    const exit = exitVerdict(seat, result, deps.agents[game.seats[seat] as number]?.id);
    if (exit === 'clean') {
      play.decide({
        termination: 'agent_protocol_violation',
        faultedSeats: [seat],
        detail: `${seatsLabel([seat])} left before the match ended`,
      });
    } else if (exit) play.decide(exit);
  };

  play.agentsStarting();
  for (let seat = 0; seat < seats && !play.settled; seat++) {
    const agent = agentsOf[seat] as TournamentAgent;
    const token = created.seats[seat]?.token as string;
    const handle =
      leased[seat]?.handle ??
      launchSeat(deps, agent, game, seat, {
        ...clawarena.agentEnvironment(token),
      });
    play.addSeat(handle, (result) => onExit(seat, result));
  }
  // The service may have finished the match before the listener saw it (a match decided at once).
  if (clawarena.match(id)?.status === 'finished') play.decide({ termination: 'completed', faultedSeats: [], detail: 'match finished' });

  const outcome = await play.ended();
  if (outcome.termination !== 'completed') return play.finish(outcome, {}, matchTranscript(clawarena.matchEvents(id)));
  const view = clawarena.match(id);
  const placements = (view?.seats ?? []).sort((a, b) => a.seat - b.seat).map((s) => s.placement ?? seats);
  if (placements.length !== seats) return play.finish({ termination: 'harness_error', faultedSeats: [], detail: 'match result lost' });
  const reason = (view?.result as { finish_reason?: unknown } | null)?.finish_reason;
  const auto = autoSeats();
  outcome.detail = `match ${id} finished${typeof reason === 'string' ? ` (${reason})` : ''}${auto.length > 0 ? `; default moves for ${seatsLabel(auto)}` : ''}`;
  return play.finish(outcome, { placements }, matchTranscript(clawarena.matchEvents(id)));
}
