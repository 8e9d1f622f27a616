// Agents without a PID namespace (a trusted folder) that an engine which died left running. Nothing ties them to the
// engine that started them: the kernel does not end a child with its parent, and a daemon an agent forked is no
// longer even a descendant. So each such launch carries its supervisor's identity in its environment, which its
// children inherit, and every engine start ends the processes whose supervisor is gone.
import fs from 'node:fs';
import { fullEngineMark, markedProcessRunning, pidNamespace } from './engine-identity.js';
import { isRunning, procPids, readStat, signalPid } from './process-tree.js';

/** The variable naming the engine process that launched a host (unsandboxed) agent: its full mark (engine-identity.ts). */
export const SUPERVISOR_ENV = 'ARENA_SUPERVISOR';

const PREFIX = `${SUPERVISOR_ENV}=`;

/** This process as a supervisor (engine-identity.ts); null where /proc cannot tell its start time and namespace. */
export const supervisorMark = fullEngineMark;

/** The supervisor mark a process's environment holds, if any. */
function supervisorOf(pid: number): string | null {
  let environ: string;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return null; // gone, or another user's
  }
  return (
    environ
      .split('\0')
      .find((entry) => entry.startsWith(PREFIX))
      ?.slice(PREFIX.length) ?? null
  );
}

/** Ends every host agent process whose supervising engine is no longer running; returns how many it ended. */
export function reapOrphanedHostAgents(): number {
  const namespace = process.platform === 'linux' ? pidNamespace() : null;
  if (namespace === null) return 0;
  let ended = 0;
  for (const pid of procPids()) {
    if (pid === process.pid) continue;
    const supervisor = supervisorOf(pid);
    // Only a full mark whose engine is known to be gone: not one of another PID namespace, which this engine cannot judge.
    if (supervisor === null || !/^\d+:\d+:\d+$/.test(supervisor) || markedProcessRunning(supervisor) !== false) continue;
    const stat = readStat(pid);
    if (stat && isRunning(pid, stat.startTime) && signalPid(pid, 'SIGKILL')) ended++;
  }
  return ended;
}
