// A running ClawArena tournament game over real HTTP: the running list names its match as soon as it exists, and the
// owner-only events route returns its growing event log (the stored timeline's shape) with an `after` cursor; an
// unknown match is 404, no token or a ClawArena agent's token is 401.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ClawMatchEventsResponseSchema } from '../../../engine/contract/clawarena-admin.js';
import { AdminErrorBodySchema } from '../../../engine/contract/errors.js';
import { RunningGamesResponseSchema } from '../../../engine/contract/tournament.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';
import { ROOT } from '../tournaments/helpers.js';

let server: TestServer;
let admin: AdminTestServer['admin'];
let auth: AdminTestServer['auth'];

beforeAll(async () => {
  ({ server, admin, auth } = await startAdminTestServer());
});
afterAll(async () => {
  await server?.close();
});

/** The Node baseline in its own folder, pausing `think` seconds before each move so the game runs for a while. */
function thinkingBaseline(id: string, think: number): string {
  const folder = path.join(server.dataDir, id);
  fs.mkdirSync(folder, { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'agents/clawarena/baseline-node/agent.mjs'), path.join(folder, 'agent.mjs'));
  fs.writeFileSync(
    path.join(folder, 'agent.yaml'),
    `id: ${id}\nname: ${id}\nframework: node\nentrypoint:\n  command: ["node", "agent.mjs", "--think", "${think}"]\nprotocol: clawarena\nchallenges: [liars_dice]\n`,
  );
  return path.join(folder, 'agent.yaml');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('follows a running liars_dice game: the match id at once, then growing events with an after cursor', async () => {
  const t = server.engine.tournaments.create(
    {
      name: 'live claw',
      challenge: 'liars_dice',
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: 'live-claw',
      agents: [
        { manifest: thinkingBaseline('slow-a', 0.4), id: 'slow-a' },
        { manifest: thinkingBaseline('slow-b', 0.4), id: 'slow-b' },
      ],
      stop: { kind: 'fixed' },
      limits: { move_seconds: 10, game_seconds: 40 },
    },
    '/',
  );
  const finished = server.engine.tournaments.start(t.id);

  let sessionId: string | null = null;
  for (let i = 0; i < 200 && !sessionId; i++) {
    const running = RunningGamesResponseSchema.parse((await admin.get(`/tournaments/${t.id}/running`, auth)).body);
    sessionId = running.games[0]?.session_id ?? null;
    if (!sessionId) await sleep(50);
  }
  expect(sessionId).toMatch(/^clawarena:\d+$/);
  const matchId = Number(sessionId?.slice('clawarena:'.length));

  // Poll with the cursor while the game runs: each answer holds only what came after the last one.
  const seen: number[] = [];
  const counts: number[] = [];
  let after = 0;
  let status = 'pending';
  for (let i = 0; i < 400 && status !== 'finished'; i++) {
    const res = await admin.get(`/clawarena/matches/${matchId}/events`, { ...auth, query: { after } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = ClawMatchEventsResponseSchema.parse(res.body);
    status = body.status;
    for (const e of body.events) seen.push(e.index);
    if (body.events.length > 0 && status !== 'finished') counts.push(body.next);
    expect(body.next).toBe(after + body.events.length);
    after = body.next;
    await sleep(100);
  }
  expect(status).toBe('finished');
  // Events arrived over several polls before the end: the log grew while the game was being played.
  expect(new Set(counts).size).toBeGreaterThanOrEqual(2);
  expect(seen).toEqual(seen.map((_, i) => i));

  await finished;
  const [game] = server.engine.store.tournaments.games(t.id);
  expect(game?.sessionId).toBe(sessionId);
  // The same entries the stored game's timeline holds.
  const full = ClawMatchEventsResponseSchema.parse((await admin.get(`/clawarena/matches/${matchId}/events`, auth)).body);
  const stored = (await admin.get(`/tournaments/${t.id}/games/0`, auth)).body as { transcript: unknown[] };
  expect(full.events).toEqual(stored.transcript.filter((e) => (e as { channel: string }).channel === 'match'));
  expect(full.events.at(-1)?.content).toBe('match_finished');
  expect(full.next).toBe(full.events.length);
}, 60_000);

it('answers 404 for an unknown match, 400 for a bad cursor and 401 without the admin token', async () => {
  const unknown = await admin.get('/clawarena/matches/999999/events', auth);
  expect(unknown.status).toBe(404);
  expect(AdminErrorBodySchema.parse(unknown.body)).toMatchObject({ kind: 'not_found', error: 'No ClawArena match 999999' });
  expect((await admin.get('/clawarena/matches/abc/events', auth)).status).toBe(404);
  expect((await admin.get('/clawarena/matches/1/events', { ...auth, query: { after: -1 } })).status).toBe(400);
  expect((await admin.get('/clawarena/matches/1/events')).status).toBe(401);
  // A ClawArena agent's own token is no admin token.
  const { agent } = server.engine.clawarena.createAgent({ name: 'peeker' });
  const agentToken = server.engine.clawarena.issueToken(agent.agentId, null);
  expect((await admin.get('/clawarena/matches/1/events', { headers: { authorization: `Bearer ${agentToken}` } })).status).toBe(401);
});
