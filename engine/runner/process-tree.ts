// Process bookkeeping for one launch: the agent leads its own process group, which is signalled as a whole; on Linux
// the descendants are also sampled from /proc, for peak memory and (without a PID namespace to do it) to kill any that
// left the group (setsid).
import { execFile } from 'node:child_process';
import fs from 'node:fs';

const LINUX = process.platform === 'linux';

interface ProcStat {
  state: string;
  ppid: number;
  pgrp: number;
  startTime: string;
}

export function readStat(pid: number): ProcStat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] as string, ppid: Number(fields[1]), pgrp: Number(fields[2]), startTime: fields[19] as string };
  } catch {
    return null;
  }
}

/** True while the process exists and is not a zombie (a zombie whose parent never reaps it is already dead). */
export function isRunning(pid: number, startTime?: string): boolean {
  if (LINUX) {
    const stat = readStat(pid);
    return stat !== null && stat.state !== 'Z' && stat.state !== 'X' && (startTime === undefined || stat.startTime === startTime);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while any live process belongs to the group. */
export function groupRunning(pgid: number): boolean {
  if (!LINUX) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  for (const pid of procPids()) {
    const stat = readStat(pid);
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') return true;
  }
  return false;
}

/** Every process id /proc lists now (Linux; empty when /proc cannot be read). */
export function procPids(): number[] {
  return safeReaddir('/proc').flatMap((name) => (/^\d+$/.test(name) ? [Number(name)] : []));
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    // No process groups: end the whole tree.
    execFile('taskkill', ['/pid', String(pgid), '/T', '/F'], { windowsHide: true }, () => {});
    return;
  }
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}

/** One process; a pid that is already gone is not an error. True when the signal was sent. */
export function signalPid(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    // ESRCH: already gone
    return false;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

interface ProcStatus {
  zombie: boolean;
  rssKb: number;
  hwmKb: number;
}

/** One read of /proc/PID/status: its state and memory (a zombie or kernel thread has no VmRSS line). */
function readStatus(pid: number): ProcStatus | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { zombie: /^State:\s+[ZX]/m.test(text), rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const tid of safeReaddir(`/proc/${pid}/task`)) {
    try {
      for (const c of fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (c.trim() !== '') out.push(Number(c));
    } catch {
      // thread or process gone
    }
  }
  return out;
}

/** The steady pause between looks when only memory is sampled (a warm agent's launch asks for a longer one). */
export const MEMORY_SAMPLE_MS = 250;

export interface WatchOptions {
  /**
   * Remember every descendant (pid and start time) so that any that left the group can be killed at the end: needed
   * where no PID namespace ends them all. Without it the watcher samples memory only, less often.
   */
  trackDescendants: boolean;
  /** When only memory is sampled: the pause between looks from the start, without the fast first looks. */
  memoryIntervalMs?: number;
  /**
   * How many levels below the root the agent's own command runs (a bubblewrap sandbox: 2, below bubblewrap and its
   * init). Until a look has seen a process that deep, the figure would be the wrappers' few MiB, so none is reported.
   */
  agentDepth?: number;
}

/**
 * Samples the tree under `root` (Linux only): peak resident memory and, when tracking, every descendant seen. Each
 * process's own high-water mark (VmHWM) is kept, so a process seen once counts with its peak up to that moment.
 */
export class TreeWatcher {
  private readonly seen = new Map<number, string>();
  /** pid → the highest VmHWM read for that process (its own peak, so one late look still sees it). */
  private readonly highWater = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private peak = 0;
  private agentSeen = false;

  constructor(
    private readonly root: number,
    private readonly options: WatchOptions = { trackDescendants: true },
  ) {}

  start(intervalMs = 100): void {
    if (!LINUX) return;
    // One look at a process keeps its high-water mark, so a short-lived agent (a governance trial often lives under
    // 100 ms, after a sandbox start-up of a few hundred on a loaded machine) needs looks during its life, not many:
    // 10, 20 and 40 ms in, then every 50 ms for the first two seconds, then the steady interval (a quarter second when
    // only memory is sampled). A launch that asks for its own memory pace is a long-lived one (a warm agent): it gets
    // that pace from the start. One look reads a few small /proc files per process.
    const own = this.options.trackDescendants ? undefined : this.options.memoryIntervalMs;
    const steady = this.options.trackDescendants ? intervalMs : (own ?? MEMORY_SAMPLE_MS);
    const startedAt = Date.now();
    this.sample();
    const next = (delayMs: number): void => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.sample();
        next(own === undefined && Date.now() - startedAt < 2000 ? Math.min(delayMs * 2, 50) : steady);
      }, delayMs);
      this.timer.unref();
    };
    next(own ?? 10);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  sample(): void {
    if (!LINUX) return;
    let total = 0;
    const agentDepth = this.options.agentDepth ?? 0;
    const queue: Array<[number, number]> = [[this.root, 0]];
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      const [pid, depth] = item;
      if (this.options.trackDescendants) {
        const stat = readStat(pid);
        if (!stat || stat.state === 'Z') continue;
        if (pid !== this.root) this.seen.set(pid, stat.startTime);
      }
      const status = readStatus(pid);
      if (!status || status.zombie) continue;
      total += status.rssKb;
      if (depth >= agentDepth) this.agentSeen = true;
      if (status.hwmKb > (this.highWater.get(pid) ?? 0)) this.highWater.set(pid, status.hwmKb);
      for (const child of childrenOf(pid)) queue.push([child, depth + 1]);
    }
    let peaks = 0;
    for (const kb of this.highWater.values()) peaks += kb;
    // The sum of per-process peaks bounds the tree's peak from above when its processes peaked at different times;
    // the sampled sum is its RSS at one instant. The larger is the closer to the truth for short-lived agents.
    this.peak = Math.max(this.peak, total, peaks);
  }

  /** Signals every live process at least `fromDepth` levels below the root (1 = the root's children), now. */
  signalTree(signal: NodeJS.Signals, fromDepth: number): void {
    if (!LINUX) return;
    const queue: Array<[number, number]> = [[this.root, 0]];
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      const [pid, depth] = item;
      const stat = readStat(pid);
      if (!stat || stat.state === 'Z') continue;
      if (depth >= fromDepth) signalPid(pid, signal);
      for (const child of childrenOf(pid)) queue.push([child, depth + 1]);
    }
  }

  /** Undefined when no look saw the agent's own process (it lived and ended between two looks): unknown, not small. */
  get peakRssKb(): number | undefined {
    return this.agentSeen && this.peak > 0 ? this.peak : undefined;
  }

  /** SIGKILLs every descendant ever seen that still runs (same pid and start time, so never a recycled pid). */
  killSurvivors(): number {
    let killed = 0;
    for (const [pid, startTime] of this.seen) {
      if (isRunning(pid, startTime) && signalPid(pid, 'SIGKILL')) killed++;
    }
    return killed;
  }

  anySurvivor(): boolean {
    for (const [pid, startTime] of this.seen) if (isRunning(pid, startTime)) return true;
    return false;
  }
}
