// Typed calls to the engine's tournament and agent-catalog routes, built on the one client; every answer is parsed
// with a contract schema (or, for the statistics routes the contract leaves open, with the slice this UI reads).
import { z } from 'zod';
import { ADMIN_PREFIX } from '../../../../engine/contract/admin.js';
import { type AgentCatalogResponse, AgentCatalogResponseSchema } from '../../../../engine/contract/agent-catalog.js';
import {
  type RunningGame,
  RunningGamesResponseSchema,
  type TournamentCatalogResponse,
  TournamentCatalogResponseSchema,
  type TournamentChartsResponse,
  TournamentChartsResponseSchema,
  type TournamentSummary,
  TournamentSummarySchema,
  type TournamentValidateResponse,
  TournamentValidateResponseSchema,
} from '../../../../engine/contract/tournament.js';
import type { ArenaClient } from '../../arena-client/client.js';

const nullableNumber = z.number().nullable();

/** One row of GET /tournaments/:id/standings (engine/protocols/tournament/stats.ts StandingRow). */
export const StandingRowSchema = z.object({
  rank: z.number().int(),
  rank_range: z.tuple([z.number(), z.number()]),
  agent: z.string(),
  games: z.number().int(),
  wins: z.number().int(),
  draws: z.number().int(),
  losses: z.number().int(),
  points: z.number(),
  score_pct: nullableNumber,
  rating: nullableNumber,
  rating_lower: nullableNumber,
  rating_upper: nullableNumber,
});
export type StandingRow = z.infer<typeof StandingRowSchema>;

export const SprtStateSchema = z.object({
  llr: z.number(),
  lower: z.number(),
  upper: z.number(),
  decision: z.string(),
});
export type SprtState = z.infer<typeof SprtStateSchema>;

export const StandingsResponseSchema = z.object({
  id: z.string(),
  status: z.string(),
  standings: z.object({ combined: z.array(StandingRowSchema), per_challenge: z.record(z.string(), z.array(StandingRowSchema)) }),
  sprt: SprtStateSchema.nullable(),
  terminations: z.record(z.string(), z.number()),
});
export type StandingsResponse = z.infer<typeof StandingsResponseSchema>;

/** One game of GET /tournaments/:id/games (the stored row, camelCase, plus the agents in seat order). */
export const GameRowSchema = z.object({
  gameIndex: z.number().int(),
  attempt: z.number().int(),
  challenge: z.string(),
  seat_agents: z.array(z.string()),
  termination: z.string(),
  fault: z.string(),
  placements: z.array(z.number()).nullable(),
  startedAt: z.number(),
  endedAt: z.number(),
});
export type GameRow = z.infer<typeof GameRowSchema>;
export const GamesResponseSchema = z.object({ games: z.array(GameRowSchema), total: z.number().int() });

export const ListResponseSchema = z.object({ tournaments: z.array(TournamentSummarySchema), total: z.number().int() });

/** report.json carries the definition as it was submitted; the builder's "start from this one" reads it. */
const ReportSpecSchema = z.object({ spec: z.record(z.string(), z.unknown()) });

export type TournamentAction = 'start' | 'pause' | 'resume' | 'cancel';

const base = `${ADMIN_PREFIX}/tournaments`;
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
const admin = (signal?: AbortSignal) => ({ admin: true, signal });

export function tournamentsApi(client: ArenaClient) {
  return {
    list: (signal?: AbortSignal) => client.call(ListResponseSchema, `${base}?limit=200`, admin(signal)),
    summary: (id: string, signal?: AbortSignal): Promise<TournamentSummary> => client.call(TournamentSummarySchema, one(id), admin(signal)),
    catalog: (signal?: AbortSignal): Promise<TournamentCatalogResponse> =>
      client.call(TournamentCatalogResponseSchema, `${base}/catalog`, admin(signal)),
    agents: (signal?: AbortSignal): Promise<AgentCatalogResponse> =>
      client.call(AgentCatalogResponseSchema, `${ADMIN_PREFIX}/agents`, admin(signal)),
    validate: (spec: Record<string, unknown>, baseDir: string | undefined, signal?: AbortSignal): Promise<TournamentValidateResponse> =>
      client.call(TournamentValidateResponseSchema, `${base}/validate`, {
        method: 'POST',
        body: { spec, ...(baseDir ? { base_dir: baseDir } : {}), start: false },
        admin: true,
        signal,
      }),
    create: (spec: Record<string, unknown>, baseDir: string | undefined): Promise<TournamentSummary> =>
      client.call(TournamentSummarySchema, base, {
        method: 'POST',
        body: { spec, ...(baseDir ? { base_dir: baseDir } : {}), start: true },
        admin: true,
      }),
    act: (id: string, action: TournamentAction): Promise<TournamentSummary> =>
      client.call(TournamentSummarySchema, `${one(id)}/${action}`, { method: 'POST', body: {}, admin: true }),
    standings: (id: string, signal?: AbortSignal): Promise<StandingsResponse> =>
      client.call(StandingsResponseSchema, `${one(id)}/standings`, admin(signal)),
    recentGames: async (id: string, limit: number, signal?: AbortSignal): Promise<GameRow[]> => {
      // The list is in play order; the newest page is at the end.
      const first = await client.call(GamesResponseSchema, `${one(id)}/games?limit=1`, admin(signal));
      const offset = Math.max(0, first.total - limit);
      const page = await client.call(GamesResponseSchema, `${one(id)}/games?limit=${limit}&offset=${offset}`, admin(signal));
      return page.games.slice().reverse();
    },
    running: async (id: string, signal?: AbortSignal): Promise<RunningGame[]> =>
      (await client.call(RunningGamesResponseSchema, `${one(id)}/running`, admin(signal))).games,
    charts: (id: string, signal?: AbortSignal): Promise<TournamentChartsResponse> =>
      client.call(TournamentChartsResponseSchema, `${one(id)}/charts`, admin(signal)),
    submittedSpec: async (id: string, signal?: AbortSignal): Promise<Record<string, unknown>> =>
      (await client.call(ReportSpecSchema, `${one(id)}/exports/report.json`, admin(signal))).spec,
    eventsPath: (id: string) => `${one(id)}/events`,
  };
}

export type TournamentsApi = ReturnType<typeof tournamentsApi>;
