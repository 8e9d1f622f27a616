// The agent launcher against real child processes: environment allow-list, workspace, caps, timeouts, group kill.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAgentDir } from '../../../engine/agents/manifest-loader.js';
import { type AgentManifestInput, AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { type LaunchOptions, launchAgent } from '../../../engine/runner/launch.js';
import { sandboxSupport, setSandboxSupportForTests } from '../../../engine/runner/sandbox.js';
import { stillRunning, watchProcesses } from '../../support/agent-processes.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/agents');
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-runner-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  setSandboxSupportForTests(undefined);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const hostEnv = { PATH: process.env.PATH, HOME: process.env.HOME };

function inline(command: string[], extra: Partial<AgentManifestInput> = {}) {
  return AgentManifestSchema.parse({
    id: 'inline-agent',
    name: 'Inline',
    framework: 'other',
    entrypoint: { type: 'command', command },
    runtime: { type: 'process' },
    scenarios: ['fixture-scenario'],
    ...extra,
  });
}

function launch(options: Partial<LaunchOptions> & Pick<LaunchOptions, 'manifest'>) {
  return launchAgent({ manifestDir: FIXTURES, workspaceRoot: tempDir(), hostEnv, ...options });
}

function fixture(name: string) {
  const agent = loadAgentDir(path.join(FIXTURES, name));
  return { manifest: agent.manifest, manifestDir: agent.dir };
}

/** Alive = the process exists and is not a zombie (this container's init may never reap orphans). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

describe('launchAgent', () => {
  it('passes only the allow-list, manifest env, granted secrets and ARENA_* variables', async () => {
    const env = {
      ...hostEnv,
      LANG: 'C.UTF-8',
      HOST_SECRET: 'host-secret-value-1234',
      GRANTED_SECRET: 'granted-secret-value-5678',
      ARENA_ADMIN_TOKEN: 'admin-token-never-shared',
      NODE_OPTIONS: '--require /nonexistent.js',
    };
    const granted = fixture('secret-reader');
    const run = await launch({ ...granted, hostEnv: env, env: { ARENA_AGENT_ID: 'secret-reader', ARENA_TRIAL_ID: 't' } }).result;
    expect(run.termination).toBe('exited');
    expect(run.exitCode).toBe(0);
    const found = JSON.parse(/FOUND (.*)/.exec(run.stdout)?.[1] ?? 'null');
    expect(found.host).toBeNull();
    expect(found.granted).toBe('granted-secret-value-5678');
    // The sandbox adds its working directory (PWD) and private /tmp (TMPDIR); HOME is the workspace there.
    expect(found.env).toEqual([
      'ARENA_AGENT_ID',
      'ARENA_TRIAL_ID',
      'ARENA_WORKSPACE',
      'GRANTED_SECRET',
      'HOME',
      'LANG',
      'PATH',
      'PWD',
      'TMPDIR',
    ]);
    expect(run.stdout + run.stderr).not.toContain('host-secret-value-1234');
    expect(run.stdout + run.stderr).not.toContain('admin-token-never-shared');

    // The same program without the grant gets nothing.
    const ungranted = { ...granted, manifest: { ...granted.manifest, secrets: [] } };
    const other = await launch({ ...ungranted, hostEnv: env }).result;
    const otherFound = JSON.parse(/FOUND (.*)/.exec(other.stdout)?.[1] ?? 'null');
    expect(otherFound.granted).toBeNull();
    expect(other.stdout).not.toContain('granted-secret-value-5678');
  });

  it('runs in a fresh absolute workspace with stdin at end-of-file and agent-relative paths resolved', async () => {
    const root = tempDir();
    const agentDir = tempDir();
    fs.writeFileSync(
      path.join(agentDir, 'agent.mjs'),
      "process.stdin.on('data', () => {}); process.stdin.on('end', () => console.log(JSON.stringify({ cwd: process.cwd(), ws: process.env.ARENA_WORKSPACE })));",
    );
    const run = await launchAgent({
      manifest: inline(['node', 'agent.mjs']),
      manifestDir: agentDir,
      workspaceRoot: root,
      workspaceName: 'trial-one',
      hostEnv,
      limits: { timeoutMs: 5000 },
    }).result;
    expect(run.termination).toBe('exited');
    const seen = JSON.parse(run.stdout);
    expect(seen.ws).toBe(path.join(root, 'trial-one'));
    expect(fs.realpathSync(seen.cwd)).toBe(fs.realpathSync(seen.ws));
    expect(run.workspace).toBe(seen.ws);

    // A workspace that already has files is refused.
    fs.writeFileSync(path.join(root, 'trial-one', 'leftover'), 'x');
    const again = await launchAgent({
      manifest: inline(['node', 'agent.mjs']),
      manifestDir: agentDir,
      workspaceRoot: root,
      workspaceName: 'trial-one',
      hostEnv,
    }).result;
    expect(again.termination).toBe('spawn_error');
    expect(again.detail).toMatch(/not empty/);
  });

  it('reports a crash with its exit code and stderr', async () => {
    const run = await launch(fixture('crash')).result;
    expect(run.termination).toBe('exited');
    expect(run.exitCode).toBe(1);
    expect(run.signal).toBeNull();
    expect(run.stdout).toContain('ARENA_ACTION_ATTEMPT: ');
    expect(run.stderrTail).toContain('fixture crash');
  });

  it('times out a hanging agent, keeps its partial stdout and leaves nothing running', async () => {
    const handle = launch({ ...fixture('hang'), limits: { timeoutMs: 600, killGraceMs: 500 } });
    const run = await handle.result;
    expect(run.termination).toBe('timeout');
    // The agent got the SIGTERM inside its sandbox; the sandbox reports that as 128 + 15.
    expect(run.exitCode).toBe(143);
    expect(run.signal).toBeNull();
    expect(run.killedExternally).toBe(false);
    expect(run.durationMs).toBeGreaterThanOrEqual(600);
    expect(run.durationMs).toBeLessThan(3000);
    expect(run.stdout).toContain('ARENA_ACTION_ATTEMPT: ');
    expect(alive(handle.pid as number)).toBe(false);
  });

  it('kills a grandchild that ignores SIGTERM when the agent exits and leaves it behind', async () => {
    const handle = launch({ ...fixture('grandchild'), limits: { timeoutMs: 10_000 } });
    const watch = watchProcesses(() => `ARENA_WORKSPACE=${handle.workspace}`);
    const run = await handle.result;
    const seen = watch.stop();
    const [, , grandchild] = /PIDS (\d+) (\d+)/.exec(run.stdout)?.map(Number) ?? [];
    expect(grandchild).toBeGreaterThan(0);
    expect(run.termination).toBe('exited');
    expect(run.exitCode).toBe(0);
    expect(run.durationMs).toBeLessThan(5000);
    // Host pids: the sandbox's two bubblewrap processes, the agent and its grandchild.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(stillRunning(seen)).toEqual([]);
    expect(alive(handle.pid as number)).toBe(false);
  });

  it('without a PID namespace (a trusted folder) the sweep kills what left the group: a setsid process, an orphan', async () => {
    const script = [
      "const { spawn } = require('child_process');",
      // Not a group leader, so setsid(1) does not fork: the sleep stays a descendant, in a session of its own.
      "spawn('setsid', ['sleep', '30'], { stdio: 'ignore' }).unref();",
      "spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }).unref();",
      'setTimeout(() => process.exit(0), 400);',
    ].join(' ');
    const handle = launch({ manifest: inline(['node', '-e', script]), trusted: true });
    const watch = watchProcesses(() => `ARENA_WORKSPACE=${handle.workspace}`);
    const run = await handle.result;
    const seen = watch.stop();
    expect(run.isolation).toMatchObject({ method: 'none', pid: 'host', trusted: true });
    expect(run.exitCode).toBe(0);
    // The agent, the setsid'd sleep and the orphaned node, by host pid.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(stillRunning(seen)).toEqual([]);
  });

  it('on timeout escalates to SIGKILL for a whole group that ignores SIGTERM', async () => {
    const base = fixture('grandchild');
    const manifest = { ...base.manifest, entrypoint: { ...base.manifest.entrypoint, command: 'node agent.mjs hang' } };
    const handle = launch({ manifest, manifestDir: base.manifestDir, limits: { timeoutMs: 700, killGraceMs: 400 } });
    const watch = watchProcesses(() => `ARENA_WORKSPACE=${handle.workspace}`);
    const run = await handle.result;
    const seen = watch.stop();
    expect(run.stdout).toMatch(/PIDS (\d+) (\d+)/);
    expect(run.termination).toBe('timeout');
    expect(run.signal).toBe('SIGKILL');
    expect(run.durationMs).toBeGreaterThanOrEqual(1000);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(stillRunning(seen)).toEqual([]);
  });

  it('drains a 100 MB stdout flood with bounded memory and records the truncation', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const run = await launch({ ...fixture('flood'), limits: { timeoutMs: 30_000 } }).result;
    clearInterval(sampler);
    expect(run.termination).toBe('exited');
    expect(run.exitCode).toBe(0);
    expect(run.stdoutBytes).toBeGreaterThan(100 * 1024 * 1024);
    expect(run.stdoutTruncated).toBe(true);
    expect(run.truncated).toBe(true);
    expect(Buffer.byteLength(run.stdout)).toBe(4 * 1024 * 1024);
    expect(run.stdout.startsWith('ARENA_ACTION_ATTEMPT: ')).toBe(true);
    expect(run.stdoutTail).toContain('"tool":"fs.write"');
    expect(run.stdoutTail.length).toBeLessThanOrEqual(64 * 1024);
    // Holding 100 MB (or twice that as strings) would show here; the caps keep the runner to a few MB.
    expect(peak - before).toBeLessThan(80 * 1024 * 1024);
  });

  it('kills the run once a total output limit is exceeded', async () => {
    const handle = launch({
      ...fixture('flood'),
      limits: { outputLimitBytes: 2 * 1024 * 1024, stdoutBytes: 1024 * 1024, killGraceMs: 500 },
    });
    const run = await handle.result;
    expect(run.termination).toBe('output_limit');
    expect(run.stdoutBytes).toBeLessThan(100 * 1024 * 1024);
    expect(alive(handle.pid as number)).toBe(false);
  });

  it('cancels through an AbortSignal and through stop()', async () => {
    const controller = new AbortController();
    const first = launch({ ...fixture('hang'), signal: controller.signal, limits: { killGraceMs: 300 } });
    setTimeout(() => controller.abort(), 300);
    const run = await first.result;
    expect(run.termination).toBe('cancelled');
    expect(alive(first.pid as number)).toBe(false);

    const second = launch({ ...fixture('hang'), limits: { killGraceMs: 300 } });
    setTimeout(() => second.stop(), 300);
    expect((await second.result).termination).toBe('cancelled');

    const aborted = new AbortController();
    aborted.abort();
    expect((await launch({ ...fixture('hang'), signal: aborted.signal }).result).termination).toBe('cancelled');
  });

  it('reports a program that does not exist as a launch failure', async () => {
    const run = await launch({ manifest: inline(['definitely-not-a-program-xyz', '--version']) }).result;
    expect(run.termination).toBe('spawn_error');
    expect(run.detail).toContain("No such file or directory: 'definitely-not-a-program-xyz'");
    expect(run.exitCode).toBeNull();
  });

  it('applies rlimits before the agent starts and records them', async () => {
    const run = await launch({
      manifest: inline(['sh', '-c', 'cat /proc/self/limits']),
      limits: { cpuSeconds: 77, openFiles: 321, memoryMb: 4096 },
    }).result;
    if (!sandboxSupport().prlimit) {
      expect(run.isolation.rlimits?.method ?? 'none').not.toBe('prlimit');
      return;
    }
    expect(run.isolation.rlimits).toMatchObject({
      method: 'prlimit',
      cpuSeconds: 77,
      openFiles: 321,
      addressSpaceBytes: 4096 * 1024 * 1024,
    });
    expect(run.stdout).toMatch(/Max cpu time\s+77\s+77/);
    expect(run.stdout).toMatch(/Max open files\s+321\s+321/);
    expect(run.stdout).toMatch(new RegExp(`Max address space\\s+${4096 * 1024 * 1024}`));
  });

  it('enforces the manifest memory limit (a 1 GiB allocation fails under 256 MB)', async () => {
    const run = await launch({ ...fixture('memory-hog'), limits: { timeoutMs: 10_000 } }).result;
    if (!run.isolation.rlimits) return;
    expect(run.isolation.rlimits.addressSpaceBytes).toBe(256 * 1024 * 1024);
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('MemoryError');
  });

  it('records peak memory of the process tree', async () => {
    const script = 'const b = Buffer.alloc(80 * 1024 * 1024, 1); setTimeout(() => console.log(b.length), 400);';
    const run = await launch({ manifest: inline(['node', '-e', script]) }).result;
    expect(run.exitCode).toBe(0);
    if (process.platform === 'linux') expect(run.peakRssKb).toBeGreaterThan(80 * 1024);
  });

  it('records the peak memory of a short-lived agent (it holds its peak for a tenth of a second, then exits)', async () => {
    // The watcher looks at least every 50 ms during a launch's first two seconds, and one look keeps a process's own
    // high-water mark: a peak held this long is always seen, even with timers running late on a loaded machine. (A
    // peak held for a millisecond right before exit can fall between looks; no /proc file keeps it after the exit.)
    const script = 'const b = Buffer.alloc(60 * 1024 * 1024, 1); setTimeout(() => console.log(b.length), 120);';
    for (const trusted of [true, false]) {
      const run = await launch({ manifest: inline(['node', '-e', script]), trusted }).result;
      expect(run.exitCode).toBe(0);
      // Node alone is ~40 MiB resident; with the buffer well over 60 MiB. The wrapper alone would be a few MiB.
      if (process.platform === 'linux')
        expect({ trusted, over60MiB: (run.peakRssKb ?? 0) > 60 * 1024 }).toEqual({ trusted, over60MiB: true });
    }
  });

  it('denies the network where the OS allows it, and keeps loopback on request', async () => {
    const server = net.createServer((socket) => socket.end('hi'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const script = `const s = require('net').connect(${port}, '127.0.0.1'); s.on('data', () => { console.log('CONNECTED'); process.exit(0); }); s.on('error', (e) => { console.log('FAILED ' + e.code); process.exit(0); });`;
    try {
      const open = await launch({ manifest: inline(['node', '-e', script]), network: 'loopback' }).result;
      expect(open.stdout).toContain('CONNECTED');
      expect(open.isolation.network).toBe('loopback');
      const denied = await launch({ manifest: inline(['node', '-e', script]), network: 'none' }).result;
      if (sandboxSupport().networkDenyPrefix) {
        expect(denied.isolation.network).toBe('none');
        expect(denied.stdout).toContain('FAILED');
      } else {
        expect(denied.isolation.network).toBe('unavailable');
      }
    } finally {
      server.close();
    }
  });

  it('records unavailable network isolation of a trusted agent, and refuses to run when isolation is required', async () => {
    setSandboxSupportForTests({ networkDenyPrefix: null, prlimit: null, shell: null });
    const run = await launch({ manifest: inline(['node', '-e', 'console.log(1)']), trusted: true }).result;
    expect(run.isolation.network).toBe('unavailable');
    expect(run.isolation).toMatchObject({ method: 'none', filesystem: 'host', pid: 'host', trusted: true });
    expect(run.isolation.rlimits).toBeNull();
    expect(run.exitCode).toBe(0);
    const refused = await launch({ manifest: inline(['node', '-e', 'console.log(1)']), trusted: true, requireNetworkIsolation: true })
      .result;
    expect(refused.termination).toBe('spawn_error');
    expect(refused.detail).toBe('network isolation unavailable');
  });

  it('falls back to a POSIX-shell ulimit prefix without prlimit', async () => {
    setSandboxSupportForTests({ networkDenyPrefix: null, prlimit: null, shell: '/bin/sh' });
    const run = await launch({
      manifest: inline(['sh', '-c', 'ulimit -n; ulimit -t']),
      limits: { openFiles: 200, cpuSeconds: 50 },
      trusted: true,
    }).result;
    expect(run.isolation.rlimits?.method).toBe('ulimit');
    expect(run.stdout.trim().split('\n')).toEqual(['200', '50']);
  });
});
