// The tournaments list as a library and one game on its own (issue 16), over real HTTP against a real engine playing
// real PSI games on a real SQLite file: search/filter/archive/delete (with its reports), single-game export (JSON and
// JSONL), "re-run this game" as a one-game run with the same seed and seats, the duration estimate, and bad input.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { z } from 'zod';
import {
  TournamentDeleteResponseSchema,
  TournamentGameDetailResponseSchema,
  TournamentListResponseSchema,
  TournamentSummarySchema,
  TournamentValidateResponseSchema,
} from '../../../engine/contract/tournament.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PSI = path.join(ROOT, 'challenges/psi/agents');

let server: TestServer;
let admin: AdminTestServer['admin'];
let auth: AdminTestServer['auth'];

const psiSpec = (name: string, over: Record<string, unknown> = {}) => ({
  name,
  challenge: 'psi',
  format: 'round-robin',
  games_per_pairing: 2,
  concurrency: 1,
  seed: `lib-${name}`,
  agents: [
    { manifest: path.join(PSI, 'honest-exact/agent.yaml'), id: 'honest' },
    { manifest: path.join(PSI, 'greedy-overclaim/agent.yaml'), id: 'greedy' },
  ],
  limits: { move_seconds: 10, game_seconds: 30 },
  ...over,
});

function parsed<S extends z.ZodTypeAny>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(`contract drift: ${JSON.stringify(result.error.issues.slice(0, 3))}`);
  return result.data;
}

async function create(name: string, start = false): Promise<string> {
  const res = await admin.post('/tournaments', { spec: psiSpec(name), start }, auth);
  expect(res.status, res.text).toBe(200);
  return parsed(TournamentSummarySchema, res.body).id;
}

async function finish(id: string): Promise<void> {
  await admin.post(`/tournaments/${id}/start`, {}, auth);
  await server.engine.tournaments.settled(id);
  expect(server.engine.tournaments.summary(id).status).toBe('finished');
}

const list = async (query: Record<string, string>) => {
  const res = await admin.get('/tournaments', { ...auth, query });
  expect(res.status, res.text).toBe(200);
  return parsed(TournamentListResponseSchema, res.body);
};

let played: string;

beforeAll(async () => {
  ({ server, admin, auth } = await startAdminTestServer());
  played = await create('Played PSI');
  await finish(played);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('tournaments list: search, status filter, archive', () => {
  it('finds runs by part of the name or id, case-insensitively, and filters by status', async () => {
    const other = await create('Another study');
    expect((await list({ q: 'played psi' })).tournaments.map((t) => t.id)).toEqual([played]);
    expect((await list({ q: other.slice(-6) })).tournaments.map((t) => t.id)).toEqual([other]);
    // LIKE wildcards are taken literally.
    expect((await list({ q: '%' })).total).toBe(0);
    expect((await list({ status: 'finished' })).tournaments.map((t) => t.id)).toEqual([played]);
    expect((await list({ status: 'paused' })).tournaments.map((t) => t.id)).toContain(other);
  });

  it('archives a run out of the default list and restores it', async () => {
    const id = await create('To archive');
    const res = await admin.post(`/tournaments/${id}/archive`, { archived: true }, auth);
    expect(res.status, res.text).toBe(200);
    expect(parsed(TournamentSummarySchema, res.body).archived_at).toBeGreaterThan(0);
    expect((await list({})).tournaments.map((t) => t.id)).not.toContain(id);
    expect((await list({ archived: 'only' })).tournaments.map((t) => t.id)).toEqual([id]);
    expect((await list({ archived: 'include' })).tournaments.map((t) => t.id)).toContain(id);
    const back = await admin.post(`/tournaments/${id}/archive`, { archived: false }, auth);
    expect(parsed(TournamentSummarySchema, back.body).archived_at).toBeNull();
    expect((await list({})).tournaments.map((t) => t.id)).toContain(id);
  });

  it('answers bad list and archive input with 4xx and a message', async () => {
    for (const query of [{ status: 'sleeping' }, { archived: 'maybe' }, { limit: '0' }, { q: 'x'.repeat(201) }]) {
      const res = await admin.get<{ error: string }>('/tournaments', { ...auth, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error).toMatch(/Invalid query/);
    }
    expect((await admin.post(`/tournaments/${played}/archive`, { archived: 'yes' }, auth)).status).toBe(400);
    expect((await admin.post(`/tournaments/${played}/archive`, {}, auth)).status).toBe(400);
    expect((await admin.post('/tournaments/t-nope/archive', { archived: true }, auth)).status).toBe(404);
    expect((await admin.post(`/tournaments/${played}/archive`, { archived: true })).status).toBe(401);
  });
});

describe('delete', () => {
  it('removes the run, its games and its report folder', async () => {
    const id = await create('To delete');
    await finish(id);
    const reports = path.join(server.dataDir, 'reports', id);
    expect(fs.existsSync(path.join(reports, 'report.json'))).toBe(true);
    expect((await admin.request('DELETE', `/tournaments/${id}`)).status).toBe(401);
    const res = await admin.request('DELETE', `/tournaments/${id}`, auth);
    expect(res.status, res.text).toBe(200);
    expect(parsed(TournamentDeleteResponseSchema, res.body)).toEqual({ deleted: id, reports_removed: true });
    expect(fs.existsSync(reports)).toBe(false);
    expect((await admin.get(`/tournaments/${id}`, auth)).status).toBe(404);
    expect((await admin.get(`/tournaments/${id}/games/0`, auth)).status).toBe(404);
    expect(server.engine.store.tournaments.games(id)).toEqual([]);
    expect((await admin.request('DELETE', `/tournaments/${id}`, auth)).status).toBe(404);
    // The other runs are untouched.
    expect((await admin.get(`/tournaments/${played}/games/0`, auth)).status).toBe(200);
  });

  it('refuses to delete or archive a running run (409)', async () => {
    const id = await create('Running');
    // start answers once the executor is registered, before its first game ends.
    const started = parsed(TournamentSummarySchema, (await admin.post(`/tournaments/${id}/start`, {}, auth)).body);
    expect(started.active).toBe(true);
    const res = await admin.request<{ error: string }>('DELETE', `/tournaments/${id}`, auth);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/running/);
    expect((await admin.post(`/tournaments/${id}/archive`, { archived: true }, auth)).status).toBe(409);
    await server.engine.tournaments.settled(id);
    expect((await admin.request('DELETE', `/tournaments/${id}`, auth)).status).toBe(200);
  }, 60_000);
});

describe('one game on its own', () => {
  it('exports a game as JSON: its record and transcript, local folders redacted', async () => {
    const res = await admin.get(`/tournaments/${played}/games/1/export`, { ...auth, query: { format: 'json' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${played}-game-1.json"`);
    const doc = res.body as { tournament_id: string; game: { game_index: number; seats: string[]; seed: string }; transcript: unknown[] };
    expect(doc.tournament_id).toBe(played);
    expect(doc.game.game_index).toBe(1);
    expect([...doc.game.seats].sort()).toEqual(['greedy', 'honest']);
    expect(doc.transcript.length).toBeGreaterThan(0);
    expect(res.text).not.toContain(ROOT);
  });

  it('exports a game as JSONL: the manifest line, then the lines events.jsonl has for that game', async () => {
    const res = await admin.get(`/tournaments/${played}/games/0/export`, { ...auth, query: { format: 'jsonl' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; game_index?: number });
    expect(lines[0]?.event).toBe('manifest');
    expect(lines[1]?.event).toBe('game_started');
    expect(lines[lines.length - 1]?.event).toBe('game_ended');
    expect(lines.slice(1).every((l) => l.game_index === 0)).toBe(true);
    const all = fs
      .readFileSync(path.join(server.dataDir, 'reports', played, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const ofGame = all.filter((l) => (JSON.parse(l) as { game_index?: number }).game_index === 0);
    expect(res.text.trim().split('\n').slice(1)).toEqual(ofGame);
  });

  it('re-runs a game as a new one-game run with the same seed, seats and agents', async () => {
    const original = parsed(TournamentGameDetailResponseSchema, (await admin.get(`/tournaments/${played}/games/1`, auth)).body).game;
    const res = await admin.post(`/tournaments/${played}/games/1/rerun`, { start: false }, auth);
    expect(res.status, res.text).toBe(200);
    const rerun = parsed(TournamentSummarySchema, res.body);
    expect(rerun.id).not.toBe(played);
    expect(rerun.planned_games).toBe(1);
    expect(rerun.name).toBe('Played PSI · game 1 again');
    await finish(rerun.id);
    const again = parsed(TournamentGameDetailResponseSchema, (await admin.get(`/tournaments/${rerun.id}/games/0`, auth)).body).game;
    expect(again.seed).toBe(original.seed);
    expect(again.seat_agents).toEqual(original.seat_agents);
    expect(again.challenge).toBe(original.challenge);
    // Deterministic scripted agents on the same opening: the same result.
    expect(again.placements).toEqual(original.placements);
    expect(server.engine.store.tournaments.games(rerun.id)).toHaveLength(1);
  }, 60_000);

  it('answers bad game input with 4xx', async () => {
    for (const p of [`/tournaments/${played}/games/abc/export`, `/tournaments/${played}/games/-1/export`]) {
      const res = await admin.get<{ error: string }>(p, auth);
      expect(res.status, p).toBe(400);
      expect(res.body.error).toMatch(/game index/);
    }
    expect((await admin.get(`/tournaments/${played}/games/0/export`, { ...auth, query: { format: 'xml' } })).status).toBe(400);
    expect((await admin.get(`/tournaments/${played}/games/999/export`, auth)).status).toBe(404);
    expect((await admin.get('/tournaments/t-nope/games/0/export', auth)).status).toBe(404);
    expect((await admin.get(`/tournaments/${played}/games/0/export`)).status).toBe(401);
    expect((await admin.post(`/tournaments/${played}/games/999/rerun`, {}, auth)).status).toBe(404);
    expect((await admin.post(`/tournaments/${played}/games/x/rerun`, {}, auth)).status).toBe(400);
    expect((await admin.post(`/tournaments/${played}/games/0/rerun`, { start: 'now' }, auth)).status).toBe(400);
    expect((await admin.post(`/tournaments/${played}/games/0/rerun`, { start: false, extra: 1 }, auth)).status).toBe(400);
  });
});

describe('duration estimate before Start', () => {
  it('estimates from the measured PSI games and warns about 100,000 games per pairing', async () => {
    const ok = await admin.post('/tournaments/validate', { spec: psiSpec('estimate') }, auth);
    expect(ok.status, ok.text).toBe(200);
    const small = parsed(TournamentValidateResponseSchema, ok.body);
    const psi = small.estimate?.per_challenge.find((p) => p.challenge === 'psi');
    expect(psi?.samples).toBeGreaterThanOrEqual(3);
    expect(psi?.median_ms).toBeGreaterThan(0);
    // honest-exact and greedy-overclaim played the runs above: their own games are the measure.
    expect(psi?.source).toBe('agents');
    expect(small.estimate?.seconds).toBeCloseTo((2 * (psi?.median_ms ?? 0)) / 1000, 6);
    expect(small.estimate?.worst_case_seconds).toBe(2 * 30);
    expect(small.estimate?.warnings).toEqual([]);

    const huge = parsed(
      TournamentValidateResponseSchema,
      (await admin.post('/tournaments/validate', { spec: psiSpec('huge', { games_per_pairing: 100_000, concurrency: 2 }) }, auth)).body,
    );
    expect(huge.planned_games).toBe(100_000);
    expect(huge.estimate?.seconds).toBeCloseTo((100_000 * (psi?.median_ms ?? 0)) / 1000 / 2, 3);
    expect(huge.estimate?.warnings.join(' ')).toMatch(/100,000 games planned \(100,000 per pairing\)/);
  });

  it("measures a pairing that never played by other agents' games of the challenge, and says so", async () => {
    const agents = [
      { manifest: path.join(PSI, 'honest-exact/agent.yaml'), id: 'honest' },
      { manifest: path.join(PSI, 'cautious-minimal/agent.yaml'), id: 'cautious' },
    ];
    const res = await admin.post('/tournaments/validate', { spec: psiSpec('new-pairing', { agents }) }, auth);
    expect(res.status, res.text).toBe(200);
    const psi = parsed(TournamentValidateResponseSchema, res.body).estimate?.per_challenge[0];
    expect(psi?.source).toBe('challenge');
    expect(psi?.median_ms).toBeGreaterThan(0);
  });

  it('says when a challenge has no measured games and gives the worst case', async () => {
    const res = await admin.post('/tournaments/validate', { spec: psiSpec('ultimatum', { challenge: 'ultimatum' }) }, auth);
    expect(res.status, res.text).toBe(200);
    const est = parsed(TournamentValidateResponseSchema, res.body).estimate;
    expect(est?.seconds).toBeNull();
    expect(est?.per_challenge[0]?.source).toBe('limits');
    expect(est?.warnings.join(' ')).toMatch(/No measured games of ultimatum/);
  });

  it('keeps bad definitions a 4xx with no estimate', async () => {
    const res = await admin.post('/tournaments/validate', { spec: psiSpec('bad', { games_per_pairing: 0 }) }, auth);
    expect(res.status).toBe(400);
  });
});

describe('re-running a ClawArena game', () => {
  it('seats the same agents in the same order with the same seed', async () => {
    const created = await admin.post(
      '/tournaments',
      {
        spec: { ...YAML.parse(fs.readFileSync(path.join(ROOT, 'examples/clawarena.tournament.yaml'), 'utf8')), games_per_pairing: 2 },
        base_dir: path.join(ROOT, 'examples'),
        start: false,
      },
      auth,
    );
    expect(created.status, created.text).toBe(200);
    const id = parsed(TournamentSummarySchema, created.body).id;
    await finish(id);
    const original = parsed(TournamentGameDetailResponseSchema, (await admin.get(`/tournaments/${id}/games/1`, auth)).body).game;
    const res = await admin.post(`/tournaments/${id}/games/1/rerun`, { start: false }, auth);
    expect(res.status, res.text).toBe(200);
    const rerun = parsed(TournamentSummarySchema, res.body).id;
    await finish(rerun);
    const again = parsed(TournamentGameDetailResponseSchema, (await admin.get(`/tournaments/${rerun}/games/0`, auth)).body).game;
    expect(again.sessionId).toMatch(/^clawarena:\d+$/);
    expect(again.seed).toBe(original.seed);
    expect(again.seat_agents).toEqual(original.seat_agents);
    expect(again.termination).toBe('completed');
  }, 180_000);
});
