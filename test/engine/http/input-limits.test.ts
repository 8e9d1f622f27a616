// Input limits over real HTTP and real files: definition files are capped before parsing (a 60 MB agent.yaml is
// refused by size and never stalls /health), the Agents scan is bounded, a file that is not the YAML it should be is
// never echoed back, limits past Node's timer ceiling are field errors, and YAML stays linear and alias-bomb safe.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest, ManifestLoadError } from '../../../engine/agents/manifest-loader.js';
import { scanFolders } from '../../../engine/agents/manifest-scan.js';
import { parseYamlText, readYamlMapping } from '../../../engine/agents/yaml-file.js';
import { AgentCatalogResponseSchema } from '../../../engine/contract/agent-catalog.js';
import { MAX_TIMER_MS } from '../../../engine/contract/timer-limits.js';
import { parseTournamentSpec } from '../../../engine/core/tournament/index.js';
import { ConfigError, loadModelConfig } from '../../../engine/model-agent/config.js';
import { MAX_DEFINITION_BYTES } from '../../../engine/runtime/bounded-read.js';
import { readSpecFile, TournamentSpecError } from '../../../engine/tournaments/spec-file.js';
import { client } from '../../support/http.js';
import { type AdminTestServer, startAdminTestServer } from '../../support/server.js';

const SECRET = 'sk-live-DO-NOT-ECHO-4f1e2d3c';
let dir: string;
let srv: AdminTestServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-limits-'));
  srv = await startAdminTestServer();
});
afterAll(async () => {
  await srv?.server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const write = (rel: string, text: string) => {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
};

const problemsOf = (file: string): string[] => {
  try {
    loadManifest(file);
    return [];
  } catch (error) {
    return error instanceof ManifestLoadError ? [...error.problems] : [String(error)];
  }
};

describe('definition files are capped before parsing', () => {
  it('refuses a 60 MB agent.yaml by size, and /health answers at once while the Agents page scans it', async () => {
    const huge = path.join(dir, 'huge', 'agent.yaml');
    fs.mkdirSync(path.dirname(huge), { recursive: true });
    // Real content, not a sparse file: a mapping whose parse alone used to take seconds.
    const line = `k${'x'.repeat(60)}: ${'y'.repeat(60)}\n`;
    fs.writeFileSync(huge, `id: huge\nextra:\n${`  ${line}`.repeat(Math.ceil((60 * 1024 * 1024) / (line.length + 2)))}`);
    expect(fs.statSync(huge).size).toBeGreaterThan(60 * 1024 * 1024);
    const started = performance.now();
    expect(problemsOf(huge)).toEqual(['file is 60.0 MiB; definition files are limited to 1.0 MiB']);
    expect(performance.now() - started).toBeLessThan(1000);

    const added = await srv.admin.post('/agents/folders', { path: path.join(dir, 'huge') }, srv.auth);
    expect(added.status, added.text).toBe(200);
    const health = client(srv.server.url);
    const listing = srv.admin.get('/agents', srv.auth);
    const probe = performance.now();
    const ok = await health.get('/health');
    expect(ok.status).toBe(200);
    expect(performance.now() - probe).toBeLessThan(500);
    const body = AgentCatalogResponseSchema.parse((await listing).body);
    const entry = body.agents.find((a) => a.manifest_path === huge);
    expect(entry).toMatchObject({ ok: false, problems: ['file is 60.0 MiB; definition files are limited to 1.0 MiB'] });
  }, 60_000);

  it('refuses FIFOs and devices in place of a definition without blocking', () => {
    if (process.platform === 'win32') return;
    const link = path.join(dir, 'zero', 'agent.yaml');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync('/dev/zero', link);
    expect(problemsOf(link)).toEqual(['not a regular file']);
  });

  it('caps tournament and scenario files the same way', () => {
    const big = write('big.tournament.yaml', `name: big\n# ${'x'.repeat(MAX_DEFINITION_BYTES)}\n`);
    expect(() => readSpecFile(big)).toThrow(TournamentSpecError);
    expect(() => readSpecFile(big)).toThrow(/limited to 1\.0 MiB/);
    const scenario = write('scenario/scenario.yaml', `id: s\n# ${'x'.repeat(MAX_DEFINITION_BYTES)}\n`);
    expect(readYamlMapping(scenario)).toEqual({ problem: expect.stringMatching(/limited to 1\.0 MiB/) });
  });
});

describe('a file that is not the expected YAML is never echoed', () => {
  it('does not show back a manifest that is a symlink to a credentials file', () => {
    const secrets = write('private/credentials', `API_TOKEN: ${SECRET}\nDB_PASSWORD: hunter2-${SECRET}\n`);
    const link = path.join(dir, 'linked', 'agent.yaml');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(secrets, link);
    const problems = problemsOf(link);
    expect(problems).toEqual(['is not an agent manifest: none of its top-level keys is a known field']);
    expect(problems.join(' ')).not.toContain('API_TOKEN');

    // Not even a YAML error quotes it: a shadow-style file and a broken one say where, not what.
    const shadow = write('private/shadow', `root:$y$j9T$${SECRET}:19000:0:99999:7:::\nbad: [${SECRET}\n`);
    const shadowLink = path.join(dir, 'shadowed', 'agent.yaml');
    fs.mkdirSync(path.dirname(shadowLink), { recursive: true });
    fs.symlinkSync(shadow, shadowLink);
    for (const problem of problemsOf(shadowLink)) expect(problem).not.toContain(SECRET.slice(0, 10));

    const spec = path.join(dir, 'linked.tournament.yaml');
    fs.symlinkSync(secrets, spec);
    try {
      readSpecFile(spec);
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(TournamentSpecError);
      expect(String((error as Error).message)).not.toContain(SECRET);
      expect(String((error as Error).message)).not.toContain('API_TOKEN');
    }
  });
});

describe('time limits stay below the timer ceiling', () => {
  const tooLong = Math.ceil(MAX_TIMER_MS / 1000) + 1;

  it('refuses move_seconds / game_seconds of 2^31 ms and more in tournaments, with the field named', () => {
    const base = {
      name: 't',
      challenge: 'psi',
      format: 'round-robin',
      seed: 1,
      agents: [{ manifest: 'a/agent.yaml' }, { manifest: 'b/agent.yaml' }],
      limits: { move_seconds: 10, game_seconds: 60 },
    };
    expect(parseTournamentSpec(base).ok).toBe(true);
    for (const limits of [
      { move_seconds: 10, game_seconds: tooLong },
      { move_seconds: tooLong, game_seconds: tooLong },
    ]) {
      const parsed = parseTournamentSpec({ ...base, limits });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.errors.join('\n')).toMatch(/limits\.(game|move)_seconds.*at most 2147000 s/);
    }
  });

  it('refuses them in agent manifests and model-agent configs', () => {
    const manifest = write(
      'slow/agent.yaml',
      `id: slow\nname: Slow\nframework: node\nprotocol: specarena\nentrypoint:\n  command: node a.mjs\nlimits:\n  game_seconds: ${tooLong}\n`,
    );
    expect(problemsOf(manifest)).toEqual([expect.stringMatching(/^limits\.game_seconds: must be at most 2147000 s/)]);
    const config = write(
      'model/model.yaml',
      `provider: openai-compatible\nbase_url: http://127.0.0.1:1/v1\nmodel: m\ntimeouts:\n  turn_seconds: ${tooLong}\n`,
    );
    expect(() => loadModelConfig(config)).toThrow(ConfigError);
    expect(() => loadModelConfig(config)).toThrow(/timeouts\.turn_seconds/);
  });

  it('answers the admin API with a 400 field error', async () => {
    const res = await srv.admin.post(
      '/tournaments/validate',
      {
        spec: {
          name: 't',
          challenge: 'psi',
          format: 'round-robin',
          seed: 1,
          agents: [{ manifest: 'a/agent.yaml' }, { manifest: 'b/agent.yaml' }],
          limits: { move_seconds: 10, game_seconds: tooLong },
        },
      },
      srv.auth,
    );
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/game_seconds/);
    expect(res.text).toMatch(/2147000/);
  });
});

describe('the Agents scan is bounded', () => {
  it('stops at its folder, manifest and time bounds and says so', async () => {
    for (let i = 0; i < 30; i++) write(`wide/d${String(i).padStart(2, '0')}/agent.yaml`, `id: a${i}\n`);
    const wide = [{ id: 'w', path: path.join(dir, 'wide') }];
    const all = await scanFolders(wide, () => false);
    expect(all.incomplete).toBeNull();
    expect(all.agents).toHaveLength(30);
    const fewManifests = await scanFolders(wide, () => false, { depth: 3, directories: 100, manifests: 5, ms: 10_000 });
    expect(fewManifests.agents).toHaveLength(5);
    expect(fewManifests.incomplete).toBe('scan stopped at 5 manifests');
    for (let i = 0; i < 20; i++) fs.mkdirSync(path.join(dir, 'deep', `x${i}`, 'y', 'z'), { recursive: true });
    const fewFolders = await scanFolders([{ id: 'd', path: path.join(dir, 'deep') }], () => false, {
      depth: 3,
      directories: 10,
      manifests: 100,
      ms: 10_000,
    });
    expect(fewFolders.incomplete).toBe('scan stopped after 10 folders');
    const noTime = await scanFolders(wide, () => false, { depth: 3, directories: 100, manifests: 100, ms: -1 });
    expect(noTime.incomplete).toMatch(/^scan stopped after/);
  });
});

describe('YAML parsing', () => {
  it('refuses a document of many small nodes before parsing, stays linear below that, and still refuses duplicates', () => {
    // 20,000 keys: the library's own duplicate check took ~20 s for this 229 kB document on the development machine.
    const many = `m:\n${Array.from({ length: 20_000 }, (_, i) => `  k${i}: 1`).join('\n')}\n`;
    let started = performance.now();
    expect(parseYamlText(many)).toEqual({ problem: expect.stringMatching(/too complex for a definition file/) });
    expect(performance.now() - started).toBeLessThan(500);
    const allowed = `m:\n${Array.from({ length: 4_000 }, (_, i) => `  k${i}: 1`).join('\n')}\n`;
    started = performance.now();
    expect('value' in parseYamlText(allowed)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(parseYamlText('a: 1\nb: 2\na: 3\n')).toEqual({ problem: 'invalid YAML at line 3, column 1 (DUPLICATE_KEY)' });
  });

  it('refuses an alias bomb', () => {
    const rows = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [name, prev] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
      ['g', 'f'],
    ])
      rows.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    const bomb = write('bomb/agent.yaml', `${rows.join('\n')}\n`);
    const started = performance.now();
    expect(problemsOf(bomb)).toEqual(['invalid YAML: an alias that is unknown or expands too often']);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
