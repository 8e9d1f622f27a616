// The cgroup v2 path of the per-seat accounting, on a real cgroup2 hierarchy. This machine is a v1/hybrid host: its
// pids and memory controllers belong to v1 hierarchies, so a cgroup2 mount (made here in a private mount namespace, as
// root) offers only what v1 left free (hugetlb here). What that proves for real: an engine whose delegated cgroup holds
// its own process cannot hand a domain controller down (EBUSY, the "no internal process" rule) until it has moved into
// a leaf of its own, which delegateControllers does; where other processes share its cgroup it gives up and moves
// back; a seat joins its cgroup with the real join prefix. What only a v2 host with pids and memory can prove (pids.max
// and memory.max holding a hostile seat) is in docs/sandbox-limits.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCgroupFile, parseMountInfo } from '../../../engine/runner/seat-cgroup.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MODULE = path.join(ROOT, 'dist/engine/runner/seat-cgroup.js');

/** Runs in its own mount namespace with cgroup2 mounted at argv[2]; prints what it saw as JSON. */
const SCRIPT = `
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
const { delegateControllers, joinPrefix } = await import(process.argv[2]);
const mnt = process.argv[3];
const read = (file) => fs.readFileSync(file, 'utf8').trim();
const controller = read(path.join(mnt, 'cgroup.controllers')).split(/\\s+/).find(Boolean);
const seen = { controller };
const engine = path.join(mnt, 'arena-v2-test-' + process.pid);
// The root hands the controller down (as a v2 host's root hands pids and memory to the slices under it); undone below.
const rootHad = read(path.join(mnt, 'cgroup.subtree_control')).split(' ').includes(controller);
if (controller) fs.writeFileSync(path.join(mnt, 'cgroup.subtree_control'), '+' + controller);
fs.mkdirSync(engine);
try {
  // The engine in a delegated (non-root) cgroup of its own.
  fs.writeFileSync(path.join(engine, 'cgroup.procs'), String(process.pid));
  try {
    fs.writeFileSync(path.join(engine, 'cgroup.subtree_control'), '+' + controller);
    seen.direct = 'enabled';
  } catch (error) {
    seen.direct = error.code;
  }
  seen.delegated = delegateControllers(engine, [controller]);
  seen.subtree = read(path.join(engine, 'cgroup.subtree_control'));
  seen.leafProcs = read(path.join(engine, 'arena-engine-' + process.pid, 'cgroup.procs')).split('\\n');
  const seat = path.join(engine, 'arena-seat-' + process.pid + '-1');
  fs.mkdirSync(seat);
  const prefix = joinPrefix('/bin/sh', { kind: 'cgroup-v2', dirs: [seat] });
  seen.joined = execFileSync(prefix[0], [...prefix.slice(1), '/bin/cat', '/proc/self/cgroup'], { encoding: 'utf8' });
  fs.rmdirSync(seat);
  // Back to the root, the test cgroup empty again.
  fs.writeFileSync(path.join(mnt, 'cgroup.procs'), String(process.pid));
  fs.rmdirSync(path.join(engine, 'arena-engine-' + process.pid));
  fs.writeFileSync(path.join(engine, 'cgroup.subtree_control'), '-' + controller);

  // Shared with another process: nothing is enabled, the engine is back where it was, no leaf is left.
  const other = spawn('/bin/sleep', ['30']);
  fs.writeFileSync(path.join(engine, 'cgroup.procs'), String(other.pid));
  fs.writeFileSync(path.join(engine, 'cgroup.procs'), String(process.pid));
  seen.shared = delegateControllers(engine, [controller]);
  seen.sharedProcs = read(path.join(engine, 'cgroup.procs')).split('\\n').sort();
  seen.sharedLeft = fs.readdirSync(engine).filter((n) => n.startsWith('arena-'));
  seen.other = other.pid;
  fs.writeFileSync(path.join(mnt, 'cgroup.procs'), String(process.pid));
  fs.writeFileSync(path.join(mnt, 'cgroup.procs'), String(other.pid));
  other.kill();
} finally {
  fs.writeFileSync(path.join(mnt, 'cgroup.procs'), String(process.pid));
  for (const name of fs.readdirSync(engine)) if (name.startsWith('arena-')) try { fs.rmdirSync(path.join(engine, name)); } catch {}
  fs.rmdirSync(engine);
  if (controller && !rootHad) fs.writeFileSync(path.join(mnt, 'cgroup.subtree_control'), '-' + controller);
}
console.log(JSON.stringify({ ...seen, pid: process.pid }));
`;

const root = process.getuid?.() === 0;
let dir: string;

/** A real cgroup2 mount in a private mount namespace; null when this machine cannot make one. */
function inCgroup2(): { status: number | null; stdout: string; stderr: string } {
  const mnt = path.join(dir, 'cg2');
  fs.mkdirSync(mnt, { recursive: true });
  const script = path.join(dir, 'v2.mjs');
  fs.writeFileSync(script, SCRIPT);
  const shell = `mount -t cgroup2 none "$1" && exec "$2" "$3" "$4" "$1"`;
  return spawnSync('unshare', ['-m', '--propagation', 'private', '/bin/sh', '-c', shell, 'v2', mnt, process.execPath, script, MODULE], {
    encoding: 'utf8',
    timeout: 60_000,
  });
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-cg2-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('cgroup v2 membership files', () => {
  it('finds the engine’s v2 cgroup inside a cgroup namespace (a mount whose root is a sub-cgroup)', () => {
    const mounts = parseMountInfo(
      '30 25 0:26 /system.slice/arena.service /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n' +
        '31 25 0:27 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n',
    );
    expect(mounts).toEqual([
      { root: '/system.slice/arena.service', point: '/sys/fs/cgroup', type: 'cgroup2', options: ['rw', 'nsdelegate'] },
      { root: '/', point: '/sys/fs/cgroup/pids', type: 'cgroup', options: ['rw', 'pids'] },
    ]);
    expect(parseCgroupFile('0::/system.slice/arena.service\n8:pids:/\n').get('')).toBe('/system.slice/arena.service');
  });
});

describe.runIf(process.platform === 'linux' && root && fs.existsSync(MODULE))('cgroup v2 delegation on a real cgroup2 hierarchy', () => {
  it('moves the engine into a leaf to hand a domain controller down, gives up when shared, and seats join', () => {
    const run = inCgroup2();
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
    if (!seen.controller) return; // every controller taken by v1: nothing to delegate here
    // The kernel's rule, shown directly: a cgroup holding a process cannot enable a domain controller for children.
    expect(seen.direct).toBe('EBUSY');
    expect(seen.delegated).toBe(true);
    expect(seen.subtree).toBe(seen.controller);
    expect(seen.leafProcs).toEqual([String(seen.pid)]);
    expect(seen.joined).toContain(`0::/arena-v2-test-${seen.pid}/arena-seat-${seen.pid}-1`);
    expect(seen.shared).toBe(false);
    expect(seen.sharedProcs).toEqual([String(seen.pid), String(seen.other)].sort());
    expect(seen.sharedLeft).toEqual([]);
  });
});
