// The docker profile: the hardened `docker run` argument vector, and a launch through a stand-in docker CLI.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { buildDockerArgv, containerName } from '../../../engine/runner/docker-argv.js';
import { launchAgent } from '../../../engine/runner/launch.js';

const FAKE_DOCKER = path.resolve(import.meta.dirname, '../../fixtures/agents/fake-docker/docker');
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-docker-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const dockerManifest = (image: string, command: string | string[] | null = null) =>
  AgentManifestSchema.parse({
    id: 'boxed-agent',
    name: 'Boxed',
    framework: 'other',
    entrypoint: { type: 'docker', image, command, env: { MODE: 'strict' } },
    runtime: { type: 'container' },
    scenarios: ['fixture-scenario'],
    secrets: ['API_KEY'],
  });

describe('buildDockerArgv', () => {
  it('builds the hardened command with sorted env names, the workspace mount and the command override', () => {
    const argv = buildDockerArgv({
      image: 'ghcr.io/example/agent:1.0',
      command: "python main.py --label 'two words'",
      name: 'arena-m1-agent-t1-0a1b2c3d',
      workspace: '/tmp/runs/m1/agent/t1',
      envNames: ['ARENA_TRIAL_ID', 'ARENA_AGENT_ID', 'MODE'],
      network: 'none',
      user: '1000:1000',
    });
    expect(argv).toEqual([
      'docker',
      'run',
      '--rm',
      '--name',
      'arena-m1-agent-t1-0a1b2c3d',
      '--network',
      'none',
      '--read-only',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--pids-limit',
      '256',
      '--memory',
      '2g',
      '--tmpfs',
      '/tmp:rw,nosuid,nodev,size=64m',
      '--user',
      '1000:1000',
      '--workdir',
      '/workspace',
      '--mount',
      'type=bind,source=/tmp/runs/m1/agent/t1,target=/workspace',
      '--env',
      'ARENA_AGENT_ID',
      '--env',
      'ARENA_TRIAL_ID',
      '--env',
      'MODE',
      'ghcr.io/example/agent:1.0',
      'python',
      'main.py',
      '--label',
      'two words',
    ]);
    expect(argv).not.toContain('--privileged');
    expect(argv).not.toContain('-i');
  });

  it('uses the host network only for loopback launches, quotes odd mount paths and applies custom limits', () => {
    const argv = buildDockerArgv({
      image: 'img',
      command: ['node', 'agent.mjs'],
      name: 'n',
      workspace: '/tmp/a,b',
      envNames: [],
      inlineEnv: { HOME: '/home/agent' },
      network: 'loopback',
      memoryMb: 512,
      pidsLimit: 64,
    });
    expect(argv.slice(argv.indexOf('--network'), argv.indexOf('--network') + 2)).toEqual(['--network', 'host']);
    expect(argv).toContain('type=bind,"source=/tmp/a,b",target=/workspace');
    expect(argv).toEqual(expect.arrayContaining(['--memory', '512m', '--pids-limit', '64', '--env', 'HOME=/home/agent']));
    expect(argv.slice(-3)).toEqual(['img', 'node', 'agent.mjs']);
  });

  it('derives unique container names from docker-safe characters', () => {
    const a = containerName(['20260710T120000Z-scenario-abcd', 'agent', 'trial/../x y']);
    const b = containerName(['20260710T120000Z-scenario-abcd', 'agent', 'trial/../x y']);
    expect(a).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/);
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(63);
  });
});

describe('launchAgent with a docker entrypoint', () => {
  it('runs `docker run` with ARENA_* variables and granted secrets passed by name, never the host environment', async () => {
    const handle = launchAgent({
      manifest: dockerManifest('agent-image', 'python main.py'),
      manifestDir: tempDir(),
      workspaceRoot: tempDir(),
      env: { ARENA_AGENT_ID: 'boxed-agent', ARENA_TRIAL_ID: 'trial-a' },
      hostEnv: { PATH: process.env.PATH, HOME: process.env.HOME, API_KEY: 'granted-key', OTHER_SECRET: 'never' },
      dockerBinary: FAKE_DOCKER,
    });
    const run = await handle.result;
    expect(run.termination).toBe('exited');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('container sees trial trial-a in /workspace\n');
    const recorded = JSON.parse(fs.readFileSync(path.join(run.workspace, 'docker-run.json'), 'utf8'));
    expect(recorded.env).toEqual({
      API_KEY: 'granted-key',
      ARENA_AGENT_ID: 'boxed-agent',
      ARENA_TRIAL_ID: 'trial-a',
      ARENA_WORKSPACE: '/workspace',
      MODE: 'strict',
    });
    expect(recorded.argv.join(' ')).not.toContain('granted-key');
    expect(recorded.argv.join(' ')).not.toContain('never');
    expect(recorded.argv).toContain(`type=bind,source=${run.workspace},target=/workspace`);
    expect(run.isolation.sandbox).toBe('docker');
    expect(run.isolation.rlimits).toBeNull();
  });

  it('kills the named container on timeout', async () => {
    const run = await launchAgent({
      manifest: dockerManifest('hang'),
      manifestDir: tempDir(),
      workspaceRoot: tempDir(),
      hostEnv: { PATH: process.env.PATH },
      dockerBinary: FAKE_DOCKER,
      limits: { timeoutMs: 500, killGraceMs: 300 },
    }).result;
    expect(run.termination).toBe('timeout');
    const name = run.argv[run.argv.indexOf('--name') + 1] as string;
    const marker = path.join(os.tmpdir(), `fake-docker-kill-${name}`);
    for (let i = 0; i < 40 && !fs.existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker, { force: true });
  });

  it('reports a missing image or docker CLI as a launch failure', async () => {
    const noDocker = await launchAgent({
      manifest: dockerManifest('img'),
      manifestDir: tempDir(),
      workspaceRoot: tempDir(),
      hostEnv: { PATH: '/nonexistent' },
      dockerBinary: 'docker-missing-xyz',
    }).result;
    expect(noDocker.termination).toBe('spawn_error');
    expect(noDocker.detail).toContain('[docker-runner] failed to launch container');
  });
});
