// The builder's note beside an imported definition's agent, against the real agent catalogue of a real engine (its
// shipped folders and a user folder added over HTTP): every seat of the shipped Diplomacy and Clawpoly examples (the
// same shipped manifest several times, written relative to the examples folder) is "shipped with the app", an agent in
// a user folder is "in your agent folders", and only a manifest in neither is "from the imported definition".
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ADMIN_PREFIX } from '../../engine/contract/admin.js';
import { AgentCatalogResponseSchema, type CatalogAgent } from '../../engine/contract/agent-catalog.js';
import { agentOrigin, agentOriginNote } from '../../renderer/src/features/tournaments/agent-origin.js';
import { makeTempDataDir, startTestServer, type TestServer } from '../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let server: TestServer;
let catalog: CatalogAgent[];
let userDir: string;
/** Where the browser resolves relative manifests: a folder unrelated to the examples, as on a user's machine. */
const BASE_DIR = '/home/someone/elsewhere';

const admin = (route: string, init: RequestInit = {}) =>
  fetch(`${server.url}${ADMIN_PREFIX}${route}`, {
    ...init,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
  });

beforeAll(async () => {
  server = await startTestServer();
  userDir = makeTempDataDir('arena-user-agents-');
  fs.mkdirSync(path.join(userDir, 'my-bot'));
  for (const file of fs.readdirSync(path.join(ROOT, 'challenges/psi/agents/honest-exact')))
    fs.copyFileSync(path.join(ROOT, 'challenges/psi/agents/honest-exact', file), path.join(userDir, 'my-bot', file));
  expect((await admin('/agents/folders', { method: 'POST', body: JSON.stringify({ path: userDir }) })).status).toBe(200);
  catalog = AgentCatalogResponseSchema.parse(await (await admin('/agents')).json()).agents;
}, 60_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(userDir, { recursive: true, force: true });
});

describe('where an imported agent comes from', () => {
  for (const example of ['diplomacy', 'clawpoly']) {
    it(`every seat of examples/${example}.tournament.yaml is a shipped agent`, () => {
      const spec = YAML.parse(fs.readFileSync(path.join(ROOT, 'examples', `${example}.tournament.yaml`), 'utf8')) as {
        agents: Array<{ manifest: string }>;
      };
      expect(new Set(spec.agents.map((a) => a.manifest)).size).toBeLessThan(spec.agents.length);
      for (const entry of spec.agents) {
        const origin = agentOrigin(entry.manifest, catalog, BASE_DIR);
        expect(origin.kind, entry.manifest).toBe('shipped');
        expect(agentOriginNote(origin)).toBe('shipped with the app');
        if (origin.kind === 'shipped') expect(origin.agent.manifest_path.endsWith(entry.manifest.replace(/^\.\.\//, ''))).toBe(true);
      }
    });
  }

  it('an absolute path to a shipped agent, one in a user folder, and one in neither', () => {
    expect(agentOrigin(path.join(ROOT, 'challenges/psi/agents/greedy-overclaim/agent.yaml'), catalog, BASE_DIR).kind).toBe('shipped');
    const mine = agentOrigin(path.join(userDir, 'my-bot/agent.yaml'), catalog, BASE_DIR);
    expect(mine.kind).toBe('folder');
    expect(agentOriginNote(mine)).toBe('in your agent folders');
    const stranger = agentOrigin('/nowhere/at/all/stranger/agent.yaml', catalog, BASE_DIR);
    expect(stranger).toEqual({ kind: 'definition' });
    expect(agentOriginNote(stranger)).toBe('from the imported definition; not in your agent folders');
  });
});
