// Calls the match viewer makes: one stored game, the games in flight, the SpecArena session behind a game, and a
// running ClawArena match's events.
import { ADMIN_PREFIX, type AdminSessionDetail } from '../../../../engine/contract/admin.js';
import { type ClawMatchEventsResponse, ClawMatchEventsResponseSchema } from '../../../../engine/contract/clawarena-admin.js';
import {
  type RunningGame,
  RunningGamesResponseSchema,
  type TournamentGameDetailResponse,
  TournamentGameDetailResponseSchema,
  type TournamentSummary,
  TournamentSummarySchema,
} from '../../../../engine/contract/tournament.js';
import type { ArenaClient } from '../../arena-client/client.js';
import { ApiError } from '../../arena-client/errors.js';

const tournamentPath = (id: string) => `${ADMIN_PREFIX}/tournaments/${encodeURIComponent(id)}`;

/** One stored game; with `seat` (0-based), as that seat saw it — the engine withholds the rest before it is sent. */
export function fetchGame(
  client: ArenaClient,
  tournamentId: string,
  index: number,
  signal?: AbortSignal,
  seat?: number,
): Promise<TournamentGameDetailResponse> {
  const query = seat === undefined ? '' : `?seat=${seat}`;
  return client.call(TournamentGameDetailResponseSchema, `${tournamentPath(tournamentId)}/games/${index}${query}`, { admin: true, signal });
}

export function fetchRunning(client: ArenaClient, tournamentId: string, signal?: AbortSignal): Promise<RunningGame[]> {
  return client.call(RunningGamesResponseSchema, `${tournamentPath(tournamentId)}/running`, { admin: true, signal }).then((r) => r.games);
}

export function fetchTournament(client: ArenaClient, tournamentId: string, signal?: AbortSignal): Promise<TournamentSummary> {
  return client.call(TournamentSummarySchema, tournamentPath(tournamentId), { admin: true, signal });
}

/** The session of a finished SpecArena game, for its attributions; null once the engine no longer keeps it. */
export function fetchSessionIfKept(client: ArenaClient, sessionId: string, signal?: AbortSignal): Promise<AdminSessionDetail | null> {
  return client.keptSession(sessionId, signal);
}

export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

export const CLAWARENA_SESSION_PREFIX = 'clawarena:';

export function isSpecArenaSession(sessionId: string | null): sessionId is string {
  return sessionId !== null && !sessionId.startsWith(CLAWARENA_SESSION_PREFIX);
}

/** The match id behind a ClawArena game's `clawarena:<id>` session, or null for any other session. */
export function clawMatchId(sessionId: string | null): number | null {
  if (sessionId === null || !sessionId.startsWith(CLAWARENA_SESSION_PREFIX)) return null;
  const id = Number(sessionId.slice(CLAWARENA_SESSION_PREFIX.length));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A ClawArena match's events past position `after` (owner only: the admin sees every seat's private events). */
export function fetchClawMatchEvents(
  client: ArenaClient,
  matchId: number,
  after: number,
  signal?: AbortSignal,
): Promise<ClawMatchEventsResponse> {
  return client.call(ClawMatchEventsResponseSchema, `${ADMIN_PREFIX}/clawarena/matches/${matchId}/events?after=${after}`, {
    admin: true,
    signal,
  });
}
