// What the OS lets the runner enforce, probed once per engine process: network denial through a new network
// namespace (`unshare`, util-linux) and resource limits through `prlimit` (or a POSIX-shell `ulimit` prefix).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { findExecutable } from './executable.js';

export interface SandboxSupport {
  /** Argument prefix that runs a command without network (e.g. `unshare --user --net --map-current-user --`), or null. */
  networkDenyPrefix: string[] | null;
  prlimit: string | null;
  shell: string | null;
}

let cached: SandboxSupport | undefined;

export function sandboxSupport(): SandboxSupport {
  cached ??= probe();
  return cached;
}

/** Tests use this to exercise the "isolation unavailable" paths. */
export function setSandboxSupportForTests(support: SandboxSupport | undefined): void {
  cached = support;
}

function probe(): SandboxSupport {
  if (process.platform === 'win32') return { networkDenyPrefix: null, prlimit: null, shell: null };
  const cwd = os.tmpdir();
  const pathEnv = process.env.PATH;
  const trueBin = findExecutable('true', pathEnv, cwd);
  const unshare = findExecutable('unshare', pathEnv, cwd);
  let networkDenyPrefix: string[] | null = null;
  if (unshare && trueBin && process.platform === 'linux') {
    // Newest form first: a user namespace makes this work unprivileged, and --map-current-user keeps the uid view.
    const variants = [['--user', '--net', '--map-current-user'], ['--user', '--net'], ...(process.getuid?.() === 0 ? [['--net']] : [])];
    for (const flags of variants) {
      const r = spawnSync(unshare, [...flags, '--', trueBin], { stdio: 'ignore', timeout: 5000 });
      if (r.status === 0) {
        networkDenyPrefix = [unshare, ...flags, '--'];
        break;
      }
    }
  }
  const shell = fs.existsSync('/bin/sh') ? '/bin/sh' : null;
  return { networkDenyPrefix, prlimit: process.platform === 'linux' ? findExecutable('prlimit', pathEnv, cwd) : null, shell };
}

export interface RlimitRequest {
  cpuSeconds: number;
  addressSpaceBytes: number;
  openFiles: number;
  /** Counts every process of the real user, so it is the user's current count plus headroom. */
  processes: number | null;
}

export interface AppliedRlimits extends RlimitRequest {
  method: 'prlimit' | 'ulimit';
}

/** Wraps argv so the limits apply to the agent process before it starts; null when no method is available. */
export function withRlimits(
  argv: string[],
  req: RlimitRequest,
  support: SandboxSupport,
): { argv: string[]; applied: AppliedRlimits } | null {
  if (support.prlimit) {
    const flags = [`--cpu=${req.cpuSeconds}`, `--as=${req.addressSpaceBytes}`, `--nofile=${req.openFiles}`];
    if (req.processes !== null) flags.push(`--nproc=${req.processes}`);
    return { argv: [support.prlimit, ...flags, '--', ...argv], applied: { method: 'prlimit', ...req } };
  }
  if (support.shell) {
    // Each limit is best effort (macOS refuses -v); the agent's arguments stay positional, never re-parsed by the shell.
    const lines = [`ulimit -t ${req.cpuSeconds}`, `ulimit -v ${Math.floor(req.addressSpaceBytes / 1024)}`, `ulimit -n ${req.openFiles}`];
    if (req.processes !== null) lines.push(`ulimit -u ${req.processes}`);
    const script = `${lines.map((l) => `${l} 2>/dev/null`).join('; ')}; exec "$@"`;
    return { argv: [support.shell, '-c', script, 'arena-agent', ...argv], applied: { method: 'ulimit', ...req } };
  }
  return null;
}

/** Number of processes the current user runs now (Linux), or null when it cannot be counted. */
export function userProcessCount(): number | null {
  if (process.platform !== 'linux' || typeof process.getuid !== 'function') return null;
  const uid = process.getuid();
  let count = 0;
  try {
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (fs.statSync(`/proc/${name}`).uid === uid) count++;
      } catch {
        // the process ended while we counted
      }
    }
  } catch {
    return null;
  }
  return count;
}
