// Seats cannot use up each other's resources (issue 42 item 2), against real hostile agents in the real bubblewrap
// sandbox (test/fixtures/agents/seat-hog): a seat that takes every thread or process it can and holds them does not
// stop the next seat from starting and playing; several processes ballooning past the seat's memory total are
// stopped; /tmp, a workspace file and the workspace's total (many small files) stop at their sizes. With the seat's cgroup (root here) and with the fallback an
// unprivileged engine gets (RLIMIT_NPROC in the seat's own user namespace), run as the unprivileged user `nobody`.
// A sandbox that cannot even start is the harness's failure, never the seat's, and an agent cannot fake one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { formatIssues } from '../../../engine/contract/schema-issues.js';
import { type LaunchOptions, type LaunchResult, launchAgent } from '../../../engine/runner/launch.js';
import { sandboxSupport, setSandboxSupportForTests } from '../../../engine/runner/sandbox.js';
import { cgroupSupport, setCgroupSupportForTests } from '../../../engine/runner/seat-cgroup.js';
import { exitVerdict } from '../../../engine/tournaments/launch/seat-launch.js';

const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/agents/seat-hog');
const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;
const root = process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };

let dir: string;
let agentDir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-seats-'));
  fs.chmodSync(dir, 0o755);
  // A copy nobody can read, wherever the checkout lives.
  agentDir = path.join(dir, 'agent');
  fs.cpSync(FIXTURE, agentDir, { recursive: true });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => setCgroupSupportForTests(undefined));

function manifest(command: string[], env: Record<string, string> = {}, limits: Record<string, number> = {}) {
  return AgentManifestSchema.parse({
    id: 'seat-hog',
    name: 'Seat hog',
    framework: 'python',
    protocol: 'specarena',
    entrypoint: { command, env },
    limits,
  });
}

function launch(extra: Partial<LaunchOptions> & Pick<LaunchOptions, 'manifest'>) {
  const workspaceRoot = path.join(dir, 'work');
  fs.mkdirSync(workspaceRoot, { recursive: true, mode: 0o755 });
  return launchAgent({ manifestDir: agentDir, workspaceRoot, hostEnv: { PATH: '/usr/bin:/bin' }, limits: { timeoutMs: 60_000 }, ...extra });
}

/** Starts a hog and resolves with its report once it holds everything it could get. */
function startHog(mode: string, limits: Record<string, number>, runAs?: { uid: number; gid: number }) {
  let onReport: (line: string) => void = () => {};
  const reported = new Promise<string>((resolve) => {
    onReport = resolve;
  });
  let text = '';
  const handle = launch({
    manifest: manifest(['/usr/bin/python3', 'hog.py', mode], { CAP: '3000', HOLD_SECONDS: '60' }, limits),
    ...(runAs ? { runAs } : {}),
    onStderr: (chunk) => {
      text += chunk.toString();
      const line = /EXHAUSTED .*\n/.exec(text)?.[0];
      if (line) onReport(line.trim());
    },
  });
  return { handle, reported: Promise.race([reported, handle.result.then((r) => `ENDED ${r.termination} ${r.detail} ${r.stderr}`)]) };
}

const VICTIM = ['/usr/bin/python3', '-c', "import subprocess, threading; subprocess.run(['/bin/true'], check=True); print('VICTIM OK')"];

/** The hog takes all it may of `mode` and holds it; the victim launched after it must start and finish cleanly. */
async function hogThenVictim(mode: 'threads' | 'processes', runAs?: { uid: number; gid: number }) {
  const hog = startHog(mode, { processes: 64 }, runAs);
  const report = await hog.reported;
  try {
    const victim: LaunchResult = await launch({ manifest: manifest(VICTIM), ...(runAs ? { runAs } : {}) }).result;
    return { report, victim, hogIsolation: hog.handle.isolation };
  } finally {
    hog.handle.stop();
    await hog.handle.result;
  }
}

/** The hog stopped at its own seat's limit (64 tasks, the interpreter's own threads included), not at its cap. */
function expectContained(report: string): void {
  const [, , amount, why] = report.split(' ');
  expect(why, report).not.toBe('cap');
  expect(Number(amount)).toBeLessThan(64);
}

function expectVictimPlayed(victim: LaunchResult): void {
  expect({ termination: victim.termination, exitCode: victim.exitCode, detail: victim.detail }).toEqual({
    termination: 'exited',
    exitCode: 0,
    detail: null,
  });
  expect(victim.stdout).toContain('VICTIM OK');
  expect(exitVerdict(1, victim)).toBe('clean');
}

describe('seat limits in a manifest', () => {
  it('refuses a value past the ceiling, naming the field; takes one within it', () => {
    const base = { id: 'greedy', name: 'Greedy', framework: 'python', protocol: 'specarena', entrypoint: { command: ['x'] } };
    const refused = AgentManifestSchema.safeParse({
      ...base,
      limits: { processes: 1e9, seat_memory_mb: 1e14, tmp_mb: 0, workspace_mb: 65_537 },
    });
    expect(refused.success).toBe(false);
    const problems = refused.success ? [] : formatIssues(refused.error);
    expect(problems.join('\n')).toMatch(/limits\.processes: .*at most 16384/);
    expect(problems.join('\n')).toMatch(/limits\.seat_memory_mb: .*at most 65536/);
    expect(problems.join('\n')).toMatch(/limits\.tmp_mb/);
    expect(problems.join('\n')).toMatch(/limits\.workspace_mb: .*at most 65536/);
    expect(AgentManifestSchema.parse({ ...base, limits: { processes: 64, tmp_mb: 16 } }).limits).toMatchObject({
      processes: 64,
      tmp_mb: 16,
    });
  });
});

describe.runIf(linuxWithSandbox)('per-seat accounting against hostile seats', () => {
  describe.runIf(cgroupSupport().support !== null)('with a cgroup per seat', () => {
    it('a seat holding every thread it can get does not stop the next seat', async () => {
      const { report, victim, hogIsolation } = await hogThenVictim('threads');
      expect(hogIsolation.seat?.accounting).toMatch(/^cgroup-v[12]$/);
      expect(hogIsolation.seat?.processes).toBe(64);
      expectContained(report);
      expectVictimPlayed(victim);
    });

    it('the same for processes, as the unprivileged user nobody', async () => {
      const { report, victim } = await hogThenVictim('processes', NOBODY);
      expectContained(report);
      expectVictimPlayed(victim);
    });

    it("several processes ballooning past the seat's memory total are stopped", async () => {
      // Three processes of 160 MB against a 256 MB seat: at most one can hold its share.
      const run = await launch({
        manifest: manifest(['/usr/bin/python3', 'hog.py', 'memory'], { PROCS: '3', MB: '160' }, { seat_memory_mb: 256 }),
      }).result;
      expect(run.isolation.seat).toMatchObject({ memoryMb: 256 });
      const held = Number(/EXHAUSTED memory (\d+)/.exec(run.stderr)?.[1]);
      expect(run.stderr).toContain('EXHAUSTED memory');
      expect(held).toBeLessThan(3);
      expect(held).toBeGreaterThanOrEqual(0);
    });

    it('the memory total holds for nobody too', async () => {
      const run = await launch({
        manifest: manifest(['/usr/bin/python3', 'hog.py', 'memory'], { PROCS: '3', MB: '160' }, { seat_memory_mb: 256 }),
        runAs: NOBODY,
      }).result;
      expect(Number(/EXHAUSTED memory (\d+)/.exec(run.stderr)?.[1])).toBeLessThan(3);
    });

    it("a sandbox that cannot start for want of processes is a harness error, not the seat's", async () => {
      // One task for the whole seat: bubblewrap's own clone of the namespace fails with EAGAIN, before any agent code.
      const run = await launch({ manifest: manifest(VICTIM), limits: { timeoutMs: 60_000, seat: { processes: 1 } } }).result;
      expect(run.termination).toBe('spawn_error');
      expect(run.harnessError).toBe(true);
      expect(run.detail).toMatch(/sandbox could not start.*Resource temporarily unavailable/);
      expect(exitVerdict(0, run)).toMatchObject({ termination: 'harness_error', faultedSeats: [] });
    });
  });

  describe("without cgroups (the fallback: RLIMIT_NPROC in the seat's own user namespace)", () => {
    it.runIf(root)('a thread hog run as nobody does not stop the next seat of the same user', async () => {
      setCgroupSupportForTests({ support: null, why: 'forced by the test' });
      const { report, victim, hogIsolation } = await hogThenVictim('threads', NOBODY);
      expect(hogIsolation.seat).toMatchObject({ accounting: 'user-namespace', processes: 64, memoryMb: null });
      expectContained(report);
      expectVictimPlayed(victim);
    });

    it.runIf(!root)('a thread hog does not stop the next seat of the same user', async () => {
      setCgroupSupportForTests({ support: null, why: 'forced by the test' });
      const { report, victim } = await hogThenVictim('threads');
      expectContained(report);
      expectVictimPlayed(victim);
    });
  });

  it('/tmp stops at its size, a workspace file at its limit', async () => {
    const tmp = await launch({
      manifest: manifest(['/usr/bin/python3', 'hog.py', 'tmp'], { CAP: '200' }, { tmp_mb: 16, workspace_mb: 64 }),
    }).result;
    expect(tmp.isolation.seat).toMatchObject({ tmpMb: 16, fileMb: 64 });
    expect(tmp.stderr).toMatch(/EXHAUSTED tmp 1[56] OSError_28\b/);
    const workspace = await launch({
      manifest: manifest(['/usr/bin/python3', 'hog.py', 'workspace'], { CAP: '200' }, { workspace_mb: 8 }),
      ...(root ? { runAs: NOBODY } : {}),
    }).result;
    expect(workspace.stderr).toMatch(/EXHAUSTED workspace 8 OSError_27\b/);
  });

  it.each([
    ['the engine’s user', undefined],
    ['nobody', NOBODY],
  ])('many small files stop at the workspace’s total, in memory, never on the disk (as %s); the next seat plays', async (_, who) => {
    const runAs = who && root ? { runAs: who } : {};
    // 1 MiB files, far below the largest file the seat may write (64 MiB), against a 16 MiB workspace.
    const hog = await launch({
      manifest: manifest(['/usr/bin/python3', 'hog.py', 'files'], { CAP: '200' }, { workspace_mb: 16 }),
      ...runAs,
    }).result;
    expect(hog.isolation.seat).toMatchObject({ workspaceMb: 16 });
    expect(hog.stderr).toMatch(/EXHAUSTED files 1[56] OSError_28\b/);
    // The host folder never held a byte of it.
    expect(fs.readdirSync(hog.workspace)).toEqual([]);
    expect(exitVerdict(1, hog)).toBe('clean');
    const victim = await launch({ manifest: manifest(VICTIM), ...runAs }).result;
    expectVictimPlayed(victim);
  });

  it('without a sizeable tmpfs the workspace is the host folder and the record says its total is not enforced', async () => {
    setSandboxSupportForTests({ ...sandboxSupport(), bwrapTmpfsSize: false });
    try {
      const run = await launch({
        manifest: manifest(['/usr/bin/python3', 'hog.py', 'files'], { CAP: '3' }, { workspace_mb: 16 }),
      }).result;
      expect(run.isolation.seat).toMatchObject({ workspaceMb: null, tmpMb: null });
      expect(run.stderr).toMatch(/EXHAUSTED files 3 cap/);
      expect(fs.readdirSync(run.workspace).sort()).toEqual(['part-0', 'part-1', 'part-2']);
    } finally {
      setSandboxSupportForTests(undefined);
    }
  });

  it('an agent that prints what a failed sandbox prints is still blamed for its own exit', async () => {
    const forged = [
      '/usr/bin/python3',
      '-c',
      "import sys; sys.stderr.write('bwrap: Creating new namespace failed: Resource temporarily unavailable\\n'); sys.exit(1)",
    ];
    const run = await launch({ manifest: manifest(forged) }).result;
    expect({ termination: run.termination, harnessError: run.harnessError, exitCode: run.exitCode }).toEqual({
      termination: 'exited',
      harnessError: false,
      exitCode: 1,
    });
    expect(exitVerdict(0, run)).toMatchObject({ termination: 'agent_crash', faultedSeats: [0] });
  });
});
