// What the OS lets the runner enforce, probed once per engine process: the OS sandbox (bubblewrap on Linux, with
// arena-forward or socat for the forwarded endpoints; sandbox-exec on macOS), network denial for trusted agents through
// a new network namespace (`unshare`, util-linux) and resource limits through `prlimit` (or a POSIX-shell `ulimit`
// prefix).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { findExecutable } from './executable.js';
import { builtForwarder } from './forwarder-tool.js';

export interface SandboxSupport {
  /** Argument prefix that runs a command without network (e.g. `unshare --user --net --map-current-user --`), or null. */
  networkDenyPrefix: string[] | null;
  prlimit: string | null;
  shell: string | null;
  /** bubblewrap when it can create a sandbox here (Linux). */
  bwrap?: string | null;
  /** bubblewrap takes `--size` for a tmpfs (0.9, or a distribution's backport): the seat's /tmp gets a size. */
  bwrapTmpfsSize?: boolean;
  /** Why the OS sandbox cannot start here, naming the fix; null when it can. */
  sandboxProblem?: string | null;
  /** The app's own forwarder (forwarder-tool.ts), which serves the forwarded endpoints inside a Linux sandbox. */
  arenaForward?: string | null;
  /** socat, which serves them where arena-forward was not built. */
  socat?: string | null;
  /** /usr/bin/sandbox-exec on macOS. */
  sandboxExec?: string | null;
}

const TRUST_HINT = 'or mark the agent folder trusted to run it without a sandbox (arena run|match --trust-agent-dir DIR)';

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
  if (process.platform === 'win32')
    return {
      networkDenyPrefix: null,
      prlimit: null,
      shell: null,
      sandboxProblem: `Windows has no OS sandbox for agent processes: use a docker entrypoint, ${TRUST_HINT}`,
    };
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
  const prlimit = process.platform === 'linux' ? findExecutable('prlimit', pathEnv, cwd) : null;
  const base = { networkDenyPrefix, prlimit, shell };
  if (process.platform === 'darwin') {
    const sandboxExec = fs.existsSync('/usr/bin/sandbox-exec') ? '/usr/bin/sandbox-exec' : null;
    return { ...base, sandboxExec, sandboxProblem: sandboxExec ? null : `/usr/bin/sandbox-exec is missing, ${TRUST_HINT}` };
  }
  if (process.platform !== 'linux') return { ...base, sandboxProblem: `no OS sandbox is known for ${process.platform}, ${TRUST_HINT}` };
  const found = findExecutable('bwrap', `${pathEnv ?? ''}:/usr/bin:/bin`, cwd);
  const socat = findExecutable('socat', `${pathEnv ?? ''}:/usr/bin:/bin`, cwd);
  return { ...base, ...probeBwrap(found, trueBin), arenaForward: builtForwarder(), socat };
}

/** Whether `bwrap` (null: not installed) can create a sandbox here, with the fix when not (exported for tests). */
export function probeBwrap(
  bwrap: string | null,
  trueBin: string | null,
): Pick<SandboxSupport, 'bwrap' | 'sandboxProblem' | 'bwrapTmpfsSize'> {
  if (bwrap === null)
    return {
      bwrap: null,
      sandboxProblem: `bubblewrap (bwrap), the OS sandbox for agents, is not installed: install it (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap), ${TRUST_HINT}`,
    };
  const flags = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--ro-bind', '/', '/'];
  const tryRun = (extra: string[]) =>
    spawnSync(bwrap, [...flags, '--proc', '/proc', '--dev', '/dev', ...extra, '--', trueBin ?? '/bin/true'], {
      encoding: 'utf8',
      timeout: 5000,
    });
  // One probe when --size works (the usual case); the second only tells an older bubblewrap from a broken one.
  if (tryRun(['--size', '1048576', '--tmpfs', '/tmp']).status === 0) return { bwrap, sandboxProblem: null, bwrapTmpfsSize: true };
  const r = tryRun([]);
  if (r.status === 0) return { bwrap, sandboxProblem: null, bwrapTmpfsSize: false };
  const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0];
  return {
    bwrap: null,
    sandboxProblem: `bubblewrap cannot create a sandbox here (${why}): unprivileged user namespaces are probably disabled; enable them (sudo sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 23.10+ also sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or give bwrap an AppArmor profile), ${TRUST_HINT}`,
  };
}

/** Why a sandboxed launch cannot start here (naming the fix), or null when it can. */
export function sandboxUnavailable(support: SandboxSupport = sandboxSupport()): string | null {
  if (support.sandboxProblem) return support.sandboxProblem;
  if (process.platform === 'linux' && !support.bwrap) return `bubblewrap is not available, ${TRUST_HINT}`;
  return null;
}

/** Neither forwarder is here: arena-forward was not built and socat is not installed. */
export const FORWARDER_MISSING = `socat, which gives a sandboxed agent its arena endpoint where the app's own forwarder was not built (no C compiler at install), is not installed: install it (Debian/Ubuntu: sudo apt-get install socat), or build the forwarder (npm run build with a C compiler), ${TRUST_HINT}`;

export interface RlimitRequest {
  cpuSeconds: number;
  addressSpaceBytes: number;
  openFiles: number;
  /** Counts every process of the real user, so it is the user's current count plus headroom. */
  processes: number | null;
  /** Largest file a process may write (RLIMIT_FSIZE; prlimit only); absent: unlimited. */
  fileBytes?: number;
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
    if (req.fileBytes !== undefined) flags.push(`--fsize=${req.fileBytes}`);
    return { argv: [support.prlimit, ...flags, '--', ...argv], applied: { method: 'prlimit', ...req } };
  }
  if (support.shell) {
    // Each limit is best effort (macOS refuses -v); the agent's arguments stay positional, never re-parsed by the shell.
    const lines = [`ulimit -t ${req.cpuSeconds}`, `ulimit -v ${Math.floor(req.addressSpaceBytes / 1024)}`, `ulimit -n ${req.openFiles}`];
    if (req.processes !== null) lines.push(`ulimit -u ${req.processes}`);
    const script = `${lines.map((l) => `${l} 2>/dev/null`).join('; ')}; exec "$@"`;
    const { fileBytes: _unsized, ...applied } = req;
    return { argv: [support.shell, '-c', script, 'arena-agent', ...argv], applied: { method: 'ulimit', ...applied } };
  }
  return null;
}

/** How long a process count is reused: counting stats every /proc entry, and the limit has 256 of headroom. */
const COUNT_REUSE_MS = 2_000;
let lastCount: { at: number; count: number | null } | undefined;

/** Number of processes the current user runs (Linux; counted at most every 2 s), or null when it cannot be counted. */
export function userProcessCount(now = Date.now()): number | null {
  if (lastCount === undefined || now - lastCount.at >= COUNT_REUSE_MS || now < lastCount.at)
    lastCount = { at: now, count: countUserProcesses() };
  return lastCount.count;
}

function countUserProcesses(): number | null {
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
