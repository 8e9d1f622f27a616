// Which accounting keeps one seat's processes, threads and memory from using up another's, per sandboxed launch:
// a cgroup of its own where this engine may create one (pids.max, memory limit); otherwise, for an engine that is
// not root (or a sandbox started as another user), RLIMIT_NPROC set inside the seat's user namespace, where the kernel
// counts each namespace's tasks apart (no memory total then); as root without cgroups, nothing per seat ('shared-uid':
// the kernel does not apply RLIMIT_NPROC to uid 0). Trusted launches keep the user's count + headroom.
import type { SeatAccounting } from '../contract/isolation.js';
import type { SeatLimits } from './launch-options.js';
import { cgroupSupport, createSeatCgroup, type SeatCgroup } from './seat-cgroup.js';

export interface SeatRecord {
  accounting: SeatAccounting;
  /** Tasks (processes and threads) of the seat; null when nothing per seat enforces it. */
  processes: number | null;
  /** Memory of all the seat's processes together; null when not enforced (no cgroup). */
  memoryMb: number | null;
  /** Size of its private /tmp; null when bubblewrap cannot size a tmpfs (before 0.9 without the backport). */
  tmpMb: number | null;
  /** Largest file it may write (RLIMIT_FSIZE); null when rlimits are unavailable. */
  fileMb: number | null;
  /** Size of its workspace, all files together (a sized tmpfs); null when bubblewrap cannot size a tmpfs. */
  workspaceMb: number | null;
}

export interface SeatPlan {
  record: SeatRecord;
  cgroup: SeatCgroup | null;
  /** RLIMIT_NPROC to set inside the sandbox (the user-namespace fallback), else null. */
  innerProcesses: number | null;
}

/** The accounting for one sandboxed seat; `effectiveUid` is the uid bubblewrap starts as. */
export function planSeat(limits: SeatLimits, effectiveUid: number): SeatPlan {
  const base = { memoryMb: null, tmpMb: limits.tmpMb, fileMb: limits.fileMb, workspaceMb: limits.workspaceMb };
  const { support } = cgroupSupport();
  const cgroup = support ? createSeatCgroup(support, { processes: limits.processes, memoryBytes: limits.memoryMb * 1024 * 1024 }) : null;
  if (cgroup)
    return {
      record: { ...base, accounting: cgroup.kind, processes: limits.processes, memoryMb: limits.memoryMb },
      cgroup,
      innerProcesses: null,
    };
  // User namespaces are Linux's (macOS keeps the user's count + headroom).
  if (effectiveUid !== 0 && process.platform === 'linux')
    return {
      record: { ...base, accounting: 'user-namespace', processes: limits.processes },
      cgroup: null,
      innerProcesses: limits.processes,
    };
  return { record: { ...base, accounting: 'shared-uid', processes: null }, cgroup: null, innerProcesses: null };
}
