// Agents without a PID namespace (a trusted folder) that an engine which died left running. Nothing ties them to the
// engine that started them: the kernel does not end a child with its parent, and a daemon an agent forked is no
// longer even a descendant. So each such launch carries its supervisor's identity in its environment, which its
// children inherit, and every engine start ends the processes whose supervisor is gone.
import fs from 'node:fs';
import { isRunning, procPids, readStat, signalPid } from './process-tree.js';

/**
 * The variable naming the engine process that launched a host (unsandboxed) agent: `<pid>:<start time>:<PID
 * namespace>`. The namespace matters: an engine in a container and one on its host see each other's processes under
 * different pid numbers, and neither may judge the other's supervisors by them.
 */
export const SUPERVISOR_ENV = 'ARENA_SUPERVISOR';

const PREFIX = `${SUPERVISOR_ENV}=`;

function pidNamespace(): string | null {
  try {
    return /^pid:\[(\d+)\]$/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1] ?? null;
  } catch {
    return null;
  }
}

let mark: string | null | undefined;

/** This process as a supervisor; null where /proc cannot tell a process's start time and namespace. */
export function supervisorMark(): string | null {
  if (mark === undefined) {
    const stat = process.platform === 'linux' ? readStat(process.pid) : null;
    const namespace = stat ? pidNamespace() : null;
    mark = stat && namespace ? `${process.pid}:${stat.startTime}:${namespace}` : null;
  }
  return mark;
}

/** The supervisor a process's environment names, if it is one of this PID namespace. */
function supervisorOf(pid: number, namespace: string): { pid: number; startTime: string } | null {
  let environ: string;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return null; // gone, or another user's
  }
  const value =
    environ
      .split('\0')
      .find((entry) => entry.startsWith(PREFIX))
      ?.slice(PREFIX.length) ?? '';
  const match = /^(\d+):(\d+):(\d+)$/.exec(value);
  if (!match || match[3] !== namespace) return null;
  return { pid: Number(match[1]), startTime: match[2] as string };
}

/** Ends every host agent process whose supervising engine is no longer running; returns how many it ended. */
export function reapOrphanedHostAgents(): number {
  const namespace = process.platform === 'linux' ? pidNamespace() : null;
  if (namespace === null) return 0;
  let ended = 0;
  for (const pid of procPids()) {
    if (pid === process.pid) continue;
    const supervisor = supervisorOf(pid, namespace);
    if (!supervisor || isRunning(supervisor.pid, supervisor.startTime)) continue;
    const stat = readStat(pid);
    if (stat && isRunning(pid, stat.startTime) && signalPid(pid, 'SIGKILL')) ended++;
  }
  return ended;
}
