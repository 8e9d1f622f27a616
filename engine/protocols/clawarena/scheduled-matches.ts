// The narrow API the tournament layer plays ClawArena games through: create a match with one scoped token per seat,
// follow it, hear when it finishes, revoke its tokens, and the environment a launched client needs.
import type { JsonObject, Seat } from '../../../games/kit/game.js';
import type { StoredClawEvent } from '../../db/store.js';
import { windowId } from './envelope.js';
import { ClawError } from './errors.js';
import type { LobbyDeps } from './lobby.js';
import type { FinishedMatch } from './match-signals.js';

export interface ScheduledSeat {
  /** An existing ClawArena agent; omit it to provision one named `name` (or reuse the agent of that name). */
  agentId?: number;
  name?: string;
}

export interface CreateMatchRequest {
  gameType: string;
  seats: ScheduledSeat[];
  seed?: string;
  options?: JsonObject;
  /** Start only once every seat has connected (default true); false starts at once. */
  waitForConnect?: boolean;
  startTimeoutMs?: number;
}

export interface CreatedMatch {
  matchId: number;
  gameType: string;
  seats: { seat: number; agentId: number; name: string; token: string }[];
}

export interface MatchView {
  matchId: number;
  gameType: string;
  origin: 'lobby' | 'scheduled';
  status: string;
  seats: { seat: number; agentId: number; name: string; placement: number | null; connected: boolean }[];
  actionWindowId: string | null;
  deadlineAt: number | null;
  publicState: unknown;
  result: Record<string, unknown> | null;
  summary: Record<string, unknown> | null;
}

/** What a tournament needs of the ClawArena service, and nothing more. */
export interface ClawArenaMatchApi {
  createMatch(request: CreateMatchRequest): CreatedMatch;
  match(matchId: number): MatchView | undefined;
  matchEvents(matchId: number): StoredClawEvent[];
  onMatchFinished(listener: (match: FinishedMatch) => void): () => void;
  revokeMatchTokens(matchId: number): void;
  agentEnvironment(token: string, preferHttps?: boolean): Record<string, string>;
}

/** The lobby's parts, plus how long a scheduled match waits for its seats and where clients reach the engine. */
export interface ScheduledMatchDeps extends LobbyDeps {
  startTimeoutMs: number;
  baseUrls(): { http: string | null; https: string | null };
}

export function createScheduledMatches(deps: ScheduledMatchDeps) {
  const { store, clock, runtime, games, agents } = deps;
  const repo = store.clawarena;

  function match(matchId: number): MatchView | undefined {
    const stored = repo.match(matchId);
    if (!stored) return undefined;
    const game = runtime.gameOf(stored);
    return {
      matchId: stored.matchId,
      gameType: stored.gameType,
      origin: stored.origin,
      status: stored.status,
      seats: repo
        .seats(matchId)
        .map((s) => ({ seat: s.seat, agentId: s.agentId, name: s.name, placement: s.placement, connected: s.connectedAt !== null })),
      actionWindowId: windowId(stored),
      deadlineAt: stored.deadlineAt,
      publicState: game.spectate(stored.state),
      result: stored.result,
      summary: stored.summary,
    };
  }

  const api = {
    createMatch(request: CreateMatchRequest): CreatedMatch {
      const game = games.get(request.gameType);
      if (!game) throw ClawError.of('invalid_payload', `unknown game type ${request.gameType}`, { allowed_values: [...games.keys()] });
      if (request.seats.length < game.players.min || request.seats.length > game.players.max) {
        throw ClawError.of(
          'invalid_payload',
          `${request.gameType} needs ${game.players.min}-${game.players.max} seats, got ${request.seats.length}`,
        );
      }
      const created = store.transaction(() => {
        const seats: Seat[] = request.seats.map((spec) => {
          if (spec.agentId !== undefined) {
            const agent = repo.agent(spec.agentId);
            if (!agent) throw ClawError.of('invalid_payload', `no ClawArena agent ${spec.agentId}`);
            return { agentId: agent.agentId, name: agent.name };
          }
          if (!spec.name) throw ClawError.of('invalid_payload', 'each seat needs an agentId or a name');
          const existing = repo.agentByName(spec.name.trim());
          const agent = existing ?? agents.createAgent({ name: spec.name }).agent;
          return { agentId: agent.agentId, name: agent.name };
        });
        if (new Set(seats.map((s) => s.agentId)).size !== seats.length)
          throw ClawError.of('invalid_payload', 'an agent can hold only one seat per match');
        for (const s of seats) repo.dequeue(s.agentId);
        const waitForConnect = request.waitForConnect ?? true;
        const created = runtime.create({
          gameType: request.gameType,
          origin: 'scheduled',
          seats,
          seed:
            request.seed ?? deps.seed(`clawarena:scheduled:${request.gameType}:${clock.now()}:${seats.map((s) => s.agentId).join(',')}`),
          options: request.options ?? {},
          startDeadlineAt: waitForConnect ? clock.now() + (request.startTimeoutMs ?? deps.startTimeoutMs) : null,
        });
        if (!waitForConnect) runtime.start(created);
        return {
          matchId: created.matchId,
          gameType: created.gameType,
          seats: seats.map((s, seat) => ({ seat, agentId: s.agentId, name: s.name, token: agents.issueToken(s.agentId, created.matchId) })),
        };
      });
      deps.signals.changed(created.matchId);
      deps.deadlines.schedule();
      return created;
    },
    match,
    matchEvents: (matchId: number) => repo.events(matchId),
    onMatchFinished: (listener: (finished: FinishedMatch) => void) => deps.signals.onFinished(listener),
    revokeMatchTokens: (matchId: number) => {
      repo.revokeMatchTokens(matchId, clock.now());
    },
    /** The environment a launched client needs (the runner adds it to the agent's allow-listed environment). */
    agentEnvironment(token: string, preferHttps = false): Record<string, string> {
      const urls = deps.baseUrls();
      const base = preferHttps && urls.https ? urls.https : (urls.http ?? urls.https);
      if (!base) throw new Error('the ClawArena service has no listening address yet');
      const url = `${base}/api/v1`;
      return { CLAWARENA_BASE_URL: url, CLAWARENA_BASE: url, CLAWARENA_CONNECTION_TOKEN: token };
    },
  } satisfies ClawArenaMatchApi;
  return api;
}
