// The layering rules in biome.json fail the lint: a temporary copy of the source tree passes `biome check`, and each
// probe file added to it (a pure layer reaching for the DB or Node, a protocol importing another, a two-file cycle)
// makes it fail with the rule that forbids it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIOME = path.join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
const SOURCES = ['engine', 'games', 'challenges', 'main', 'preload', 'renderer'];

let copy: string;
beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-layering-'));
  for (const dir of SOURCES) {
    fs.cpSync(path.join(ROOT, dir), path.join(copy, dir), { recursive: true, filter: (src) => !src.includes('node_modules') });
  }
  // Outside a git checkout the VCS integration has no ignore file to read; the copy holds only sources anyway.
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'biome.json'), 'utf8'));
  config.vcs = { enabled: false };
  delete config.$schema;
  fs.writeFileSync(path.join(copy, 'biome.json'), JSON.stringify(config));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
});
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

function lint(paths: string[]): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, [BIOME, 'lint', '--max-diagnostics=50', ...paths], {
    cwd: copy,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Lints the tree with the probe files added, then removes them. */
function withProbes(files: Record<string, string>): { code: number | null; output: string } {
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(copy, rel), text);
  try {
    return lint(Object.keys(files));
  } finally {
    for (const rel of Object.keys(files)) fs.rmSync(path.join(copy, rel));
  }
}

describe('enforced layers', () => {
  it('the tree as it is passes', () => {
    const { code, output } = lint(SOURCES);
    expect(output).not.toContain('noRestrictedImports');
    expect(output).not.toContain('noImportCycles');
    expect(code, output).toBe(0);
  });

  it.each([
    ['engine/core importing engine/db', 'engine/core/probe.ts', "import type { Store } from '../db/store.js';\nexport type S = Store;\n"],
    ['engine/core importing node:fs', 'engine/core/probe.ts', "import fs from 'node:fs';\nexport const f = fs;\n"],
    [
      'engine/core importing better-sqlite3',
      'engine/core/probe.ts',
      "import Database from 'better-sqlite3';\nexport const d = Database;\n",
    ],
    [
      'engine/contract importing engine/core',
      'engine/contract/probe.ts',
      "import { systemClock } from '../core/clock.js';\nexport const c = systemClock;\n",
    ],
    [
      'a game importing the runner',
      'games/kit/probe.ts',
      "import { launchAgent } from '../../engine/runner/launch.js';\nexport const l = launchAgent;\n",
    ],
    ['a challenge operator importing HTTP', 'challenges/psi/probe.ts', "import Fastify from 'fastify';\nexport const f = Fastify;\n"],
    [
      'a board view importing the renderer',
      'games/liars-dice/probe-view.tsx',
      "import { useArena } from '../../renderer/src/app-context.js';\nexport const u = useArena;\n",
    ],
    [
      'a board view importing the runner',
      'challenges/psi/probe-view.tsx',
      "import { launchAgent } from '../../engine/runner/launch.js';\nexport const l = launchAgent;\n",
    ],
    ['a board view importing a package', 'games/mafia/probe-view.tsx', "import fs from 'node:fs';\nexport const f = fs;\n"],
    [
      'a protocol importing another protocol',
      'engine/protocols/clawarena/probe.ts',
      "import { ArenaError } from '../specarena/arena-error.js';\nexport const e = ArenaError;\n",
    ],
    [
      'a protocol importing the tournaments',
      'engine/protocols/governance/probe.ts',
      "import { MAX_ATTEMPTS } from '../../tournaments/results/stats.js';\nexport const m = MAX_ATTEMPTS;\n",
    ],
    [
      'tournament results importing the run',
      'engine/tournaments/results/probe.ts',
      "import { DEFAULT_MAX_ILLEGAL_ACTIONS } from '../run/executor.js';\nexport const e = DEFAULT_MAX_ILLEGAL_ACTIONS;\n",
    ],
    [
      'tournament results importing HTTP (the room keeps the tournaments rule)',
      'engine/tournaments/results/probe.ts',
      "import { createHttpServer } from '../../http/server.js';\nexport const b = createHttpServer;\n",
    ],
    [
      'tournament exports importing the run',
      'engine/tournaments/exports/probe.ts',
      "import { playWith } from '../run/game-play.js';\nexport const p = playWith;\n",
    ],
    [
      'warm agents importing the run',
      'engine/tournaments/warm/probe.ts',
      "import { runnerFor } from '../run/game-runner.js';\nexport const r = runnerFor;\n",
    ],
    [
      'the bundle importing the service',
      'engine/tournaments/bundle/probe.ts',
      "import { createTournamentService } from '../service.js';\nexport const t = createTournamentService;\n",
    ],
    [
      'the renderer importing the DB',
      'renderer/src/probe.ts',
      "import { openDatabase } from '../../engine/db/open.js';\nexport const o = openDatabase;\n",
    ],
    [
      'main importing engine internals',
      'main/probe.ts',
      "import { createTournamentService } from '../engine/tournaments/service.js';\nexport const t = createTournamentService;\n",
    ],
  ])('fails on %s', (_name, file, text) => {
    const { code, output } = withProbes({ [file]: text });
    expect(code).not.toBe(0);
    expect(output).toContain('lint/style/noRestrictedImports');
    expect(output).toContain(file);
  });

  it('fails on process.env in engine/core', () => {
    const { code, output } = withProbes({ 'engine/core/probe.ts': 'export const home = process.env.HOME;\n' });
    expect(code).not.toBe(0);
    expect(output).toContain('lint/style/noRestrictedGlobals');
  });

  it('fails on a two-file import cycle, type-only ones included', () => {
    const values = withProbes({
      'engine/tournaments/probe-a.ts': "import { b } from './probe-b.js';\nexport const a = (): number => b();\n",
      'engine/tournaments/probe-b.ts': "import { a } from './probe-a.js';\nexport const b = (): number => a();\n",
    });
    expect(values.code).not.toBe(0);
    expect(values.output).toContain('lint/suspicious/noImportCycles');
    const types = withProbes({
      'engine/http/probe-a.ts': "import type { B } from './probe-b.js';\nexport interface A { b?: B }\n",
      'engine/http/probe-b.ts': "import type { A } from './probe-a.js';\nexport interface B { a?: A }\n",
    });
    expect(types.code).not.toBe(0);
    expect(types.output).toContain('lint/suspicious/noImportCycles');
  });
});
