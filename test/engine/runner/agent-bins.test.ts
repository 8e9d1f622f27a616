// `arena-agent` from a manifest anywhere: the runner puts the app's agent launchers first on the agent's PATH (and
// nothing else of the app), so the name resolves without the repo path and whatever the host PATH holds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { agentBinDir, withAgentBins } from '../../../engine/runner/agent-bins.js';
import { launchAgent } from '../../../engine/runner/launch.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bins-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const manifest = (command: string | string[]) =>
  AgentManifestSchema.parse({
    id: 'bins',
    name: 'Bins',
    framework: 'other',
    entrypoint: { type: 'command', command },
    runtime: { type: 'process' },
    scenarios: ['s'],
  });

describe('agent launchers on the agent PATH', () => {
  it('finds agents/bin and puts it first, once, keeping the rest of PATH in order', () => {
    const bin = agentBinDir();
    expect(bin).toBe(path.join(ROOT, 'agents', 'bin'));
    const host = ['/usr/local/bin', '/usr/bin'].join(path.delimiter);
    expect(withAgentBins(host, '/app/agents/bin')).toBe(['/app/agents/bin', '/usr/local/bin', '/usr/bin'].join(path.delimiter));
    expect(withAgentBins(['/app/agents/bin', '/usr/bin'].join(path.delimiter), '/app/agents/bin')).toBe(
      ['/app/agents/bin', '/usr/bin'].join(path.delimiter),
    );
    expect(withAgentBins(undefined, '/app/agents/bin')).toBe('/app/agents/bin');
    expect(withAgentBins(host, null)).toBe(host);
    // Only agent launchers live there: the admin-capable CLI is not reachable by name.
    expect(fs.readdirSync(bin as string)).toEqual(['arena-agent']);
  });

  it('runs `arena-agent` from a manifest outside the repo; the agent PATH is the launchers plus the host PATH', async () => {
    const elsewhere = tempDir();
    const hostPath = path.dirname(process.execPath);
    const help = await launchAgent({
      manifest: manifest('arena-agent --help'),
      manifestDir: elsewhere,
      workspaceRoot: tempDir(),
      hostEnv: { PATH: hostPath },
      limits: { timeoutMs: 10_000 },
    }).result;
    expect(help.termination).toBe('exited');
    expect(help.argv).toContain(path.join(ROOT, 'agents', 'bin', 'arena-agent'));
    expect(help.exitCode, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: arena-agent <kind> \[options\]\nkinds:\n {2}model/);

    const unknown = await launchAgent({
      manifest: manifest(['arena-agent', 'chess']),
      manifestDir: elsewhere,
      workspaceRoot: tempDir(),
      hostEnv: { PATH: hostPath },
      limits: { timeoutMs: 10_000 },
    }).result;
    expect(unknown).toMatchObject({ exitCode: 64, stderr: expect.stringContaining('unknown kind "chess"') });

    const printed = await launchAgent({
      manifest: manifest(['node', '-e', 'console.log(process.env.PATH)']),
      manifestDir: elsewhere,
      workspaceRoot: tempDir(),
      hostEnv: { PATH: hostPath, SECRET_DIR_VAR: '/not/passed' },
      limits: { timeoutMs: 10_000 },
    }).result;
    expect(printed.stdout.trim()).toBe([path.join(ROOT, 'agents', 'bin'), hostPath].join(path.delimiter));
  });
});
