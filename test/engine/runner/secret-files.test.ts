// Secret-looking files an agent's own folder holds (`.env`, `.env.*`, an old data directory with secrets/rng.key,
// an arena.sqlite) are unreadable to the agent in the real sandbox, also as the unprivileged user nobody, while its
// other files stay readable; `arena agents validate` warns about each of them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentsCommand } from '../../../engine/cli/commands/agents.js';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { launchAgent } from '../../../engine/runner/launch.js';
import { sandboxSupport } from '../../../engine/runner/sandbox.js';
import { secretLookingPaths } from '../../../engine/runner/secret-files.js';

const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;
const SECRETS = [
  '.env',
  '.env.local',
  'config/.env.production',
  '.arena-old/secrets/rng.key',
  '.arena-old/arena.sqlite',
  'arena.sqlite',
  'secrets/rng.key',
];

let dir: string;
let agentDir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-secret-files-'));
  fs.chmodSync(dir, 0o755);
  agentDir = path.join(dir, 'leaky-agent');
  for (const rel of [...SECRETS, 'agent.py', 'notes/readme.txt']) {
    fs.mkdirSync(path.dirname(path.join(agentDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(agentDir, rel), rel.endsWith('.py') ? READER : `SECRET-${rel}`);
  }
  fs.writeFileSync(
    path.join(agentDir, 'agent.yaml'),
    'id: leaky-agent\nname: Leaky\nframework: python\nprotocol: specarena\nentrypoint:\n  command: ["/usr/bin/python3", "agent.py"]\n',
  );
  for (const d of [agentDir, ...fs.readdirSync(agentDir, { recursive: true }).map((r) => path.join(agentDir, String(r)))])
    fs.chmodSync(d, fs.statSync(d).isDirectory() ? 0o755 : 0o644);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Reads every path of READ_PATHS (relative to its folder) and prints what it got. */
const READER = `import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
out = {}
for rel in os.environ["READ_PATHS"].split(":"):
    try:
        with open(os.path.join(here, rel)) as f:
            out[rel] = f.read()
    except OSError as e:
        out[rel] = "ERR " + e.__class__.__name__
print("READ " + json.dumps(out))
`;

async function readAll(runAs?: { uid: number; gid: number }) {
  const manifest = AgentManifestSchema.parse({
    id: 'leaky-agent',
    name: 'Leaky',
    framework: 'python',
    protocol: 'specarena',
    // In the environment: command arguments naming the agent's files are made absolute.
    entrypoint: { command: ['/usr/bin/python3', 'agent.py'], env: { READ_PATHS: [...SECRETS, 'notes/readme.txt'].join(':') } },
  });
  const workspaceRoot = path.join(dir, 'work');
  fs.mkdirSync(workspaceRoot, { recursive: true, mode: 0o755 });
  const run = await launchAgent({
    manifest,
    manifestDir: agentDir,
    workspaceRoot,
    hostEnv: { PATH: '/usr/bin:/bin' },
    ...(runAs ? { runAs } : {}),
  }).result;
  const line = /READ (.*)/.exec(run.stdout)?.[1];
  if (!line) throw new Error(`no report: ${run.termination} ${run.detail} ${run.stderr}`);
  return JSON.parse(line) as Record<string, string>;
}

describe('secret-looking files in an agent folder', () => {
  it('finds each of them, and nothing else', () => {
    const found = secretLookingPaths(agentDir).map((s) => path.relative(agentDir, s.path));
    expect(found.sort()).toEqual(['.arena-old', '.env', '.env.local', 'arena.sqlite', 'config/.env.production', 'secrets'].sort());
  });

  it.runIf(linuxWithSandbox)('hides them from the agent in its sandbox; its other files stay readable', async () => {
    const got = await readAll();
    for (const rel of SECRETS) expect(got[rel], rel).not.toContain('SECRET');
    expect(got['notes/readme.txt']).toBe('SECRET-notes/readme.txt');
  });

  it.runIf(linuxWithSandbox && process.getuid?.() === 0)('also for the unprivileged user nobody', async () => {
    const got = await readAll({ uid: 65534, gid: 65534 });
    for (const rel of SECRETS) expect(got[rel], rel).not.toContain('SECRET');
    expect(got['notes/readme.txt']).toBe('SECRET-notes/readme.txt');
  });

  it('arena agents validate warns about each, and still passes the agent', async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await agentsCommand(['validate', agentDir])).toBe(0);
    } finally {
      spy.mockRestore();
      out.mockRestore();
    }
    const text = errors.join('');
    expect(text).toMatch(/warning {2}.*\.env: an environment file \(\.env\) in the agent's folder; hidden from the agent/);
    expect(text).toMatch(/\.arena-old: a data directory/);
    expect(errors).toHaveLength(6);
  });
});
