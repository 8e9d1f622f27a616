// One error model over HTTP: admin routes answer {error, code, kind, issues?} with the status the kind maps to, and
// ClawArena routes answer their own shape from the same handler, whatever layer threw.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PREFIX } from '../../../engine/contract/admin.js';
import { AdminErrorBodySchema } from '../../../engine/contract/errors.js';
import { type Client, client } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let admin: Client;
let anonymous: Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = client(server.url);
  anonymous = client(server.url);
});
afterAll(async () => server.close());

const auth = () => ({ headers: { authorization: `Bearer ${server.token}` } });

describe('admin errors', () => {
  it('a definition with several problems: 400, kind invalid, one issue per field', async () => {
    const res = await admin.post(
      `${ADMIN_PREFIX}/tournaments/validate`,
      {
        spec: {
          name: 'x',
          challenge: 'nope',
          format: 'round-robin',
          seed: 1,
          limits: { move_seconds: 5, game_seconds: 20 },
          agents: [{ manifest: '/no/such/agent.yaml' }, { manifest: '/no/such/other.yaml' }],
        },
      },
      auth(),
    );
    expect(res.status).toBe(400);
    const body = AdminErrorBodySchema.parse(res.body);
    expect(body.kind).toBe('invalid');
    expect(body.code).toBe('VALIDATION_FAILED');
    const paths = (body.issues ?? []).map((i) => i.path);
    expect(paths).toContain('challenge');
    expect(paths).toContain('agents[0].manifest');
    expect(paths).toContain('agents[1].manifest');
    expect(body.issues?.find((i) => i.path === 'challenge')?.message).toBe("unknown challenge 'nope'");
    // The message still lists the same problems, one line each, for the CLI and logs.
    expect(body.error).toContain("challenge: unknown challenge 'nope'");
  });

  it('a schema failure names the field in issues', async () => {
    const res = await admin.post(`${ADMIN_PREFIX}/tournaments/validate`, { spec: { name: 'x', challenge: 'psi', agents: [] } }, auth());
    expect(res.status).toBe(400);
    const body = AdminErrorBodySchema.parse(res.body);
    expect(body.issues?.some((i) => i.path === 'agents')).toBe(true);
  });

  it('an unknown tournament is not_found, a finished one cannot be paused (conflict)', async () => {
    const missing = await admin.get(`${ADMIN_PREFIX}/tournaments/01NOPE`, auth());
    expect(missing.status).toBe(404);
    expect(AdminErrorBodySchema.parse(missing.body)).toMatchObject({ kind: 'not_found', code: 'NOT_FOUND' });
    const notRunning = await admin.post(`${ADMIN_PREFIX}/tournaments/01NOPE/pause`, undefined, auth());
    expect(notRunning.status).toBe(409);
    expect(AdminErrorBodySchema.parse(notRunning.body)).toMatchObject({ kind: 'conflict', code: 'CONFLICT' });
  });

  it('a bad query and a bad body are invalid with issues', async () => {
    const query = await admin.get(`${ADMIN_PREFIX}/sessions`, { ...auth(), query: { limit: 'many' } });
    expect(query.status).toBe(400);
    const q = AdminErrorBodySchema.parse(query.body);
    expect(q.kind).toBe('invalid');
    expect(q.issues?.[0]?.path).toBe('limit');
    const folder = await admin.post(`${ADMIN_PREFIX}/agents/folders`, { path: 42 }, auth());
    expect(folder.status).toBe(400);
    expect(AdminErrorBodySchema.parse(folder.body).issues?.[0]?.path).toBe('path');
  });

  it('the agent catalogue, governance and session routes map their domain errors through the same handler', async () => {
    const relative = await admin.post(`${ADMIN_PREFIX}/agents/folders`, { path: 'not/absolute' }, auth());
    expect(relative.status).toBe(400);
    expect(AdminErrorBodySchema.parse(relative.body).kind).toBe('invalid');
    const gone = await admin.request('DELETE', `${ADMIN_PREFIX}/agents/folders/999`, auth());
    expect(gone.status).toBe(404);
    expect(AdminErrorBodySchema.parse(gone.body).kind).toBe('not_found');
    const scenario = await admin.post(`${ADMIN_PREFIX}/governance/matches`, { scenario: 'no-such-scenario' }, auth());
    expect(scenario.status).toBe(400);
    expect(AdminErrorBodySchema.parse(scenario.body).kind).toBe('invalid');
    const session = await admin.get(`${ADMIN_PREFIX}/sessions/nope`, auth());
    expect(session.status).toBe(404);
    expect(AdminErrorBodySchema.parse(session.body)).toMatchObject({ kind: 'not_found', code: 'NOT_FOUND' });
  });

  it('a missing admin token is unauthorized, on the admin API and on the test hooks alike', async () => {
    const res = await anonymous.get(`${ADMIN_PREFIX}/overview`);
    expect(res.status).toBe(401);
    expect(AdminErrorBodySchema.parse(res.body)).toMatchObject({ kind: 'unauthorized', code: 'UNAUTHORIZED' });
  });
});

describe('ClawArena errors', () => {
  it('answer in the ClawArena shape with the status of their kind', async () => {
    const noToken = await anonymous.get('/api/v1/agents/game/');
    expect(noToken.status).toBe(401);
    expect(noToken.body).toMatchObject({ status: 'error', code: 'unauthorized' });
    expect(noToken.headers.get('cache-control')).toBe('no-store');
    const retired = await anonymous.get('/api/v1/agents/strategy-reflection/');
    expect(retired.status).toBe(410);
    expect(retired.body).toMatchObject({ status: 'error', code: 'manual_reflection_only' });
    const unknown = await anonymous.get('/api/v1/economy/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 'error', code: 'not_found' });
  });

  it('a domain error thrown by the service (a taken name) is a conflict', async () => {
    const first = await anonymous.post('/api/v1/agents/provision/', { name: 'twin' });
    expect(first.status).toBe(201);
    const second = await anonymous.post('/api/v1/agents/provision/', { name: 'twin' });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ status: 'error', code: 'name_taken', field: 'name' });
  });
});

it('no route module picks a status by matching an error message', () => {
  const routes = path.join(import.meta.dirname, '../../../engine/http/routes');
  for (const file of fs.readdirSync(routes)) {
    const text = fs.readFileSync(path.join(routes, file), 'utf8');
    expect(text, file).not.toMatch(/\.test\(\s*error\.message\s*\)/);
    expect(text, file).not.toMatch(/error\.status\b/);
  }
});
