// Agent sandboxes an engine that died left running. bubblewrap's init arms --die-with-parent only once the sandbox is
// set up, so an engine killed (kill -9, a crash, a dead worker) while a launch was in its first milliseconds leaves
// that sandbox's init, and the agent under it, running with nobody to end them. Every engine start ends them: a
// sandbox init (bubblewrap as the pid 1 of its namespace, with the agents' hostname) whose parent is no longer its
// bubblewrap supervisor can only be such a leftover. SIGKILL from outside ends the init, and the kernel the namespace.
import fs from 'node:fs';
import path from 'node:path';
import { SANDBOX_HOSTNAME } from './bwrap-argv.js';
import { isRunning, procPids, readStat, signalPid } from './process-tree.js';

function argvOf(pid: number): string[] | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return null;
  }
}

const isBwrap = (argv: string[] | null) => argv !== null && path.basename(argv[0] ?? '') === 'bwrap';

/** True for the init of a PID namespace (its pid there is 1) one level below ours. */
function isNamespaceInit(pid: number): boolean {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const nspid = /^NSpid:\s+(.+)$/m.exec(status)?.[1]?.trim().split(/\s+/) ?? [];
    return nspid.length >= 2 && nspid[nspid.length - 1] === '1';
  } catch {
    return false;
  }
}

/** Ends every agent sandbox whose supervisor is gone; returns how many it ended (those it may signal). */
export function reapOrphanedSandboxes(): number {
  if (process.platform !== 'linux') return 0;
  let ended = 0;
  for (const pid of procPids()) {
    const argv = argvOf(pid);
    if (argv === null || !isBwrap(argv)) continue;
    const at = argv.indexOf('--hostname');
    if (at < 0 || argv[at + 1] !== SANDBOX_HOSTNAME || !isNamespaceInit(pid)) continue;
    const stat = readStat(pid);
    // A live sandbox's init is the child of its supervisor, which stays until the sandbox ends.
    if (!stat || isBwrap(argvOf(stat.ppid))) continue;
    if (isRunning(pid, stat.startTime) && signalPid(pid, 'SIGKILL')) ended++;
  }
  return ended;
}
