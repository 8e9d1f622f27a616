// Which program an agent's command starts (resolveAgentCommand, shared by the launch, the sandbox and preflight), the
// agents' Node runtime (the app's shipped one when the shell names it, else the engine's), and what a run manifest
// records of it and of the agents' PATH.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_NODE_ENV } from '../../../engine/contract/channels.js';
import { resolveAgentCommand } from '../../../engine/runner/agent-program.js';
import { agentHostRecord, agentNodeRuntime, NodeRuntimeError, nodeRuntimeRecord } from '../../../engine/runner/node-runtime.js';
import { builtinAgentFolders, outsideArchive } from '../../../engine/runtime/package-root.js';
import { manifestChange, type RunManifest } from '../../../engine/tournaments/run/run-manifest.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arena-program-')));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function executable(file: string, body = '#!/bin/sh\nexit 0\n'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body);
  fs.chmodSync(file, 0o755);
  return file;
}

describe('resolveAgentCommand', () => {
  it('`node` is the runtime, whatever node PATH holds; a node named by path runs as named', () => {
    const dir = tempDir();
    const onPath = executable(path.join(dir, 'usr/bin/node'));
    const runtime = { path: '/opt/arena/node-runtime/bin/node', source: 'shipped' as const };
    const pathEnv = path.join(dir, 'usr/bin');
    expect(resolveAgentCommand(['node', 'agent.mjs', '--x'], pathEnv, dir, { runtime, binDir: null })).toEqual([
      runtime.path,
      'agent.mjs',
      '--x',
    ]);
    expect(resolveAgentCommand([onPath, 'agent.mjs'], pathEnv, dir, { runtime, binDir: null })).toEqual([onPath, 'agent.mjs']);
    // Without a runtime (Electron with none shipped), PATH decides, and a missing node is reported as missing.
    expect(resolveAgentCommand(['node', 'agent.mjs'], pathEnv, dir, { runtime: null, binDir: null })).toEqual([onPath, 'agent.mjs']);
    expect(resolveAgentCommand(['node', 'agent.mjs'], '/nonexistent', dir, { runtime: null, binDir: null })).toBeNull();
  });

  it("the app's launchers run on the runtime; other programs on PATH run as found; a missing one is null", () => {
    const dir = tempDir();
    const bin = path.join(dir, 'app/agents/bin');
    const launcher = executable(path.join(bin, 'arena-agent'), '#!/usr/bin/env node\n');
    const python = executable(path.join(dir, 'usr/bin/python3'));
    const runtime = { path: '/opt/node/bin/node', source: 'engine' as const };
    const pathEnv = [bin, path.join(dir, 'usr/bin')].join(path.delimiter);
    expect(resolveAgentCommand(['arena-agent', 'model'], pathEnv, dir, { runtime, binDir: bin })).toEqual([
      runtime.path,
      launcher,
      'model',
    ]);
    expect(resolveAgentCommand(['arena-agent', 'model'], pathEnv, dir, { runtime: null, binDir: bin })).toEqual([launcher, 'model']);
    expect(resolveAgentCommand(['python3', 'main.py'], pathEnv, dir, { runtime, binDir: bin })).toEqual([python, 'main.py']);
    expect(resolveAgentCommand(['ruby', 'agent.rb'], pathEnv, dir, { runtime, binDir: bin })).toBeNull();
  });
});

describe("the agents' Node runtime", () => {
  it('is the one the shell names, else the engine’s own Node; a bad name is refused, not ignored', () => {
    const dir = tempDir();
    const shipped = executable(path.join(dir, 'node-runtime/bin/node'));
    expect(agentNodeRuntime({ [AGENT_NODE_ENV]: shipped })).toEqual({ path: shipped, source: 'shipped' });
    expect(agentNodeRuntime({})).toEqual({ path: process.execPath, source: 'engine' });
    expect(() => agentNodeRuntime({ [AGENT_NODE_ENV]: 'node' })).toThrow(NodeRuntimeError);
    expect(() => agentNodeRuntime({ [AGENT_NODE_ENV]: path.join(dir, 'missing') })).toThrow(/ARENA_AGENT_NODE must name the Node binary/);
  });

  it('is recorded by version and SHA-256 (a shipped binary is asked for its version)', () => {
    const dir = tempDir();
    const copy = path.join(dir, 'bin/node');
    fs.mkdirSync(path.dirname(copy));
    fs.copyFileSync(process.execPath, copy);
    fs.chmodSync(copy, 0o755);
    const sha256 = createHash('sha256').update(fs.readFileSync(copy)).digest('hex');
    expect(nodeRuntimeRecord({ path: copy, source: 'shipped' })).toEqual({ source: 'shipped', version: process.version, sha256 });
    expect(nodeRuntimeRecord({ path: process.execPath, source: 'engine' })).toMatchObject({ source: 'engine', version: process.version });
  }, 120_000);

  it("the run manifest's agent_host: the runtime and the PATH", () => {
    const record = agentHostRecord({ PATH: '/opt/homebrew/bin:/usr/bin' });
    expect(record).toMatchObject({ path: '/opt/homebrew/bin:/usr/bin', node: { source: 'engine', version: process.version } });
  });

  it('a resume refused over a changed runtime or PATH says which', () => {
    const base = { app: { name: 'local-arena', version: '1' }, agents: [], challenges: [] } as unknown as RunManifest;
    const node = { source: 'engine' as const, version: 'v22.23.3', sha256: 'a'.repeat(64) };
    const before = { ...base, agent_host: { node, path: '/usr/bin' } } as unknown as Record<string, unknown>;
    expect(manifestChange(before, { ...base, agent_host: { node: { ...node, version: 'v24.0.0' }, path: '/usr/bin' } })).toBe(
      "the agents' Node runtime",
    );
    expect(manifestChange(before, { ...base, agent_host: { node, path: '/opt/homebrew/bin:/usr/bin' } })).toBe(
      "the agents' PATH (was /usr/bin, now /opt/homebrew/bin:/usr/bin)",
    );
  });
});

describe('the packaged layout', () => {
  it('a file of the archive is run from its unpacked copy when there is one', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'app.asar'), 'archive');
    fs.mkdirSync(path.join(dir, 'app.asar.unpacked/agents/bin'), { recursive: true });
    expect(outsideArchive(path.join(dir, 'app.asar/agents/bin'))).toBe(path.join(dir, 'app.asar.unpacked/agents/bin'));
    expect(outsideArchive(path.join(dir, 'app.asar/dist/engine'))).toBe(path.join(dir, 'app.asar/dist/engine'));
    expect(outsideArchive('/usr/lib/node')).toBe('/usr/lib/node');
  });

  it('lists the built challenges’ agents when only dist/challenges ships', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'dist/challenges/psi/agents'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'agents'), { recursive: true });
    expect(builtinAgentFolders(dir).map((f) => f.id)).toEqual(['builtin:dist/challenges/psi/agents', 'builtin:agents']);
  });
});
