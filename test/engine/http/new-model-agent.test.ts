// "New model agent" over real HTTP against a real engine, real files and a scripted OpenAI-compatible server on
// 127.0.0.1: discovery lists the server and its model, the engine writes agent.yaml + model.yaml into a new folder of
// a user folder after one preflight call, the agent is listed and a tournament definition with it validates; every
// refusal (a field the schemas or the server reject, an existing folder, an id that climbs out, a shipped folder)
// names its field and leaves nothing behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { AgentCatalogResponseSchema } from '../../../engine/contract/agent-catalog.js';
import { NewModelAgentResponseSchema } from '../../../engine/contract/model-agent-create.js';
import { ModelsResponseSchema } from '../../../engine/contract/model-discovery.js';
import { TournamentValidateResponseSchema } from '../../../engine/contract/tournament.js';
import { type FakeModelServer, openAiReply, startFakeModelServer } from '../../model-agent/fake-model-server.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const HONEST = path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml');
const KEY_VAR = 'NEW_MODEL_AGENT_TEST_KEY';
const KEY = 'sk-never-written-anywhere-0123456789';

let server: TestServer;
let admin: AdminTestServer['admin'];
let auth: AdminTestServer['auth'];
let model: FakeModelServer;
let userDir: string;
let folderId: string;

type ErrorBody = { error: string; issues?: Array<{ path: string; message: string }> };

function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    folder_id: folderId,
    id: 'scripted-psi',
    name: 'Scripted model (PSI)',
    protocol: 'specarena',
    challenges: ['psi'],
    provider: 'openai-compatible',
    base_url: `${model.url}/v1`,
    model: 'scripted-model',
    temperature: 0.3,
    max_tokens: 256,
    seed: 7,
    ...overrides,
  };
}

/** What the user folder holds, dot-folders (the staging ones) included. */
const entries = () => fs.readdirSync(userDir).sort();

beforeAll(async () => {
  model = await startFakeModelServer(() => openAiReply('{"wait": true}'), { models: ['scripted-model', 'other-model'] });
  process.env[KEY_VAR] = KEY;
  ({ server, admin, auth } = await startAdminTestServer());
  userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-new-model-agent-'));
  const added = AgentCatalogResponseSchema.parse((await admin.post('/agents/folders', { path: userDir }, auth)).body);
  folderId = added.folders.find((f) => f.path === userDir)?.id as string;
});

afterAll(async () => {
  delete process.env[KEY_VAR];
  await server?.close();
  await model?.close();
  fs.rmSync(userDir, { recursive: true, force: true });
});

describe('New model agent', () => {
  it('needs the admin token', async () => {
    expect((await admin.post('/agents/model', request())).status).toBe(401);
  });

  it('discovery lists the scripted server and its models', async () => {
    const res = await admin.get('/models', { ...auth, query: { server: model.url, only: 'true' } });
    expect(res.status).toBe(200);
    const body = ModelsResponseSchema.parse(res.body);
    expect(body.servers).toHaveLength(1);
    expect(body.servers[0]).toMatchObject({ base_url: `${model.url}/v1`, kind: 'openai-compatible' });
    expect(body.servers[0]?.models.map((m) => m.id)).toEqual(['other-model', 'scripted-model']);
  });

  it('writes agent.yaml + model.yaml after one call to the server, and the agent is listed and validates', async () => {
    const listingsBefore = model.listings;
    const res = await admin.post('/agents/model', request(), auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The preflight asked the server exactly once, and sent it no chat request.
    expect(model.listings - listingsBefore).toBe(1);
    expect(model.requests).toHaveLength(0);
    const created = NewModelAgentResponseSchema.parse(res.body);
    const dir = path.join(userDir, 'scripted-psi');
    expect(created.files).toEqual([path.join(dir, 'agent.yaml'), path.join(dir, 'model.yaml')]);
    expect(created.agent).toMatchObject({ ok: true, id: 'scripted-psi', name: 'Scripted model (PSI)', challenges: ['psi'], secrets: [] });
    expect(entries()).toEqual(['scripted-psi']);

    const manifest = YAML.parse(fs.readFileSync(path.join(dir, 'agent.yaml'), 'utf8'));
    expect(manifest).toMatchObject({
      id: 'scripted-psi',
      protocol: 'specarena',
      entrypoint: { command: 'arena-agent model --config model.yaml' },
    });
    // The engine forwards the server named in model.yaml: no network.allow is written.
    expect(manifest.network).toBeUndefined();
    expect(YAML.parse(fs.readFileSync(path.join(dir, 'model.yaml'), 'utf8'))).toEqual({
      provider: 'openai-compatible',
      base_url: `${model.url}/v1`,
      model: 'scripted-model',
      temperature: 0.3,
      max_tokens: 256,
      seed: 7,
    });

    const catalog = AgentCatalogResponseSchema.parse((await admin.get('/agents', auth)).body);
    expect(catalog.agents.find((a) => a.id === 'scripted-psi')).toMatchObject({ ok: true, folder_id: folderId });

    const spec = {
      name: 'new model agent',
      challenge: 'psi',
      format: 'round-robin',
      games_per_pairing: 1,
      seed: 'new-model-agent',
      limits: { move_seconds: 30, game_seconds: 60 },
      agents: [{ manifest: created.files[0] }, { manifest: HONEST }],
    };
    const validated = await admin.post('/tournaments/validate', { spec }, auth);
    expect(validated.status, JSON.stringify(validated.body)).toBe(200);
    const body = TournamentValidateResponseSchema.parse(validated.body);
    expect(body.agents).toEqual(['scripted-psi', 'honest-exact']);
    expect(body.preflight).toEqual([]);
  });

  it('names the key variable of a hosted API, never the key', async () => {
    const res = await admin.post('/agents/model', request({ id: 'with-key', api_key_env: KEY_VAR }), auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const created = NewModelAgentResponseSchema.parse(res.body);
    expect(created.agent.secrets).toEqual([KEY_VAR]);
    for (const file of created.files) expect(fs.readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(JSON.stringify(res.body)).not.toContain(KEY);
    expect(YAML.parse(fs.readFileSync(created.files[1] as string, 'utf8')).api_key_env).toBe(KEY_VAR);
  });

  it('refuses an existing folder (409) and leaves it as it was', async () => {
    const file = path.join(userDir, 'scripted-psi', 'model.yaml');
    const before = fs.readFileSync(file, 'utf8');
    const res = await admin.post<ErrorBody>('/agents/model', request({ model: 'other-model' }), auth);
    expect(res.status).toBe(409);
    expect(res.body.issues?.[0]?.path).toBe('id');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    // A symlink under that name (to anywhere) is an existing entry too.
    fs.symlinkSync(os.tmpdir(), path.join(userDir, 'linked'));
    const linked = await admin.post<ErrorBody>('/agents/model', request({ id: 'linked' }), auth);
    expect(linked.status).toBe(409);
    fs.unlinkSync(path.join(userDir, 'linked'));
  });

  it('400s each bad field by name and writes nothing', async () => {
    // A folder that is an agent itself: the scan would never look below its agent.yaml.
    const agentFolder = path.join(userDir, 'scripted-psi');
    const added = AgentCatalogResponseSchema.parse((await admin.post('/agents/folders', { path: agentFolder }, auth)).body);
    const agentFolderId = added.folders.find((f) => f.path === agentFolder)?.id as string;
    const closed = await startFakeModelServer(() => openAiReply('x'));
    const closedUrl = `${closed.url}/v1`;
    await closed.close();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ id: '../escape' }, 'id', 'lowercase letters'],
      [{ id: 'a/b' }, 'id', 'lowercase letters'],
      [{ id: '.hidden' }, 'id', 'lowercase letters'],
      [{ folder_id: 'builtin:agents' }, 'folder_id', 'ships with the app'],
      [{ folder_id: '999' }, 'folder_id', 'no agent folder 999'],
      [{ folder_id: agentFolderId }, 'folder_id', 'is an agent itself'],
      [{ challenges: ['no-such-game'] }, 'challenges', 'no challenge or game "no-such-game"'],
      [{ challenges: [] }, 'challenges', 'at least one'],
      [{ temperature: 5 }, 'temperature', ''],
      [{ max_tokens: 0 }, 'max_tokens', ''],
      [{ seed: 1.5 }, 'seed', ''],
      [{ base_url: 'ftp://127.0.0.1/v1' }, 'base_url', 'http(s) URL'],
      [{ api_key_env: 'sk-live-abc' }, 'api_key_env', 'NAME of an environment variable'],
      [{ api_key_env: 'ARENA_SECRET' }, 'api_key_env', 'reserved'],
      [{ model: 'not-served' }, 'model', 'does not serve model "not-served"'],
      [{ base_url: closedUrl }, 'base_url', 'did not answer'],
      [{ extra: true }, 'extra', 'Unrecognized key'],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await admin.post<ErrorBody>('/agents/model', request({ id: 'refused', ...overrides }), auth);
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(
        res.body.issues?.map((i) => i.path),
        JSON.stringify(res.body),
      ).toContain(field);
      expect(res.body.error).toContain(message);
    }
    // Neither the refused folder nor a staging folder is left behind.
    expect(entries()).toEqual(['scripted-psi', 'with-key']);
  });
});
