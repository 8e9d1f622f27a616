// The tournament routes the desktop UI reads, over real HTTP against a real engine playing real PSI games: every
// response is parsed with its contract schema (so the contract cannot drift from the routes), plus the new
// catalog, running-games and charts routes with their bad-input answers.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  RunningGamesResponseSchema,
  TournamentCatalogResponseSchema,
  TournamentChartsResponseSchema,
  type TournamentEvent,
  TournamentEventSchema,
  TournamentGameDetailResponseSchema,
  TournamentGamesResponseSchema,
  TournamentListResponseSchema,
  TournamentStandingsResponseSchema,
  TournamentSummarySchema,
  TournamentValidateResponseSchema,
} from '../../../engine/contract/tournament.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PSI = path.join(ROOT, 'challenges/psi/agents');

let server: TestServer;
let admin: AdminTestServer['admin'];
let auth: AdminTestServer['auth'];

function psiSpec(over: Record<string, unknown> = {}) {
  return {
    name: 'ui routes',
    challenge: 'psi',
    format: 'round-robin',
    games_per_pairing: 2,
    concurrency: 1,
    seed: 'ui-1',
    agents: [
      { manifest: path.join(PSI, 'honest-exact/agent.yaml'), id: 'honest' },
      { manifest: path.join(PSI, 'greedy-overclaim/agent.yaml'), id: 'greedy' },
      { manifest: path.join(PSI, 'cautious-minimal/agent.yaml'), id: 'cautious' },
    ],
    limits: { move_seconds: 10, game_seconds: 30 },
    ...over,
  };
}

/** Parses with the schema and fails the test with zod's message when the route and the contract disagree. */
function parsed<S extends z.ZodTypeAny>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(`contract drift: ${JSON.stringify(result.error.issues.slice(0, 3))}`);
  return result.data;
}

beforeAll(async () => {
  ({ server, admin, auth } = await startAdminTestServer());
});
afterAll(async () => {
  await server?.close();
});

describe('new tournament routes: auth and bad input', () => {
  it('needs the admin token on every new route', async () => {
    for (const p of ['/tournaments/catalog', '/tournaments/x/running', '/tournaments/x/charts'])
      expect((await admin.get(p)).status).toBe(401);
  });

  it('404s an unknown tournament with a message', async () => {
    for (const p of ['/tournaments/t-nope/running', '/tournaments/t-nope/charts']) {
      const res = await admin.get<{ error: string }>(p, auth);
      expect(res.status).toBe(404);
      expect(res.body.error).toContain('no tournament t-nope');
    }
  });
});

describe('catalog', () => {
  it('lists SpecArena challenges and ClawArena games, the formats and the base folder (not taken as an id)', async () => {
    const res = await admin.get('/tournaments/catalog', auth);
    expect(res.status).toBe(200);
    const body = parsed(TournamentCatalogResponseSchema, res.body);
    expect(body.challenges.find((c) => c.id === 'psi')).toMatchObject({
      protocol: 'specarena',
      players: { min: 2, max: 2 },
      // From challenges/psi/challenge.json's arena.defaultOptions; the builder shows them as the options hint.
      default_options: { players: 2, range: [100, 900], intersectionSize: 3, setSize: 10 },
    });
    const mafia = body.challenges.find((c) => c.id === 'mafia');
    expect(mafia?.protocol).toBe('clawarena');
    expect(mafia?.players.min).toBeGreaterThanOrEqual(2);
    expect(mafia?.name.length).toBeGreaterThan(0);
    expect(mafia?.default_options?.players).toBeGreaterThanOrEqual(mafia?.players.min ?? 99);
    expect(body.formats).toEqual(['round-robin', 'gauntlet', 'swiss', 'knockout', 'adaptive']);
    expect(path.isAbsolute(body.base_dir)).toBe(true);
  });
});

describe('a real PSI round-robin through the UI routes', () => {
  let id: string;
  const events: TournamentEvent[] = [];

  it('validate plans the same games create stores', async () => {
    const v = await admin.post('/tournaments/validate', { spec: psiSpec() }, auth);
    expect(v.status).toBe(200);
    const body = parsed(TournamentValidateResponseSchema, v.body);
    // 3 pairings × 2 games.
    expect(body).toMatchObject({ planned_games: 6, planned_exact: true, agents: ['honest', 'greedy', 'cautious'] });
    const swiss = parsed(
      TournamentValidateResponseSchema,
      (await admin.post('/tournaments/validate', { spec: psiSpec({ format: { kind: 'swiss', rounds: 2 } }) }, auth)).body,
    );
    const created = await admin.post('/tournaments', { spec: psiSpec({ format: { kind: 'swiss', rounds: 2 } }), start: false }, auth);
    const stored = parsed(TournamentSummarySchema, created.body);
    expect([stored.planned_games, stored.planned_exact]).toEqual([swiss.planned_games, swiss.planned_exact]);
  });

  it('runs: game_started carries the live session, /running lists it while it plays', async () => {
    const created = await admin.post('/tournaments', { spec: psiSpec(), start: false }, auth);
    expect(created.status).toBe(200);
    id = parsed(TournamentSummarySchema, created.body).id;
    let seenRunning: unknown = null;
    const done = new Promise<void>((resolve) => {
      server.engine.tournaments.subscribe(id, (e) => {
        events.push(parsed(TournamentEventSchema, e));
        if (e.event === 'game_started' && seenRunning === null)
          seenRunning = admin.get(`/tournaments/${id}/running`, auth).then((r) => r.body);
        if (e.event === 'finished' || e.event === 'failed') resolve();
      });
    });
    expect((await admin.post(`/tournaments/${id}/start`, {}, auth)).status).toBe(200);
    await done;
    const started = events.filter((e) => e.event === 'game_started');
    expect(started).toHaveLength(6);
    for (const e of started) expect(e.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const running = parsed(RunningGamesResponseSchema, await seenRunning);
    expect(running.games).toHaveLength(1);
    const first = started[0] as Extract<TournamentEvent, { event: 'game_started' }>;
    expect(running.games[0]).toMatchObject({ game_index: first.game_index, session_id: first.session_id, seats: first.seats });
    // The live session is the one the admin session routes serve.
    expect((await admin.get(`/sessions/${first.session_id}`, auth)).status).toBe(200);
    expect(parsed(RunningGamesResponseSchema, (await admin.get(`/tournaments/${id}/running`, auth)).body).games).toEqual([]);
  }, 120_000);

  it('list, summary, standings, games and one game parse with their schemas', async () => {
    const list = parsed(TournamentListResponseSchema, (await admin.get('/tournaments', auth)).body);
    expect(list.tournaments.map((t) => t.id)).toContain(id);
    const summary = parsed(TournamentSummarySchema, (await admin.get(`/tournaments/${id}`, auth)).body);
    expect(summary).toMatchObject({ status: 'finished', games_done: 6 });
    const standings = parsed(TournamentStandingsResponseSchema, (await admin.get(`/tournaments/${id}/standings`, auth)).body);
    expect(standings.standings.combined).toHaveLength(3);
    expect(standings.standings.combined.reduce((n, r) => n + r.games, 0)).toBe(12);
    const sprt = await admin.post(
      '/tournaments',
      {
        spec: psiSpec({ agents: psiSpec().agents.slice(0, 2), stop: { kind: 'sprt', elo0: 0, elo1: 200, alpha: 0.05, beta: 0.05 } }),
        start: false,
      },
      auth,
    );
    const sprtStandings = parsed(
      TournamentStandingsResponseSchema,
      (await admin.get(`/tournaments/${(sprt.body as { id: string }).id}/standings`, auth)).body,
    );
    expect(sprtStandings.sprt?.decision).toBe('continue');
    const games = parsed(TournamentGamesResponseSchema, (await admin.get(`/tournaments/${id}/games`, auth)).body);
    expect(games.total).toBe(6);
    expect(games.games[0]?.seat_agents).toHaveLength(2);
    const one = parsed(TournamentGameDetailResponseSchema, (await admin.get(`/tournaments/${id}/games/0`, auth)).body);
    expect(one.transcript.length).toBeGreaterThan(0);
    expect(one.game.sessionId).toBe(games.games[0]?.sessionId);
  });

  it('charts: a rating point per settled game and a symmetric pairwise matrix', async () => {
    const res = await admin.get(`/tournaments/${id}/charts`, auth);
    const charts = parsed(TournamentChartsResponseSchema, res.body);
    expect(charts.agents).toEqual(['honest', 'greedy', 'cautious']);
    expect(charts.rating_history).toHaveLength(7);
    expect(charts.rating_history.map((p) => p.games)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // One rating model per page: the trace ends at the standings' Bradley–Terry ratings (mean 1000).
    const last = charts.rating_history[6]?.ratings ?? [];
    const standings = parsed(TournamentStandingsResponseSchema, (await admin.get(`/tournaments/${id}/standings`, auth)).body);
    for (const row of standings.standings.combined) {
      const rating = last[charts.agents.indexOf(row.agent)];
      expect(rating).toBeCloseTo(row.rating ?? Number.NaN, 0);
    }
    expect(last.reduce<number>((a, b) => a + (b ?? 0), 0)).toBeCloseTo(3000, 0);
    for (let i = 0; i < 3; i++) {
      expect(charts.pairwise[i]?.[i]).toBeNull();
      for (let j = 0; j < 3; j++) {
        if (i === j) continue;
        const a = charts.pairwise[i]?.[j];
        const b = charts.pairwise[j]?.[i];
        expect(a?.games).toBe(2);
        expect((a?.score_pct ?? 0) + (b?.score_pct ?? 0)).toBeCloseTo(100);
      }
    }
    const report = fs.existsSync(path.join(server.dataDir, 'reports', id));
    expect(report).toBe(true);
  });
});

describe('a ClawArena tournament through the same routes', () => {
  it('names each running game’s match from its start, and its games and match transcripts parse with the schemas', async () => {
    const created = await admin.post(
      '/tournaments',
      { spec_file: path.join(ROOT, 'examples/clawarena.tournament.yaml'), start: false },
      auth,
    );
    expect(created.status, created.text).toBe(200);
    const id = parsed(TournamentSummarySchema, created.body).id;
    const events: TournamentEvent[] = [];
    const done = new Promise<void>((resolve) => {
      server.engine.tournaments.subscribe(id, (e) => {
        events.push(parsed(TournamentEventSchema, e));
        if (e.event === 'finished' || e.event === 'failed') resolve();
      });
    });
    await admin.post(`/tournaments/${id}/start`, {}, auth);
    await done;
    const started = events.filter((e) => e.event === 'game_started');
    expect(started.length).toBe(4);
    for (const e of started) expect(e.session_id).toMatch(/^clawarena:\d+$/);
    const games = parsed(TournamentGamesResponseSchema, (await admin.get(`/tournaments/${id}/games`, auth)).body);
    expect(games.games[0]?.sessionId).toMatch(/^clawarena:\d+$/);
    // The match followed live is the one the stored game records.
    expect(new Set(started.map((e) => e.session_id))).toEqual(new Set(games.games.map((g) => g.sessionId)));
    const one = parsed(TournamentGameDetailResponseSchema, (await admin.get(`/tournaments/${id}/games/0`, auth)).body);
    expect(one.transcript.some((t) => t.channel === 'match')).toBe(true);
    const charts = parsed(TournamentChartsResponseSchema, (await admin.get(`/tournaments/${id}/charts`, auth)).body);
    expect(charts.rating_history).toHaveLength(5);
  }, 120_000);
});
