// Lobby and seating: where a caller stands (idle, queued, or in a match), connecting its seat, starting a scheduled
// match once every seat connected, and seating queued agents of one game type together.
import type { AnyGameRules } from '../../../games/index.js';
import type { Seat } from '../../../games/kit/game.js';
import type { Clock } from '../../core/clock.js';
import type { Store, StoredClawAgent, StoredClawMatch } from '../../db/store.js';
import type { AuthContext, ClawAgents } from './agents.js';
import type { Deadlines } from './deadlines.js';
import type { Located } from './envelope.js';
import type { MatchRuntime } from './match-runtime.js';
import type { MatchSignals } from './match-signals.js';
import { GRACE_SECONDS } from './schema-document.js';

export interface LobbyDeps {
  store: Store;
  clock: Clock;
  runtime: MatchRuntime;
  games: ReadonlyMap<string, AnyGameRules>;
  agents: ClawAgents;
  deadlines: Deadlines;
  signals: MatchSignals;
  seed(purpose: string): string;
}

export function createLobby(deps: LobbyDeps) {
  const { store, clock, runtime, games, agents } = deps;
  const repo = store.clawarena;

  function tryLobbyMatch(gameType: string): StoredClawMatch | null {
    const game = games.get(gameType);
    if (!game) return null;
    const now = clock.now();
    const live: number[] = [];
    for (const entry of repo.queue(gameType)) {
      // An agent that stopped polling (a kit that exited) is not seated with a live one.
      if (entry.lastSeenAt === null || now - entry.lastSeenAt > GRACE_SECONDS * 1000) repo.dequeue(entry.agentId);
      else live.push(entry.agentId);
    }
    if (live.length < game.players.default) return null;
    const chosen = live.slice(0, game.players.default);
    const seats: Seat[] = chosen.map((agentId) => ({ agentId, name: (repo.agent(agentId) as StoredClawAgent).name }));
    for (const agentId of chosen) repo.dequeue(agentId);
    const match = runtime.create({
      gameType,
      origin: 'lobby',
      seats,
      seed: deps.seed(`clawarena:lobby:${gameType}:${now}:${chosen.join(',')}`),
      options: {},
      startDeadlineAt: null,
    });
    runtime.start(match);
    return match;
  }

  /** Where the caller stands: processes due deadlines, connects its seat, and queues lobby agents. */
  function locate(auth: AuthContext): { loc: Located; seated: number | null } {
    let seatedMatch: number | null = null;
    const scoped = auth.scopeMatchId;
    const initial = agents.seatOf(auth);
    if (initial) deps.deadlines.expireMatch(initial.matchId);
    const loc = store.transaction((): Located => {
      const agent = agents.agentOf(auth);
      let seat = agents.seatOf(auth);
      let match = seat ? repo.match(seat.matchId) : undefined;
      if (seat && match && seat.connectedAt === null) {
        seat = { ...seat, connectedAt: clock.now() };
        repo.updateSeat(seat);
        if (match.status === 'matched' && repo.seats(match.matchId).every((s) => s.connectedAt !== null)) {
          runtime.start(match);
          seatedMatch = match.matchId;
        }
      }
      let requeued = false;
      // An owner's "manual" play mode keeps the agent out of the lobby: tournaments still seat it.
      const lobbyType = scoped === null && agent.preferences.play_mode !== 'manual' ? agent.preferredGameType : null;
      if (lobbyType && games.has(lobbyType) && (!match || match.status === 'finished')) {
        // A finished match is shown at least once before the agent is queued again, so a client that stops
        // after one match is not seated in a match it will never play.
        if (!match || seat?.finishedSeen) {
          repo.enqueue(agent.agentId, lobbyType, clock.now());
          const created = tryLobbyMatch(lobbyType);
          if (created) {
            seatedMatch = created.matchId;
            seat = agents.seatOf(auth);
            match = seat ? repo.match(seat.matchId) : undefined;
          }
        }
        requeued = repo.queued(agent.agentId) !== undefined;
      }
      if (seat && match) return { status: match.status, match, seat, requeued };
      const queued = repo.queued(agent.agentId);
      if (queued) {
        const needed = games.get(queued.gameType)?.players.default ?? 0;
        return { status: 'waiting', gameType: queued.gameType, queued: repo.queue(queued.gameType).length, needed };
      }
      return { status: 'idle' };
    });
    return { loc, seated: seatedMatch };
  }

  return {
    /** Locates the caller and wakes the other seats of a match it just filled. */
    locate(auth: AuthContext): Located {
      const { loc, seated } = locate(auth);
      if (seated !== null) {
        deps.signals.changed(seated);
        deps.deadlines.schedule();
      }
      return loc;
    },
  };
}

export type Lobby = ReturnType<typeof createLobby>;
