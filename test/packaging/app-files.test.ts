// The packaged app's file list, built from electron-builder.yml without packaging: what goes into the archive
// (app.asar, readable by Electron only) and what ships outside it. Agents run on the shipped Node (or the host's
// python), which cannot read the archive, so every agent folder, everything their entry files import (the kit, the
// model agent and its packages), the native module and the agents' Node runtime must be outside it. Finally the
// unpacked part alone is laid out as app.asar.unpacked and `arena-agent model` is started from it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { minimatch } from 'minimatch';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { shippedNodePath } from '../../main/paths.js';
// @ts-expect-error: a plain .mjs release script without types
import { distTargets, NODE_RUNTIME_PACKAGES, prepareNodeRuntime, runtimeDir } from '../../scripts/node-runtime.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const config = YAML.parse(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as {
  files: string[];
  asarUnpack: string[];
  extraResources: Array<{ from: string; to: string }>;
};
const rootPackage = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** electron-builder's `${name}` file macro, spelled so it is not taken for a template string. */
const macro = (name: string) => `$\{${name}}`;
const matches = (file: string, pattern: string) => minimatch(file, pattern, { dot: true });

/** The app's own files electron-builder packs (`files`, negations last), relative to the app folder, `/`-separated. */
function appFiles(): string[] {
  const include = config.files.filter((p) => !p.startsWith('!'));
  const exclude = config.files.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const tops = [...new Set(include.map((p) => p.split('/')[0] as string))];
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(ROOT, rel);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of fs.readdirSync(abs)) walk(`${rel}/${name}`);
    else if (include.some((p) => matches(rel, p)) && !exclude.some((p) => matches(rel, p))) out.push(rel);
  };
  for (const top of tops) walk(top);
  return out;
}

/** Production packages electron-builder adds (the dependency closure of package.json), as `node_modules/<name>`. */
function productionPackages(): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    for (let dir = from; ; dir = path.dirname(dir)) {
      const manifest = path.join(dir, 'node_modules', name, 'package.json');
      if (fs.existsSync(manifest)) {
        const rel = path.relative(ROOT, path.dirname(manifest)).split(path.sep).join('/');
        if (seen.has(rel)) return;
        seen.add(rel);
        const deps = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
        for (const dep of Object.keys(deps)) visit(dep, path.dirname(manifest));
        return;
      }
      if (dir === path.dirname(dir)) return; // an optional dependency not installed here
    }
  };
  for (const name of Object.keys(rootPackage.dependencies)) visit(name, ROOT);
  return seen;
}

const packed = new Set(appFiles());
const packages = productionPackages();
const unpacked = (file: string) => config.asarUnpack.some((p) => matches(file, p));

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm;

/** The files (relative, `/`) and packages (`node_modules/<name>`) an entry file loads, transitively. */
function closure(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const needed = new Set<string>();
  const walk = (rel: string) => {
    if (files.has(rel)) return;
    files.add(rel);
    const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const spec = (match[1] ?? match[2] ?? match[3]) as string;
      if (spec.startsWith('node:')) continue;
      if (spec.startsWith('.')) walk(path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec)));
      else
        needed.add(
          `node_modules/${spec
            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/')}`,
        );
    }
  };
  for (const entry of entries) walk(entry);
  // A package brings its own dependencies.
  for (const name of [...needed]) {
    const deps = JSON.parse(fs.readFileSync(path.join(ROOT, name, 'package.json'), 'utf8')).dependencies ?? {};
    for (const dep of Object.keys(deps)) needed.add(`node_modules/${dep}`);
  }
  return { files, packages: needed };
}

/** Every shipped agent's entry files: the files its command names, and for `arena-agent <kind>` that kind's program. */
function agentEntries(): Array<{ manifest: string; entries: string[] }> {
  const launcher = fs.readFileSync(path.join(ROOT, 'agents/bin/arena-agent'), 'utf8');
  const kinds = new Map([...launcher.matchAll(/(\w+): \{ entry: '([^']+)'/g)].map((m) => [m[1] as string, m[2] as string]));
  return [...packed]
    .filter((file) => /(^|\/)agents\/.*agent\.yaml$/.test(file))
    .map((manifest) => {
      const dir = path.posix.dirname(manifest);
      const parsed = YAML.parse(fs.readFileSync(path.join(ROOT, manifest), 'utf8')) as { entrypoint: { command?: string | string[] } };
      const command = parsed.entrypoint.command;
      const argv = typeof command === 'string' ? command.split(/\s+/) : (command ?? []);
      const entries = argv
        .filter((arg) => /\.(m?js|py)$/.test(arg) && fs.existsSync(path.join(ROOT, dir, arg)))
        .map((arg) => path.posix.join(dir, arg))
        .filter((file) => !file.endsWith('.py'));
      if (argv[0] === 'arena-agent') {
        const entry = kinds.get(argv[1] as string);
        if (entry === undefined) throw new Error(`${manifest}: arena-agent has no kind ${argv[1]}`);
        entries.push('agents/bin/arena-agent', path.posix.join('agents/bin', entry));
      }
      return { manifest, entries };
    });
}

const work: string[] = [];
afterAll(() => {
  for (const dir of work) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** A hard link where the file system allows (the packages are 60 MB), else a copy: real files, not symlinks. */
function place(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

function placeTree(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) placeTree(path.join(from, entry.name), path.join(to, entry.name));
    else if (entry.isFile()) place(path.join(from, entry.name), path.join(to, entry.name));
  }
}

describe('the packaged app: what ships outside the archive', () => {
  it('the file list is real: the built engine, the shipped agents and the production packages', () => {
    expect(packed.has('dist/engine/entry.js'), 'run npm run build first').toBe(true);
    expect(packed.has('dist/main/main.js')).toBe(true);
    expect(packed.has('dist/challenges/psi/agents/honest-exact/agent.yaml')).toBe(true);
    expect(packed.has('agents/clawarena/baseline-node/agent.mjs')).toBe(true);
    expect([...packed].some((f) => f.endsWith('.map'))).toBe(false);
    expect(packages.has('node_modules/better-sqlite3')).toBe(true);
    // The archive keeps the app itself: the engine's own code is not unpacked.
    expect(unpacked('dist/engine/entry.js')).toBe(false);
    expect(unpacked('dist/main/main.js')).toBe(false);
  });

  it('every shipped agent folder, and everything its entry files import, ships outside the archive', () => {
    const agents = agentEntries();
    expect(agents.map((a) => a.manifest)).toEqual(
      expect.arrayContaining([
        'dist/challenges/psi/agents/honest-exact/agent.yaml',
        'agents/clawarena/baseline-node/agent.yaml',
        'agents/model-agent/examples/ollama-psi/agent.yaml',
        'examples/agents/maintainer-bot-node/agent.yaml',
      ]),
    );
    const problems: string[] = [];
    for (const { manifest, entries } of agents) {
      const dir = path.posix.dirname(manifest);
      for (const file of packed) if (file.startsWith(`${dir}/`) && !unpacked(file)) problems.push(`${manifest}: ${file} is in the archive`);
      const needs = closure(entries);
      for (const file of needs.files) {
        if (!packed.has(file)) problems.push(`${manifest}: ${file} is not packaged at all`);
        else if (!unpacked(file)) problems.push(`${manifest}: ${file} is in the archive`);
      }
      for (const pkg of needs.packages) {
        if (!packages.has(pkg)) problems.push(`${manifest}: ${pkg} is not a production dependency`);
        else if (!unpacked(`${pkg}/package.json`)) problems.push(`${manifest}: ${pkg} is in the archive`);
      }
    }
    expect([...new Set(problems)]).toEqual([]);
    // The kits the baselines import are among them.
    expect(unpacked('dist/challenges/kit/agent-client.mjs')).toBe(true);
    expect(unpacked('agent-kit/js/arena-emit.mjs')).toBe(true);
  });

  it('the check above would notice a kit left in the archive', () => {
    const without = config.asarUnpack.filter((p) => p !== 'dist/challenges/kit/*.mjs');
    expect(without.some((p) => matches('dist/challenges/kit/agent-client.mjs', p))).toBe(false);
  });

  it('the native module ships outside the archive', () => {
    const native = [...packages].filter((p) => p.endsWith('/better-sqlite3'))[0] as string;
    const addon = `${native}/build/Release/better_sqlite3.node`;
    expect(fs.existsSync(path.join(ROOT, addon))).toBe(true);
    expect(unpacked(addon)).toBe(true);
  });

  it("the agents' Node ships in the resources, where the shell looks for it, for every pinned os and arch", () => {
    expect(config.extraResources).toContainEqual({ from: `build/node-runtime/${macro('os')}-${macro('arch')}`, to: 'node-runtime' });
    const entry = config.extraResources.find((r) => r.to === 'node-runtime') as { from: string; to: string };
    for (const [target, pinned] of Object.entries(NODE_RUNTIME_PACKAGES as Record<string, { binary: string }>)) {
      const [osName, arch] = target.split('-') as [string, string];
      // What electron-builder copies for that target, and where main/ looks for the binary.
      const from = entry.from.replace(macro('os'), osName).replace(macro('arch'), arch);
      expect(path.join(ROOT, from)).toBe(runtimeDir(ROOT, target));
      const platform = ({ mac: 'darwin', win: 'win32', linux: 'linux' } as const)[osName as 'mac' | 'win' | 'linux'];
      expect(shippedNodePath('/resources', platform)).toBe(path.join('/resources', entry.to, pinned.binary));
    }
  });

  it('npm run dist prepares a Node for each packaged os and arch, and refuses what it has none for', () => {
    expect(distTargets(['--linux', 'AppImage', 'deb'], 'linux', 'x64')).toEqual(['linux-x64']);
    expect(distTargets(['--mac', 'dmg', '--x64', '--arm64'], 'darwin', 'arm64')).toEqual(['mac-x64', 'mac-arm64']);
    expect(distTargets([], 'win32', 'x64')).toEqual(['win-x64']);
    expect(() => distTargets(['--mac', '--universal'])).toThrow(/x64 and arm64 only/);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-dist-runtime-'));
    work.push(root);
    // No registry package for Apple silicon at this version: the release machine must supply the binary.
    expect(() => prepareNodeRuntime(root, 'mac-arm64', undefined)).toThrow(/no pinned Node package for mac-arm64: set ARENA_DIST_NODE/);
    // A supplied binary must be the pinned version (this test's Node is another one, or another machine's).
    expect(() =>
      prepareNodeRuntime(
        root,
        `${{ darwin: 'mac', win32: 'win' }[process.platform as string] ?? process.platform}-${process.arch}`,
        process.execPath,
      ),
    ).toThrow(/ARENA_DIST_NODE is Node v[\d.]+; the app ships v[\d.]+|can only supply/);
  });

  it('laid out alone as app.asar.unpacked, the unpacked part starts `arena-agent model` on a plain Node', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-unpacked-'));
    work.push(tmp);
    const out = path.join(tmp, 'app.asar.unpacked');
    for (const file of packed) if (unpacked(file)) place(path.join(ROOT, file), path.join(out, file));
    for (const pkg of packages) if (unpacked(`${pkg}/package.json`)) placeTree(path.join(ROOT, pkg), path.join(out, pkg));
    // The archive itself: a file the agents' Node cannot look into.
    fs.writeFileSync(path.join(tmp, 'app.asar'), 'archive');
    const run = spawnSync(
      process.execPath,
      [path.join(out, 'agents/bin/arena-agent'), 'model', '--config', path.join(tmp, 'missing.yaml')],
      {
        cwd: tmp,
        env: { PATH: '/usr/bin:/bin' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    // Every module loaded: the model agent itself answers (about its missing configuration).
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)|SyntaxError|not built yet/);
    expect(run.stderr).toMatch(/^model-agent: .*missing\.yaml: cannot read: file not found/m);
  }, 120_000);
});
