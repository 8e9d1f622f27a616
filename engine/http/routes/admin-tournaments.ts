// Tournament routes of the admin API (registered inside the admin plugin, so the admin token guards them): create,
// validate, list, start/pause/resume/cancel, standings, games with filters, one game's transcript, exports and an
// SSE feed of the executor's events.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { EngineErrorCode } from '../../contract/errors.js';
import {
  ExportFileSchema,
  type RunningGamesResponse,
  type TournamentCatalogResponse,
  type TournamentChartsResponse,
  TournamentCreateRequestSchema,
  type TournamentEvent,
  TournamentGamesQuerySchema,
  TournamentListQuerySchema,
  type TournamentValidateResponse,
} from '../../contract/tournament.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { reportDir } from '../../tournaments/exports.js';
import { type TournamentService, TournamentStateError } from '../../tournaments/service.js';
import { parseSpecText, readSpecFile, TournamentSpecError } from '../../tournaments/spec-file.js';
import { gameView, ratingsForExport } from '../../tournaments/stats.js';
import { readBody } from '../body.js';

const SHELL_ORIGIN = 'app://arena';

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof TournamentSpecError) throw new ArenaError(400, error.message, EngineErrorCode.ValidationFailed);
    if (error instanceof TournamentStateError)
      throw new ArenaError(
        /^no tournament/.test(error.message) ? 404 : 409,
        error.message,
        /^no tournament/.test(error.message) ? EngineErrorCode.NotFound : undefined,
      );
    throw error;
  }
}

export function registerAdminTournamentRoutes(admin: FastifyInstance, tournaments: () => TournamentService | undefined): void {
  const service = (): TournamentService => {
    const s = tournaments();
    if (!s) throw new ArenaError(503, 'the tournament service is starting');
    return s;
  };
  const definition = (body: unknown): { raw: unknown; specDir: string; start: boolean } => {
    const req = readBody(TournamentCreateRequestSchema, body);
    if ('spec_file' in req) return { ...wrap(() => readSpecFile(req.spec_file)), start: req.start };
    const specDir = path.resolve(req.base_dir ?? process.cwd());
    if ('spec_text' in req) return { raw: wrap(() => parseSpecText(req.spec_text, 'spec_text')), specDir, start: req.start };
    return { raw: req.spec, specDir, start: req.start };
  };
  const agentIds = (id: string): string[] =>
    wrap(() =>
      service()
        .statistics(id)
        .loaded.agents.map((a) => a.id),
    );

  admin.post('/tournaments/validate', async (req): Promise<TournamentValidateResponse> => {
    const { raw, specDir } = definition(req.body);
    const s = service();
    const loaded = wrap(() => s.validate(raw, specDir));
    return {
      ok: true,
      name: loaded.spec.name,
      agents: loaded.agents.map((a) => a.id),
      challenges: loaded.spec.challenges,
      planned_games: loaded.planned.count,
      planned_exact: loaded.planned.exact,
    };
  });

  // Registered before /tournaments/:id (find-my-way prefers static segments anyway; the order keeps that obvious).
  admin.get('/tournaments/catalog', async (): Promise<TournamentCatalogResponse> => service().catalog(process.cwd()));

  admin.post('/tournaments', async (req) => {
    const { raw, specDir, start } = definition(req.body);
    const s = service();
    const created = wrap(() => s.create(raw, specDir));
    if (start) void s.start(created.id).catch(() => {});
    return s.summary(created.id);
  });

  admin.get('/tournaments', async (req) => {
    const q = TournamentListQuerySchema.safeParse(req.query);
    if (!q.success) throw new ArenaError(400, `Invalid query: ${q.error.issues[0]?.message}`, EngineErrorCode.ValidationFailed);
    return service().list(q.data.limit, q.data.offset);
  });

  admin.get<{ Params: { id: string } }>('/tournaments/:id', async (req) => wrap(() => service().summary(req.params.id)));

  for (const action of ['start', 'resume'] as const) {
    admin.post<{ Params: { id: string } }>(`/tournaments/:id/${action}`, async (req) => {
      const s = service();
      wrap(() => void s.start(req.params.id).catch(() => {}));
      return s.summary(req.params.id);
    });
  }
  admin.post<{ Params: { id: string } }>('/tournaments/:id/pause', async (req) => {
    const s = service();
    wrap(() => s.pause(req.params.id));
    return s.summary(req.params.id);
  });
  admin.post<{ Params: { id: string } }>('/tournaments/:id/cancel', async (req) => {
    const s = service();
    wrap(() => s.cancel(req.params.id));
    return s.summary(req.params.id);
  });

  admin.get<{ Params: { id: string } }>('/tournaments/:id/standings', async (req) => {
    const { tournament, stats } = wrap(() => service().statistics(req.params.id));
    return {
      id: tournament.id,
      status: tournament.status,
      standings: stats.standings,
      sprt: stats.sprt,
      terminations: stats.terminations,
      warnings: stats.warnings,
      ratings: ratingsForExport(stats.ratings),
    };
  });

  admin.get<{ Params: { id: string } }>(
    '/tournaments/:id/running',
    async (req): Promise<RunningGamesResponse> => ({ games: wrap(() => service().running(req.params.id)) }),
  );

  admin.get<{ Params: { id: string } }>(
    '/tournaments/:id/charts',
    async (req): Promise<TournamentChartsResponse> => wrap(() => service().charts(req.params.id)),
  );

  admin.get<{ Params: { id: string } }>('/tournaments/:id/games', async (req) => {
    const q = TournamentGamesQuerySchema.safeParse(req.query);
    if (!q.success) throw new ArenaError(400, `Invalid query: ${q.error.issues[0]?.message}`, EngineErrorCode.ValidationFailed);
    const ids = agentIds(req.params.id);
    const agent = q.data.agent === undefined ? undefined : ids.indexOf(q.data.agent);
    if (agent === -1) throw new ArenaError(400, `no agent ${q.data.agent} in this tournament`, EngineErrorCode.ValidationFailed);
    const page = service().store.tournaments.listGames(req.params.id, {
      ...(q.data.challenge === undefined ? {} : { challenge: q.data.challenge }),
      ...(q.data.termination === undefined ? {} : { termination: q.data.termination }),
      ...(agent === undefined ? {} : { agent }),
      finalOnly: q.data.all_attempts !== 'true',
      limit: q.data.limit,
      offset: q.data.offset,
    });
    return { games: page.items.map((g) => gameView(g, ids)), total: page.total };
  });

  admin.get<{ Params: { id: string; index: string } }>('/tournaments/:id/games/:index', async (req) => {
    const ids = agentIds(req.params.id);
    const game = service().store.tournaments.game(req.params.id, Number(req.params.index));
    if (!game) throw new ArenaError(404, `No game ${req.params.index} in tournament ${req.params.id}`, EngineErrorCode.NotFound);
    return {
      game: gameView(game, ids),
      transcript: service().store.tournaments.transcript(req.params.id, game.seq),
    };
  });

  admin.post<{ Params: { id: string } }>('/tournaments/:id/exports', async (req) => {
    const dir = wrap(() => service().exportReports(req.params.id));
    return { report_dir: dir, files: fs.readdirSync(dir).sort() };
  });

  admin.get<{ Params: { id: string; file: string } }>('/tournaments/:id/exports/:file', async (req, reply) => {
    const file = ExportFileSchema.safeParse(req.params.file);
    if (!file.success) throw new ArenaError(404, `No export ${req.params.file}`, EngineErrorCode.NotFound);
    const s = service();
    wrap(() => s.get(req.params.id));
    const target = path.join(reportDir(s.dataDir, req.params.id), file.data);
    // Exports are written when a run finishes; a running one gets a fresh snapshot.
    if (!fs.existsSync(target)) wrap(() => s.exportReports(req.params.id));
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
    const summary = wrap(() => s.summary(req.params.id));
    const raw = reply.raw;
    reply.hijack();
    const headers: Record<string, string> = {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
    };
    if (req.headers.origin === SHELL_ORIGIN) headers['Access-Control-Allow-Origin'] = SHELL_ORIGIN;
    raw.writeHead(200, headers);
    raw.flushHeaders();
    const write = (event: string, data: unknown) => {
      if (!raw.writableEnded) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    write('snapshot', summary);
    const unsubscribe = s.subscribe(req.params.id, (event: TournamentEvent) => write(event.event, event));
    const ping = setInterval(() => {
      if (!raw.writableEnded) raw.write(': ping\n\n');
    }, 15_000);
    ping.unref();
    req.raw.on('close', () => {
      clearInterval(ping);
      unsubscribe();
      if (!raw.writableEnded) raw.end();
    });
  });
}
