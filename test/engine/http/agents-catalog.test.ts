// Agents page API over real HTTP against a real engine and SQLite: shipped and user folders, every agent.yaml with its
// problems (a broken one never fails the list), folder add/remove rules, and the runs of one agent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCatalogResponseSchema, AgentRunsResponseSchema } from '../../../engine/contract/agent-catalog.js';
import { TournamentStandingsResponseSchema } from '../../../engine/contract/tournament.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';
import { lowerIndexWins, scripted } from '../tournaments/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const HONEST = path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml');
const GREEDY = path.join(ROOT, 'challenges/psi/agents/greedy-overclaim/agent.yaml');
const MAINTAINER = path.join(ROOT, 'examples/agents/maintainer-bot-node/agent.yaml');

let server: TestServer;
let admin: AdminTestServer['admin'];
let auth: AdminTestServer['auth'];
let userDir: string;

const GOOD_AGENT = `id: mine
name: My agent
framework: node
protocol: specarena
entrypoint:
  command: node agent.mjs
challenges: [psi]
secrets: [MY_API_KEY]
`;

beforeAll(async () => {
  ({ server, admin, auth } = await startAdminTestServer());
  userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-agents-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(userDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(userDir, rel), text);
  };
  write('mine/agent.yaml', GOOD_AGENT);
  write('broken/agent.yaml', 'id: [unclosed\n');
  write('incomplete/agent.yaml', 'id: incomplete\nname: x\n');
  write('group/deeper/agent.yaml', GOOD_AGENT.replace('id: mine', 'id: deeper'));
  write('notes.txt', 'not an agent');
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(userDir, { recursive: true, force: true });
});

describe('auth and bad input', () => {
  it('needs the admin token on every route', async () => {
    expect((await admin.get('/agents')).status).toBe(401);
    expect((await admin.post('/agents/folders', { path: userDir })).status).toBe(401);
    expect((await admin.request('DELETE', '/agents/folders/1')).status).toBe(401);
    expect((await admin.post('/agents/folders/1/trust', { trusted: true })).status).toBe(401);
    expect((await admin.get('/agents/runs', { query: { manifest: HONEST } })).status).toBe(401);
  });

  it('400s a folder that is relative, missing, a file or empty', async () => {
    const cases: Array<[unknown, string]> = [
      [{ path: 'relative/agents' }, 'path must be absolute'],
      [{ path: path.join(userDir, 'nope') }, 'no such folder'],
      [{ path: path.join(userDir, 'notes.txt') }, 'not a folder'],
      [{ path: '' }, 'path: path must not be empty'],
      [{}, 'path: Required'],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post<{ error: string }>('/agents/folders', body, auth);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(message);
    }
  });

  it('400s a runs query without an absolute manifest', async () => {
    const missing = await admin.get<{ error: string }>('/agents/runs', auth);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('manifest');
    const relative = await admin.get<{ error: string }>('/agents/runs', { ...auth, query: { manifest: 'agent.yaml' } });
    expect(relative.status).toBe(400);
    expect(relative.body.error).toContain('absolute');
  });
});

describe('the catalog', () => {
  it('lists the shipped folders and their agents, resolved from the package folder', async () => {
    const body = AgentCatalogResponseSchema.parse((await admin.get('/agents', auth)).body);
    const psi = body.folders.find((f) => f.id === 'builtin:challenges/psi/agents');
    expect(psi).toMatchObject({ builtin: true, exists: true, added_at: null, path: path.join(ROOT, 'challenges/psi/agents') });
    for (const id of ['builtin:agents', 'builtin:examples/agents']) expect(body.folders.map((f) => f.id)).toContain(id);
    const honest = body.agents.find((a) => a.manifest_path === HONEST);
    expect(honest).toMatchObject({ ok: true, id: 'honest-exact', protocols: ['specarena'], folder_id: 'builtin:challenges/psi/agents' });
    // Three levels down from agents/: the model-agent examples, with the names of their secrets only.
    const anthropic = body.agents.find((a) => a.manifest_path.endsWith(path.join('anthropic-psi', 'agent.yaml')));
    expect(anthropic?.secrets.length).toBeGreaterThan(0);
    expect(body.agents.find((a) => a.id === 'maintainer-bot-node')?.scenarios).toEqual(['github-maintainer-dungeon']);
    expect(body.agents.every((a) => a.ok)).toBe(true);
  });

  it('adds a user folder: broken manifests are entries with problems; duplicates are 409', async () => {
    const res = await admin.post('/agents/folders', { path: userDir }, auth);
    expect(res.status).toBe(200);
    const body = AgentCatalogResponseSchema.parse(res.body);
    const folder = body.folders.find((f) => f.path === userDir);
    expect(folder).toMatchObject({ builtin: false, exists: true });
    expect(folder?.added_at).toBeGreaterThan(0);
    const mine = body.agents.filter((a) => a.folder_id === folder?.id);
    expect(mine.map((a) => path.relative(userDir, a.dir)).sort()).toEqual(['broken', 'group/deeper', 'incomplete', 'mine']);
    const broken = mine.find((a) => a.dir.endsWith('broken'));
    expect(broken).toMatchObject({ ok: false, id: null });
    expect(broken?.problems.length).toBeGreaterThan(0);
    const incomplete = mine.find((a) => a.dir.endsWith('incomplete'));
    expect(incomplete?.ok).toBe(false);
    expect(incomplete?.problems.join('\n')).toContain('framework');
    expect(mine.find((a) => a.id === 'mine')).toMatchObject({ ok: true, secrets: ['MY_API_KEY'], challenges: ['psi'] });

    const again = await admin.post<{ error: string }>('/agents/folders', { path: `${userDir}/` }, auth);
    expect(again.status).toBe(409);
    const shipped = await admin.post<{ error: string }>('/agents/folders', { path: path.join(ROOT, 'examples/agents') }, auth);
    expect(shipped.status).toBe(409);
    expect(shipped.body.error).toContain('shipped with the app');
  });

  it('keeps a folder that went missing, marked as such, and removes it on request', async () => {
    const gone = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-gone-'));
    const added = AgentCatalogResponseSchema.parse((await admin.post('/agents/folders', { path: gone }, auth)).body);
    const id = added.folders.find((f) => f.path === gone)?.id as string;
    fs.rmSync(gone, { recursive: true });
    const listed = AgentCatalogResponseSchema.parse((await admin.get('/agents', auth)).body);
    expect(listed.folders.find((f) => f.id === id)?.exists).toBe(false);
    const removed = await admin.request('DELETE', `/agents/folders/${id}`, auth);
    expect(removed.status).toBe(200);
    expect(AgentCatalogResponseSchema.parse(removed.body).folders.map((f) => f.id)).not.toContain(id);
    const twice = await admin.request<{ error: string }>('DELETE', `/agents/folders/${id}`, auth);
    expect(twice.status).toBe(404);
    expect((await admin.request('DELETE', '/agents/folders/abc', auth)).status).toBe(404);
    const builtin = await admin.request<{ error: string }>(
      'DELETE',
      `/agents/folders/${encodeURIComponent('builtin:examples/agents')}`,
      auth,
    );
    expect(builtin.status).toBe(400);
    expect(builtin.body.error).toContain('cannot be removed');
  });
});

describe('the trust switch', () => {
  it('marks a user folder trusted: its agents then run without the OS sandbox, and games record it', async () => {
    // Millionaire baselines with the kit they import, copied so the folder is the user's own.
    const trustedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-trusted-agents-'));
    fs.cpSync(path.join(ROOT, 'challenges/millionaire/agents'), path.join(trustedDir, 'millionaire/agents'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'challenges/kit'), path.join(trustedDir, 'kit'), { recursive: true });
    try {
      const added = AgentCatalogResponseSchema.parse((await admin.post('/agents/folders', { path: trustedDir }, auth)).body);
      const folder = added.folders.find((f) => f.path === trustedDir);
      expect(folder?.trusted).toBe(false);
      const on = await admin.post(`/agents/folders/${folder?.id}/trust`, { trusted: true }, auth);
      expect(on.status, on.text).toBe(200);
      expect(AgentCatalogResponseSchema.parse(on.body).folders.find((f) => f.id === folder?.id)?.trusted).toBe(true);
      expect(
        (await admin.post(`/agents/folders/${encodeURIComponent('builtin:examples/agents')}/trust`, { trusted: true }, auth)).status,
      ).toBe(400);
      expect((await admin.post('/agents/folders/999/trust', { trusted: true }, auth)).status).toBe(404);
      expect((await admin.post(`/agents/folders/${folder?.id}/trust`, { trusted: 'yes' }, auth)).status).toBe(400);

      const spec = {
        name: 'trusted',
        challenge: 'millionaire',
        format: 'round-robin',
        games_per_pairing: 1,
        seed: 'trust-1',
        limits: { move_seconds: 10, game_seconds: 30 },
        agents: [
          { manifest: path.join(trustedDir, 'millionaire/agents/truthful'), id: 'truthful' },
          { manifest: path.join(trustedDir, 'millionaire/agents/bluffer'), id: 'bluffer' },
        ],
      };
      const created = await admin.post<{ id: string }>('/tournaments', { spec, base_dir: ROOT, start: false }, auth);
      expect(created.status, created.text).toBe(200);
      await server.engine.tournaments.start(created.body.id);
      const games = server.engine.store.tournaments.games(created.body.id);
      expect(games.map((g) => g.termination)).toEqual(['completed']);
      expect(games[0]?.isolation?.map((i) => [i.method, i.trusted])).toEqual([
        ['none', true],
        ['none', true],
      ]);
      expect(server.engine.store.tournaments.get(created.body.id)?.manifest.unsandboxed_agents).toEqual(['truthful', 'bluffer']);
      // Switched off again, the folder is sandboxed: the kit next to the agents is outside what the sandbox shows.
      await admin.post(`/agents/folders/${folder?.id}/trust`, { trusted: false }, auth);
      const again = await admin.post<{ id: string }>('/tournaments', { spec, base_dir: ROOT, start: false }, auth);
      await server.engine.tournaments.start(again.body.id);
      const sandboxed = server.engine.store.tournaments.games(again.body.id)[0];
      expect(sandboxed?.isolation?.[0]).toMatchObject({ method: 'bubblewrap', trusted: false });
      expect(sandboxed?.termination).toBe('agent_crash');
    } finally {
      fs.rmSync(trustedDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("an agent's runs", () => {
  it('lists the tournaments that used the manifest with the standings games and points', async () => {
    server.engine.tournaments.overrides.runners = scripted(lowerIndexWins);
    const spec = {
      name: 'runs',
      challenge: 'psi',
      format: 'round-robin',
      games_per_pairing: 4,
      seed: 3,
      limits: { move_seconds: 5, game_seconds: 20 },
      // A relative path and a different id: matched by the resolved manifest, reported under the tournament's id.
      agents: [
        { manifest: 'challenges/psi/agents/honest-exact', id: 'h' },
        { manifest: GREEDY, id: 'g' },
      ],
    };
    const created = await admin.post<{ id: string }>('/tournaments', { spec, base_dir: ROOT, start: false }, auth);
    expect(created.status, created.text).toBe(200);
    await server.engine.tournaments.start(created.body.id);
    const standings = TournamentStandingsResponseSchema.parse((await admin.get(`/tournaments/${created.body.id}/standings`, auth)).body);
    const row = standings.standings.combined.find((r) => r.agent === 'h');
    const runs = AgentRunsResponseSchema.parse((await admin.get('/agents/runs', { ...auth, query: { manifest: HONEST } })).body).runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ kind: 'tournament', tournament_id: created.body.id, agent_id: 'h', status: 'finished' });
    expect(runs[0]).toMatchObject({ games: row?.games, points: row?.points });
    expect(row?.games).toBe(4);
    const none = AgentRunsResponseSchema.parse(
      (await admin.get('/agents/runs', { ...auth, query: { manifest: path.join(userDir, 'mine/agent.yaml') } })).body,
    );
    expect(none.runs).toEqual([]);
  });

  it('lists the governance matches whose agents included it', async () => {
    const start = await admin.post<{ match_id: string }>(
      '/governance/matches',
      { scenario: 'github-maintainer-dungeon', agents: [MAINTAINER, MAINTAINER.replace('maintainer-bot-node', 'malicious-bot-node')] },
      auth,
    );
    expect(start.status).toBe(200);
    const deadline = Date.now() + 90_000;
    while ((await admin.get(`/governance/matches/${start.body.match_id}`, auth)).status === 404) {
      if (Date.now() > deadline) throw new Error('match did not finish');
      await new Promise((r) => setTimeout(r, 200));
    }
    const runs = AgentRunsResponseSchema.parse((await admin.get('/agents/runs', { ...auth, query: { manifest: MAINTAINER } })).body).runs;
    expect(runs).toEqual([
      expect.objectContaining({ kind: 'governance', match_id: start.body.match_id, agent_id: 'maintainer-bot-node', trials: 5 }),
    ]);
  }, 120_000);
});
