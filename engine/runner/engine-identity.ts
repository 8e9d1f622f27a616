// Which engine process this is, in a form other processes and later engines can check: host agents carry it (so the
// next engine start can end those of an engine that died) and a tournament being played records it (so a second
// engine on the same data directory neither plays it too nor takes it for one a crash left behind).
import fs from 'node:fs';
import { isRunning, readStat } from './process-tree.js';

/** This process's PID namespace (its inode), or null where /proc cannot tell. */
export function pidNamespace(): string | null {
  try {
    return /^pid:\[(\d+)\]$/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1] ?? null;
  } catch {
    return null;
  }
}

let full: string | null | undefined;

/**
 * This process as `<pid>:<start time>:<PID namespace>`; null where /proc cannot tell the start time and namespace.
 * The namespace matters: an engine in a container and one on its host see each other's processes under other pid
 * numbers, and neither may judge the other's marks by them. The start time tells a recycled pid apart.
 */
export function fullEngineMark(): string | null {
  if (full === undefined) {
    const stat = process.platform === 'linux' ? readStat(process.pid) : null;
    const namespace = stat ? pidNamespace() : null;
    full = stat && namespace ? `${process.pid}:${stat.startTime}:${namespace}` : null;
  }
  return full;
}

/** This process's mark: the full one where /proc has it, else its pid alone (macOS, Windows). */
export function engineMark(): string {
  return fullEngineMark() ?? String(process.pid);
}

/** The pid a mark names. */
export function markedPid(mark: string): number {
  return Number(mark.split(':')[0]);
}

/**
 * Whether the process a mark names still runs: true or false, or null when this process cannot tell (a mark from
 * another PID namespace, or a full mark read where there is no /proc). A bare pid is judged by the pid alone.
 */
export function markedProcessRunning(mark: string): boolean | null {
  const full = /^(\d+):(\d+):(\d+)$/.exec(mark);
  if (full) {
    const namespace = process.platform === 'linux' ? pidNamespace() : null;
    if (namespace === null || full[3] !== namespace) return null;
    return isRunning(Number(full[1]), full[2]);
  }
  if (!/^\d+$/.test(mark)) return null;
  return isRunning(Number(mark));
}
