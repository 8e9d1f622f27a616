// Tournament routes of the admin API (registered inside the admin plugin, so the admin token guards them): create,
// validate, list, start/pause/resume/cancel, standings, games with filters, one game's transcript, exports and an
// SSE feed of the executor's events.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { APP_ORIGIN } from '../../contract/channels.js';
import { DomainError } from '../../contract/errors.js';
import type { TournamentModelServersResponse } from '../../contract/model-server-use.js';
import { type PreflightProblem, preflightMessage } from '../../contract/preflight.js';
import {
  ExportFileSchema,
  GameExportQuerySchema,
  GameIndexSchema,
  GameRerunRequestSchema,
  type RunningGamesResponse,
  TournamentArchiveRequestSchema,
  type TournamentCatalogResponse,
  type TournamentChartsResponse,
  TournamentCompareQuerySchema,
  TournamentCreateRequestSchema,
  type TournamentEvent,
  TournamentGameQuerySchema,
  TournamentGamesQuerySchema,
  TournamentListQuerySchema,
  type TournamentValidateResponse,
  TranscriptEntrySchema,
} from '../../contract/tournament.js';
import { transcriptAsSeat } from '../../core/seat-view.js';
import { comparisonCsv, comparisonMarkdown } from '../../tournaments/compare/compare.js';
import { reportDir } from '../../tournaments/exports/exports.js';
import { archiveTournament, deleteTournament, estimateRun, exportGame, listTournaments, rerunGame } from '../../tournaments/library.js';
import { gameView, ratingsForExport } from '../../tournaments/results/stats.js';
import type { TournamentService } from '../../tournaments/service.js';
import { parseSpecText, readSpecFile } from '../../tournaments/spec-file.js';
import { readAdminBody, readAdminQuery } from '../body.js';
import { openSse } from '../sse.js';

/** Keep-alive of the tournament feed: shorter than SpecArena's 30 s, so a stalled UI connection shows early. */
const TOURNAMENT_PING_MS = 15_000;

export function registerAdminTournamentRoutes(admin: FastifyInstance, tournaments: () => TournamentService | undefined): void {
  const service = (): TournamentService => {
    const s = tournaments();
    if (!s) throw new DomainError('unavailable', 'the tournament service is starting');
    return s;
  };
  registerDefinitionRoutes(admin, service);
  registerResultRoutes(admin, service);
  registerExportRoutes(admin, service);
}

/** Validating, comparing, creating and listing tournaments, and a run's start, resume, pause and cancel. */
function registerDefinitionRoutes(admin: FastifyInstance, service: () => TournamentService): void {
  const definition = (body: unknown): { raw: unknown; specDir: string; start: boolean } => {
    const req = readAdminBody(TournamentCreateRequestSchema, body);
    if ('spec_file' in req) return { ...readSpecFile(req.spec_file), start: req.start };
    const specDir = path.resolve(req.base_dir ?? process.cwd());
    if ('spec_text' in req) return { raw: parseSpecText(req.spec_text, 'spec_text'), specDir, start: req.start };
    return { raw: req.spec, specDir, start: req.start };
  };

  admin.post('/tournaments/validate', async (req): Promise<TournamentValidateResponse> => {
    const { raw, specDir } = definition(req.body);
    const s = service();
    const loaded = s.validate(raw, specDir);
    return {
      ok: true,
      name: loaded.spec.name,
      agents: loaded.agents.map((a) => a.id),
      challenges: loaded.spec.challenges,
      planned_games: loaded.planned.count,
      planned_exact: loaded.planned.exact,
      estimate: estimateRun(
        s,
        loaded.spec,
        loaded.planned.count,
        loaded.agents.map((a) => a.manifest.id),
      ),
      // Valid, yet it may not start on this machine: the builder shows these before Start.
      preflight: await s.preflight(loaded.agents),
    };
  });

  admin.get('/tournaments/compare', async (req, reply) => {
    const q = readAdminQuery(TournamentCompareQuerySchema, req.query);
    const comparison = await service().compare(q.a, q.b);
    if (q.format === 'md') return reply.type('text/markdown; charset=utf-8').send(comparisonMarkdown(comparison));
    if (q.format === 'csv') return reply.type('text/csv; charset=utf-8').send(comparisonCsv(comparison));
    return comparison;
  });

  // Registered before /tournaments/:id (find-my-way prefers static segments anyway; the order keeps that obvious).
  admin.get('/tournaments/catalog', async (): Promise<TournamentCatalogResponse> => service().catalog(process.cwd()));

  admin.post('/tournaments', async (req) => {
    const { raw, specDir, start } = definition(req.body);
    const s = service();
    const { agents } = s.validate(raw, specDir);
    if (start) refuseUnready(await s.preflight(agents));
    // The model builds the servers serve now go into the run manifest, so the report says which played.
    const created = s.create(raw, specDir, undefined, await s.modelBuilds(agents));
    if (start) void s.start(created.id).catch(() => {});
    return s.summary(created.id);
  });

  admin.get('/tournaments', async (req) => {
    const q = readAdminQuery(TournamentListQuerySchema, req.query);
    return listTournaments(service(), q);
  });

  admin.post<{ Params: { id: string } }>('/tournaments/:id/archive', async (req) => {
    const body = readAdminBody(TournamentArchiveRequestSchema, req.body);
    return archiveTournament(service(), req.params.id, body.archived, Date.now());
  });

  admin.delete<{ Params: { id: string } }>('/tournaments/:id', async (req) => deleteTournament(service(), req.params.id));

  admin.get<{ Params: { id: string } }>('/tournaments/:id', async (req) => service().summary(req.params.id));

  for (const action of ['start', 'resume'] as const) {
    admin.post<{ Params: { id: string } }>(`/tournaments/:id/${action}`, async (req) => {
      const s = service();
      refuseUnready(await s.preflightRun(req.params.id));
      void s.start(req.params.id).catch(() => {});
      return s.summary(req.params.id);
    });
  }
  admin.post<{ Params: { id: string } }>('/tournaments/:id/pause', async (req) => {
    const s = service();
    s.pause(req.params.id);
    return s.summary(req.params.id);
  });
  admin.post<{ Params: { id: string } }>('/tournaments/:id/cancel', async (req) => {
    const s = service();
    s.cancel(req.params.id);
    return s.summary(req.params.id);
  });
}

/** A run's standings, charts, running and played games, and a game's export and rerun. */
function registerResultRoutes(admin: FastifyInstance, service: () => TournamentService): void {
  const agentIds = (id: string): string[] => service().agentIds(id);

  admin.get<{ Params: { id: string } }>('/tournaments/:id/standings', async (req) => {
    const { tournament, stats } = service().statistics(req.params.id);
    return {
      id: tournament.id,
      status: tournament.status,
      standings: stats.standings,
      sprt: stats.sprt,
      terminations: stats.terminations,
      rated_games: stats.rated_games,
      warnings: stats.warnings,
      ratings: ratingsForExport(stats.ratings),
    };
  });

  admin.get<{ Params: { id: string } }>(
    '/tournaments/:id/running',
    async (req): Promise<RunningGamesResponse> => ({ games: service().running(req.params.id) }),
  );

  admin.get<{ Params: { id: string } }>(
    '/tournaments/:id/model-servers',
    async (req): Promise<TournamentModelServersResponse> => service().modelServers(req.params.id),
  );

  admin.get<{ Params: { id: string } }>(
    '/tournaments/:id/charts',
    async (req): Promise<TournamentChartsResponse> => service().charts(req.params.id),
  );

  admin.get<{ Params: { id: string } }>('/tournaments/:id/games', async (req) => {
    const q = readAdminQuery(TournamentGamesQuerySchema, req.query);
    const ids = agentIds(req.params.id);
    const agent = q.agent === undefined ? undefined : ids.indexOf(q.agent);
    if (agent === -1) {
      const message = `no agent ${q.agent} in this tournament`;
      throw new DomainError('invalid', message, { issues: [{ path: 'agent', message }] });
    }
    const page = service().store.tournaments.listGames(req.params.id, {
      ...(q.challenge === undefined ? {} : { challenge: q.challenge }),
      ...(q.termination === undefined ? {} : { termination: q.termination }),
      ...(agent === undefined ? {} : { agent }),
      finalOnly: q.all_attempts !== 'true',
      limit: q.limit,
      offset: q.offset,
    });
    return { games: page.items.map((g) => gameView(g, ids)), total: page.total };
  });

  admin.get<{ Params: { id: string; index: string } }>('/tournaments/:id/games/:index', async (req) => {
    const { seat } = readAdminQuery(TournamentGameQuerySchema, req.query);
    const ids = agentIds(req.params.id);
    const game = service().store.tournaments.game(req.params.id, Number(req.params.index));
    if (!game) throw new DomainError('not_found', `No game ${req.params.index} in tournament ${req.params.id}`);
    const view = gameView(game, ids);
    const transcript = service().store.tournaments.transcript(req.params.id, game.seq);
    if (seat === undefined) return { game: view, transcript };
    if (seat >= view.seat_agents.length) {
      const message = `seat must be 0 to ${view.seat_agents.length - 1} (this game has ${view.seat_agents.length} seats), got ${seat}`;
      throw new DomainError('invalid', message, { issues: [{ path: 'seat', message }] });
    }
    // Read through the contract, so a field the seat view does not know is dropped rather than passed on unfiltered.
    return { game: view, transcript: transcriptAsSeat(TranscriptEntrySchema.array().parse(transcript), seat), seat };
  });

  admin.get<{ Params: { id: string; index: string } }>('/tournaments/:id/games/:index/export', async (req, reply) => {
    const q = readAdminQuery(GameExportQuerySchema, req.query);
    const file = exportGame(service(), req.params.id, gameIndex(req.params.index), q.format);
    return reply.type(file.type).header('Content-Disposition', `attachment; filename="${file.filename}"`).send(file.body);
  });

  admin.post<{ Params: { id: string; index: string } }>('/tournaments/:id/games/:index/rerun', async (req) => {
    const body = readAdminBody(GameRerunRequestSchema, req.body ?? {});
    return rerunGame(service(), req.params.id, gameIndex(req.params.index), body.start);
  });
}

function gameIndex(raw: string): number {
  const parsed = GameIndexSchema.safeParse(raw);
  if (!parsed.success) {
    const message = `game index must be a whole number ≥ 0, got '${raw}'`;
    throw new DomainError('invalid', message, { issues: [{ path: 'index', message }] });
  }
  return parsed.data;
}

/** The report files (written at the end, or a fresh snapshot of a running run) and the live event feed. */
function registerExportRoutes(admin: FastifyInstance, service: () => TournamentService): void {
  admin.post<{ Params: { id: string } }>('/tournaments/:id/exports', async (req) => {
    const dir = await service().exportReports(req.params.id);
    return { report_dir: dir, files: fs.readdirSync(dir).sort() };
  });

  admin.get<{ Params: { id: string; file: string } }>('/tournaments/:id/exports/:file', async (req, reply) => {
    const file = ExportFileSchema.safeParse(req.params.file);
    if (!file.success) throw new DomainError('not_found', `No export ${req.params.file}`);
    const s = service();
    s.get(req.params.id);
    const target = path.join(reportDir(s.dataDir, req.params.id), file.data);
    // Exports are written when a run finishes; a running one gets a fresh snapshot.
    if (!fs.existsSync(target)) await s.exportReports(req.params.id);
    const type = file.data.endsWith('.json')
      ? 'application/json'
      : file.data.endsWith('.md')
        ? 'text/markdown; charset=utf-8'
        : file.data.endsWith('.csv')
          ? 'text/csv; charset=utf-8'
          : 'application/x-ndjson';
    return reply.type(type).send(fs.readFileSync(target));
  });

  admin.get<{ Params: { id: string } }>('/tournaments/:id/events', async (req, reply) => {
    const s = service();
    const summary = s.summary(req.params.id);
    // The desktop shell's page is the one cross-origin reader (a hijacked reply skips the onRequest CORS header).
    const headers: Record<string, string> = req.headers.origin === APP_ORIGIN ? { 'Access-Control-Allow-Origin': APP_ORIGIN } : {};
    const stream = openSse(req, reply, { pingMs: TOURNAMENT_PING_MS, headers });
    stream.send(summary, { event: 'snapshot' });
    stream.onClose(s.subscribe(req.params.id, (event: TournamentEvent) => stream.send(event, { event: event.event })));
  });
}

/** Preflight problems refuse the start with a 400 naming each agent, endpoint or program, and the fix. */
function refuseUnready(problems: readonly PreflightProblem[]): void {
  if (problems.length === 0) return;
  throw new DomainError('invalid', preflightMessage(problems), {
    issues: problems.map((p) => ({ path: p.agent === null ? '' : `agents.${p.agent}`, message: p.message })),
  });
}
