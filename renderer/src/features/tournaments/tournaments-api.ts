// Typed calls to the engine's tournament and agent-catalog routes, built on the one client; every answer is parsed
// with its contract schema.
import { z } from 'zod';
import { ADMIN_PREFIX } from '../../../../engine/contract/admin.js';
import { type AgentCatalogResponse, AgentCatalogResponseSchema } from '../../../../engine/contract/agent-catalog.js';
import { type TournamentModelServersResponse, TournamentModelServersResponseSchema } from '../../../../engine/contract/model-server-use.js';
import {
  type RunningGame,
  RunningGamesResponseSchema,
  type SprtStatusSchema,
  type TournamentCatalogResponse,
  TournamentCatalogResponseSchema,
  type TournamentChartsResponse,
  TournamentChartsResponseSchema,
  type TournamentComparison,
  TournamentComparisonSchema,
  TournamentDeleteResponseSchema,
  type TournamentGame,
  TournamentGamesResponseSchema,
  type TournamentListResponse,
  TournamentListResponseSchema,
  type TournamentStandingsResponse,
  TournamentStandingsResponseSchema,
  type TournamentSummary,
  TournamentSummarySchema,
  type TournamentValidateResponse,
  TournamentValidateResponseSchema,
} from '../../../../engine/contract/tournament.js';
import type { ArenaClient } from '../../arena-client/client.js';

export type {
  RatedGames,
  StandingRow,
  TournamentGame as GameRow,
  TournamentStandingsResponse as StandingsResponse,
} from '../../../../engine/contract/tournament.js';
export type SprtState = z.infer<typeof SprtStatusSchema>;

/** report.json carries the definition as the run manifest holds it (portable manifest paths); "start from this one" reads it. */
const ReportSpecSchema = z.object({ spec: z.record(z.string(), z.unknown()) });

export type TournamentAction = 'start' | 'pause' | 'resume' | 'cancel';

/** The list's search and filters; empty values are left out of the query. */
export interface TournamentListFilter {
  q?: string;
  status?: string;
  archived?: 'exclude' | 'only' | 'include';
}

export function listPath(filter: TournamentListFilter = {}): string {
  const params = new URLSearchParams({ limit: '200' });
  if (filter.q?.trim()) params.set('q', filter.q.trim());
  if (filter.status) params.set('status', filter.status);
  if (filter.archived && filter.archived !== 'exclude') params.set('archived', filter.archived);
  return `${base}?${params.toString()}`;
}

const base = `${ADMIN_PREFIX}/tournaments`;
const compareUrl = (a: string, b: string, format: string) => `${base}/compare?${new URLSearchParams({ a, b, format }).toString()}`;
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
const admin = (signal?: AbortSignal) => ({ admin: true, signal });

export function tournamentsApi(client: ArenaClient) {
  return {
    list: (filter: TournamentListFilter = {}, signal?: AbortSignal): Promise<TournamentListResponse> =>
      client.call(TournamentListResponseSchema, listPath(filter), admin(signal)),
    archive: (id: string, archived: boolean): Promise<TournamentSummary> =>
      client.call(TournamentSummarySchema, `${one(id)}/archive`, { method: 'POST', body: { archived }, admin: true }),
    remove: (id: string) => client.call(TournamentDeleteResponseSchema, one(id), { method: 'DELETE', admin: true }),
    /** One game on its own, as the file the engine writes (JSON or JSONL). */
    gameExport: (id: string, index: number, format: 'json' | 'jsonl'): Promise<string> =>
      client.text(`${one(id)}/games/${index}/export?format=${format}`),
    /** The game played again as a new one-game run (started). */
    rerun: (id: string, index: number): Promise<TournamentSummary> =>
      client.call(TournamentSummarySchema, `${one(id)}/games/${index}/rerun`, { method: 'POST', body: {}, admin: true }),
    compare: (a: string, b: string, signal?: AbortSignal): Promise<TournamentComparison> =>
      client.call(TournamentComparisonSchema, compareUrl(a, b, 'json'), admin(signal)),
    /** The comparison as Markdown or CSV, as `arena compare` writes it. */
    compareText: (a: string, b: string, format: 'md' | 'csv' | 'json'): Promise<string> => client.text(compareUrl(a, b, format)),
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
    standings: (id: string, signal?: AbortSignal): Promise<TournamentStandingsResponse> =>
      client.call(TournamentStandingsResponseSchema, `${one(id)}/standings`, admin(signal)),
    recentGames: async (id: string, limit: number, signal?: AbortSignal): Promise<TournamentGame[]> => {
      // The list is in play order; the newest page is at the end.
      const first = await client.call(TournamentGamesResponseSchema, `${one(id)}/games?limit=1`, admin(signal));
      const offset = Math.max(0, first.total - limit);
      const page = await client.call(TournamentGamesResponseSchema, `${one(id)}/games?limit=${limit}&offset=${offset}`, admin(signal));
      return page.games.slice().reverse();
    },
    running: async (id: string, signal?: AbortSignal): Promise<RunningGame[]> =>
      (await client.call(RunningGamesResponseSchema, `${one(id)}/running`, admin(signal))).games,
    charts: (id: string, signal?: AbortSignal): Promise<TournamentChartsResponse> =>
      client.call(TournamentChartsResponseSchema, `${one(id)}/charts`, admin(signal)),
    /** Each model server's calls, utilisation and queueing so far: the report's figures. */
    modelServers: (id: string, signal?: AbortSignal): Promise<TournamentModelServersResponse> =>
      client.call(TournamentModelServersResponseSchema, `${one(id)}/model-servers`, admin(signal)),
    submittedSpec: async (id: string, signal?: AbortSignal): Promise<Record<string, unknown>> =>
      (await client.call(ReportSpecSchema, `${one(id)}/exports/report.json`, admin(signal))).spec,
    eventsPath: (id: string) => `${one(id)}/events`,
  };
}

export type TournamentsApi = ReturnType<typeof tournamentsApi>;
