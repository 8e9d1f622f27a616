// Finds an agent's processes from outside any sandbox, by a marker in their environment (the host /proc shows every
// process; inside a PID namespace the agent's own pid numbers mean nothing here), so tests can check by host pid that
// nothing an agent started is left running.
import fs from 'node:fs';
import { HANDOFF_PREFIX } from '../../engine/runner/env-handoff.js';

export interface SeenProcess {
  pid: number;
  startTime: string;
}

function stat(pid: number): { state: string; startTime: string } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] as string, startTime: fields[19] as string };
  } catch {
    return null;
  }
}

/**
 * Every live process whose environment holds `marker` (e.g. `ARENA_WORKSPACE=<its workspace>`), also in the carried
 * form the sandbox's host-side helpers hold it in (`ARENA_ENV_ARENA_WORKSPACE=…`, engine/runner/env-handoff.ts).
 */
export function processesWith(marker: string): SeenProcess[] {
  const out: SeenProcess[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      if (!environHas(fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0'), marker)) continue;
    } catch {
      continue;
    }
    const s = stat(pid);
    if (s && s.state !== 'Z' && s.state !== 'X') out.push({ pid, startTime: s.startTime });
  }
  return out;
}

/** `environ` (entries of /proc/PID/environ) holds `marker`, as the agent has it or as the sandbox's helpers carry it. */
export function environHas(environ: readonly string[], marker: string): boolean {
  return environ.includes(marker) || environ.includes(`${HANDOFF_PREFIX}${marker}`);
}

/** The pids of a process's direct children (every thread's, from /proc): far cheaper than a scan of all of /proc. */
export function childrenOf(pid: number): number[] {
  const pids: number[] = [];
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const text = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) pids.push(...text.split(' ').map(Number));
    } catch {
      // the thread ended meanwhile
    }
  }
  return pids;
}

/** Samples `processesWith(marker())` until stopped; returns every process seen. */
export function watchProcesses(marker: () => string | null, everyMs = 40): { stop(): SeenProcess[] } {
  const seen = new Map<number, SeenProcess>();
  const sample = (): void => {
    const m = marker();
    if (m !== null) for (const p of processesWith(m)) seen.set(p.pid, p);
  };
  const timer = setInterval(sample, everyMs);
  sample();
  return {
    stop() {
      sample();
      clearInterval(timer);
      return [...seen.values()];
    },
  };
}

/** The processes that still run (same pid and start time, so never a recycled pid). */
export function stillRunning(processes: readonly SeenProcess[]): SeenProcess[] {
  return processes.filter((p) => {
    const s = stat(p.pid);
    return s !== null && s.state !== 'Z' && s.state !== 'X' && s.startTime === p.startTime;
  });
}
