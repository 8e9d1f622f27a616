// Trusted agents run without a PID namespace, so nothing ends them when their engine is killed: each carries its
// engine's identity in its environment (ARENA_SUPERVISOR) and the next engine start ends those whose engine is gone.
// The reaper runs here in a private PID namespace (it must see only this test's processes), as root and as an
// unprivileged uid, against real processes: an orphaned agent tree with a daemon in a session of its own, a mark whose
// pid now runs something else, a live engine's agents, another namespace's, and (for the unprivileged reaper) another
// user's it cannot read. The end-to-end case, a real `arena run` killed with -9, is in engine-death.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPERVISOR_ENV, supervisorMark } from '../../../engine/runner/orphan-host-agents.js';
import { ROOT, tempDir } from '../tournaments/helpers.js';

const root = typeof process.getuid === 'function' && process.getuid() === 0;
const SCRIPT = path.join(ROOT, 'test/fixtures/host-orphans/reap-in-namespace.mjs');
let dir: string;

beforeAll(() => {
  if (!root) return;
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/runner/orphan-host-agents.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  // A world-readable copy of the compiled reaper: the unprivileged uid may not be able to read this checkout.
  dir = tempDir('arena-host-orphans-');
  fs.chmodSync(dir, 0o755);
  for (const file of ['orphan-host-agents.js', 'engine-identity.js', 'process-tree.js'])
    fs.copyFileSync(path.join(ROOT, 'dist/engine/runner', file), path.join(dir, file));
  fs.copyFileSync(SCRIPT, path.join(dir, 'reap.mjs'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  for (const name of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, name), 0o644);
}, 250_000);
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  uid: number;
  mark: string;
  before: string[];
  ended: number;
  again: number;
  after: string[];
}

function reapInNamespace(asNobody: boolean): Outcome {
  const node = `${process.execPath} ${dir}/reap.mjs ${dir}`;
  // As nobody, beside a root-owned process whose mark names a supervisor that is not running.
  const inner = asNobody
    ? `${SUPERVISOR_ENV}=999999:1:$(readlink /proc/self/ns/pid | tr -dc 0-9) sleep 307 & exec setpriv --reuid=65534 --regid=65534 --clear-groups ${node}`
    : `exec ${node}`;
  const result = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', '/bin/sh', '-c', inner], { encoding: 'utf8', timeout: 30_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as Outcome;
}

describe.runIf(process.platform === 'linux' && root)('trusted-agent processes an engine that was killed left running', () => {
  it.each([
    { who: 'the engine user', asNobody: false },
    { who: 'an unprivileged uid (setpriv)', asNobody: true },
  ])(
    'the next engine start ends them, and only them ($who)',
    ({ asNobody }) => {
      const outcome = reapInNamespace(asNobody);
      expect(outcome.uid).toBe(asNobody ? 65534 : 0);
      // The reaper is PID 1 of its namespace; its mark is pid, start time and namespace.
      expect(outcome.mark).toMatch(/^1:\d+:\d+$/);
      const planted = ['1000', '300', '301', '302', '303', '304', '305', '306', ...(asNobody ? ['307'] : [])];
      expect(outcome.before).toEqual(planted.sort());
      // The dead supervisor's tree (its daemon too) and the reused pid's process: four, each ended once.
      expect(outcome.ended).toBe(4);
      expect(outcome.again).toBe(0);
      // Left alone: a live engine's agents, another namespace's, and another user's it may not read.
      expect(outcome.after).toEqual(['304', '305', '306', ...(asNobody ? ['307'] : [])]);
    },
    40_000,
  );

  it('marks this engine as pid, start time and PID namespace', () => {
    const mark = supervisorMark();
    const [pid, startTime, namespace] = (mark ?? '').split(':');
    expect(Number(pid)).toBe(process.pid);
    const stat = fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    expect(startTime).toBe(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    expect(fs.readlinkSync('/proc/self/ns/pid')).toBe(`pid:[${namespace}]`);
  });
});
