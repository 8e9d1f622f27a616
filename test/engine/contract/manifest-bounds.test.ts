// Bad input in an agent's own manifest is refused up front, naming the field: loader variables (set or granted),
// environment names a shell cannot set, an entrypoint.env too large to exec (E2BIG at launch, once charged as a
// harness error), and limits no machine has. Through the schema, `arena run` (exit 2) and the admin API (400).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { main } from '../../../engine/cli/index.js';
import { AgentManifestSchema, MAX_ENTRYPOINT_ENV_BYTES, MAX_MEMORY_MB } from '../../../engine/contract/manifest.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const HONEST = path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml');

const base = {
  id: 'bounded',
  name: 'Bounded',
  framework: 'node',
  protocol: 'specarena',
  challenges: ['psi'],
  entrypoint: { command: ['node', 'agent.mjs'] },
};

function problemsOf(input: unknown): string[] {
  const parsed = AgentManifestSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

const withEnv = (env: Record<string, string>) => ({ ...base, entrypoint: { ...base.entrypoint, env } });

describe('the manifest schema', () => {
  it('refuses loader variables in entrypoint.env and secrets, naming each', () => {
    for (const name of ['LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'GCONV_PATH', 'GLIBC_TUNABLES'])
      expect(problemsOf(withEnv({ [name]: './evil.so' }))).toEqual([
        expect.stringMatching(new RegExp(`^entrypoint\\.env\\.${name}: is a loader variable`)),
      ]);
    expect(problemsOf({ ...base, secrets: ['LD_AUDIT'] })).toEqual([expect.stringMatching(/^secrets\.0: is a loader variable/)]);
    // Runtime options configure only the agent's own runtime, inside its sandbox.
    expect(problemsOf(withEnv({ NODE_OPTIONS: '--max-old-space-size=512', PYTHONPATH: '.', OLD_LD_PRELOAD: 'x' }))).toEqual([]);
  });

  it('refuses names a shell cannot set and values with NUL', () => {
    expect(problemsOf(withEnv({ 'my-var': '1' }))).toEqual([
      expect.stringMatching(/^entrypoint\.env\.my-var: must be an environment variable name/),
    ]);
    expect(problemsOf(withEnv({ '1X': '1' }))[0]).toMatch(/^entrypoint\.env\.1X: must be an environment variable name/);
    expect(problemsOf(withEnv({ X: 'a\0b' }))[0]).toMatch(/^entrypoint\.env\.X: must not contain a NUL/);
  });

  it('bounds the total size of entrypoint.env at 64 KiB', () => {
    const big = 'x'.repeat(200 * 1024);
    expect(problemsOf(withEnv({ A: big, B: big, C: big, D: big }))).toEqual([
      expect.stringMatching(/^entrypoint\.env: is \d+ bytes in total; at most 65536 \(64 KiB\)/),
    ]);
    // Exactly at the bound (name + value + "=" + NUL) is fine.
    expect(problemsOf(withEnv({ A: 'x'.repeat(MAX_ENTRYPOINT_ENV_BYTES - 3) }))).toEqual([]);
    expect(problemsOf(withEnv({ A: 'x'.repeat(MAX_ENTRYPOINT_ENV_BYTES - 2) }))).toHaveLength(1);
  });

  it('bounds every limit field', () => {
    expect(problemsOf({ ...base, limits: { memory_mb: 1e14 } })).toEqual([
      expect.stringMatching(/^limits\.memory_mb: .*1048576 \(1 TiB\)/),
    ]);
    expect(problemsOf({ ...base, limits: { memory_mb: MAX_MEMORY_MB } })).toEqual([]);
    expect(problemsOf({ ...base, limits: { game_seconds: 1e12 } })[0]).toMatch(/^limits\.game_seconds: must be at most/);
    expect(problemsOf({ ...base, limits: { move_seconds: -1 } })[0]).toMatch(/^limits\.move_seconds: /);
    expect(problemsOf({ ...base, lifecycle: 'persistent', max_concurrent_games: 1000 })[0]).toMatch(/^max_concurrent_games: /);
  });
});

describe('refused at the doors', () => {
  let dir: string;
  let server: TestServer;
  let admin: AdminTestServer['admin'];
  let auth: AdminTestServer['auth'];
  const specOf = (manifest: string) => ({
    name: 'bounds',
    challenge: 'psi',
    format: 'round-robin',
    games_per_pairing: 1,
    concurrency: 1,
    seed: 'bounds',
    agents: [
      { manifest, id: 'hostile' },
      { manifest: HONEST, id: 'honest' },
    ],
    limits: { move_seconds: 10, game_seconds: 30 },
  });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bounds-'));
    for (const [id, over] of [
      ['preload', { entrypoint: { command: ['node', 'agent.mjs'], env: { LD_PRELOAD: './evil.so' } } }],
      ['huge-env', { entrypoint: { command: ['node', 'agent.mjs'], env: { A: 'x'.repeat(70_000) } } }],
      ['huge-memory', { limits: { memory_mb: 1e14 } }],
    ] as const) {
      fs.mkdirSync(path.join(dir, id));
      fs.writeFileSync(path.join(dir, id, 'agent.yaml'), YAML.stringify({ ...base, id, ...over }));
    }
    ({ server, admin, auth } = await startAdminTestServer());
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const cases = [
    ['preload', /entrypoint\.env\.LD_PRELOAD: is a loader variable/],
    ['huge-env', /entrypoint\.env: is \d+ bytes in total/],
    ['huge-memory', /limits\.memory_mb: must be at most/],
  ] as const;

  it('arena run exits 2 naming the field, before any game', async () => {
    for (const [id, message] of cases) {
      const specFile = path.join(dir, `${id}.yaml`);
      fs.writeFileSync(specFile, YAML.stringify(specOf(path.join(dir, id, 'agent.yaml'))));
      let stderr = '';
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        stderr += String(chunk);
        return true;
      });
      let code: number;
      try {
        code = await main(['run', specFile, '--data-dir', path.join(dir, 'data')]);
      } finally {
        vi.restoreAllMocks();
      }
      expect(code, id).toBe(2);
      expect(stderr).toMatch(message);
    }
  });

  it('the admin API answers 400 naming the field', async () => {
    for (const [id, message] of cases) {
      const res = await admin.post<{ error: string }>(
        '/tournaments',
        { spec: specOf(path.join(dir, id, 'agent.yaml')), start: false },
        auth,
      );
      expect(res.status, id).toBe(400);
      expect(res.text).toMatch(message);
    }
  });
});
