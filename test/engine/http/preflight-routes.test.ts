// Preflight over the admin API, against a real engine and SQLite: the agent catalogue marks an agent whose program
// this machine lacks ("cannot start here: `…` not found"), the builder's validate call returns the problem before
// Start, and starting such a tournament, or one whose model agent's server does not answer, is a 400 naming the
// agent and the program or host:port; nothing is played.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { AgentCatalogResponseSchema } from '../../../engine/contract/agent-catalog.js';
import { TournamentValidateResponseSchema } from '../../../engine/contract/tournament.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const HONEST = path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml');
/** A program no machine has: the test does not depend on what is installed here. */
const MISSING = 'ruby-not-installed-here';

let server: TestServer;
let admin: AdminTestServer['admin'];
let auth: AdminTestServer['auth'];
let userDir: string;
let closedPort: number;

beforeAll(async () => {
  ({ server, admin, auth } = await startAdminTestServer());
  userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-preflight-agents-'));
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const agent = (id: string, manifest: Record<string, unknown>, files: Record<string, string> = {}) => {
    fs.mkdirSync(path.join(userDir, id));
    fs.writeFileSync(
      path.join(userDir, id, 'agent.yaml'),
      YAML.stringify({ id, name: id, framework: 'other', protocol: 'specarena', ...manifest }),
    );
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(userDir, id, name), text);
  };
  agent('rubyist', { entrypoint: { command: [MISSING, 'agent.rb'] } }, { 'agent.rb': 'puts 1\n' });
  agent('noder', { entrypoint: { command: ['node', 'agent.mjs'] } }, { 'agent.mjs': '' });
  agent(
    'model',
    { entrypoint: { command: 'arena-agent model --config model.yaml' }, network: { allow: [`127.0.0.1:${closedPort}`] } },
    { 'model.yaml': YAML.stringify({ provider: 'openai-compatible', base_url: `http://127.0.0.1:${closedPort}/v1`, model: 'm' }) },
  );
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(userDir, { recursive: true, force: true });
});

const spec = (agentId: string) => ({
  name: 'preflight',
  challenge: 'psi',
  format: 'round-robin',
  games_per_pairing: 1,
  seed: 'preflight-1',
  limits: { move_seconds: 5, game_seconds: 20 },
  stop: { kind: 'fixed' },
  agents: [
    { manifest: path.join(userDir, agentId, 'agent.yaml'), id: agentId },
    { manifest: HONEST, id: 'honest' },
  ],
});

describe('preflight over the admin API', () => {
  it('the catalogue marks an agent whose program is missing, and only that one', async () => {
    const res = await admin.post('/agents/folders', { path: userDir }, auth);
    expect(res.status).toBe(200);
    const catalog = AgentCatalogResponseSchema.parse(res.body);
    const byId = (id: string) => catalog.agents.find((a) => a.id === id);
    expect(byId('rubyist')?.cannot_start).toContain(`cannot start here: \`${MISSING}\` not found`);
    expect(byId('noder')?.cannot_start).toBeNull();
    expect(byId('model')?.cannot_start).toBeNull();
    expect(byId('honest-exact')?.cannot_start).toBeNull();
  });

  it('validate returns the problems before Start; start and create-and-start are 400s naming the fix', async () => {
    const valid = await admin.post('/tournaments/validate', { spec: spec('rubyist'), base_dir: userDir }, auth);
    expect(valid.status, JSON.stringify(valid.body)).toBe(200);
    const problems = TournamentValidateResponseSchema.parse(valid.body).preflight ?? [];
    expect(problems).toEqual([expect.objectContaining({ agent: 'rubyist', check: 'program', program: MISSING })]);

    const modelCheck = TournamentValidateResponseSchema.parse(
      (await admin.post('/tournaments/validate', { spec: spec('model'), base_dir: userDir }, auth)).body,
    );
    expect(modelCheck.preflight).toEqual([
      expect.objectContaining({ agent: 'model', check: 'model_server', endpoint: `127.0.0.1:${closedPort}` }),
    ]);

    const refused = await admin.post<{ error: string }>('/tournaments', { spec: spec('model'), base_dir: userDir, start: true }, auth);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(`its model server 127.0.0.1:${closedPort} did not answer`);

    const created = await admin.post<{ id: string }>('/tournaments', { spec: spec('rubyist'), base_dir: userDir, start: false }, auth);
    expect(created.status).toBe(200);
    const start = await admin.post<{ error: string }>(`/tournaments/${created.body.id}/start`, {}, auth);
    expect(start.status).toBe(400);
    expect(start.body.error).toContain(`agent rubyist cannot start here: \`${MISSING}\` not found`);
    const summary = await admin.get<{ status: string; games_done: number }>(`/tournaments/${created.body.id}`, auth);
    expect(summary.body).toMatchObject({ status: 'paused', games_done: 0 });
    // Only the create-and-start refused before storing: one tournament, the one created without start.
    const list = await admin.get<{ tournaments: unknown[] }>('/tournaments', auth);
    expect(list.body.tournaments).toHaveLength(1);
  });
});
