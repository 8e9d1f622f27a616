// How a started agent's processes are ended, by timeout, cancellation or its own exit, so that nothing it started
// outlives the run. In a bubblewrap sandbox the PID namespace does it: when the sandbox's supervisor (the leader) ends,
// its init dies and the kernel kills everything else in the namespace, setsid and double-forked processes included,
// so the runner only waits for that one init to be gone. Without a PID namespace (a trusted folder, Seatbelt, docker's
// client) the runner sweeps: it kills the process group and every descendant it saw, scanning /proc until none runs.
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { groupRunning, isRunning, readStat, signalGroup, signalPid, TreeWatcher } from './process-tree.js';

/**
 * How long a finished launch waits for what its agent left behind to be gone. A SIGKILLed process ends only once it
 * leaves an uninterruptible sleep (disk I/O), which on a machine busy writing can take seconds; the launch's result
 * must not be reported before its processes are gone, so the bound is generous (the wait ends as soon as they are).
 */
const REAP_WAIT_MS = 10_000;

/** bubblewrap → its init (the namespace's pid 1) → the agent's command. */
const SANDBOX_AGENT_DEPTH = 2;

export interface Teardown {
  readonly peakRssKb: number | undefined;
  /**
   * After finish(): the sandbox's init was named, so bubblewrap got as far as creating it (before the agent's program
   * could run); false means the launch failed before anything of the agent ran. Always true without a namespace.
   */
  readonly sandboxStarted: boolean;
  /** Timeout or cancellation: SIGTERM to the agent's processes, SIGKILL after the grace to what is left. */
  terminate(graceMs: number, leaderExited: Promise<unknown>): Promise<void>;
  /** The leader has exited: whatever the agent left behind dies now; resolves once none runs (at most ~10 s). */
  finish(): Promise<void>;
}

/** Without a PID namespace: the process group and every descendant the watcher saw (it samples from the start) are killed. */
export function sweepTeardown(leader: number): Teardown {
  const watcher = new TreeWatcher(leader, { trackDescendants: true });
  watcher.start();
  return {
    get peakRssKb() {
      return watcher.peakRssKb;
    },
    sandboxStarted: true,
    async terminate(graceMs) {
      signalGroup(leader, 'SIGTERM');
      if (!(await waitUntil(() => !groupRunning(leader), graceMs))) signalGroup(leader, 'SIGKILL');
    },
    async finish() {
      watcher.stop();
      if (groupRunning(leader)) signalGroup(leader, 'SIGKILL');
      watcher.killSurvivors();
      await waitUntil(() => !groupRunning(leader) && !watcher.anySurvivor(), REAP_WAIT_MS);
    },
  };
}

/**
 * A bubblewrap sandbox (`--unshare-pid`, `--die-with-parent`): `info` is bubblewrap's --info-fd output, which names
 * the sandbox's init by its host pid ("child-pid"). The init leads a session of its own (`--new-session`), outside the
 * leader's process group, so it is signalled by pid.
 */
export function namespaceTeardown(leader: number, info: Readable, memoryIntervalMs?: number): Teardown {
  const watcher = new TreeWatcher(leader, {
    trackDescendants: false,
    agentDepth: SANDBOX_AGENT_DEPTH,
    ...(memoryIntervalMs ? { memoryIntervalMs } : {}),
  });
  watcher.start();
  const init = sandboxInit(info);
  let started = true;
  return {
    get peakRssKb() {
      return watcher.peakRssKb;
    },
    get sandboxStarted() {
      return started;
    },
    async terminate(graceMs, leaderExited) {
      // The supervisor would die on SIGTERM and take everything with it at once: the agent's own processes (below the
      // sandbox's init) get the SIGTERM, the supervisor the SIGKILL after the grace.
      watcher.signalTree('SIGTERM', 2);
      if (!(await settlesWithin(leaderExited, graceMs))) signalGroup(leader, 'SIGKILL');
    },
    async finish() {
      watcher.stop();
      const { announced, init: pid1 } = await init;
      started = announced;
      if (pid1 === null) {
        // No init was named (bubblewrap failed early, or its info was unreadable): fall back to the group.
        if (groupRunning(leader)) signalGroup(leader, 'SIGKILL');
        await waitUntil(() => !groupRunning(leader), REAP_WAIT_MS);
        return;
      }
      const running = () => isRunning(pid1.pid, pid1.startTime);
      // The supervisor is gone, and its init normally dies of --die-with-parent with it. But bubblewrap arms that only
      // once the sandbox is set up: a supervisor killed before (a launch cancelled at once) leaves the init and all
      // under it running. A SIGKILL from outside the namespace ends its init whatever it does, and the kernel then
      // ends the namespace. Then wait, polling that one pid, until the kernel has reaped the whole namespace.
      const killInit = () => {
        if (running()) signalPid(pid1.pid, 'SIGKILL');
      };
      killInit();
      if (!(await waitUntil(() => !running(), REAP_WAIT_MS, 25, 1))) killInit();
    },
  };
}

/** The sandbox's init from bubblewrap's info JSON, with its start time (so a recycled pid is never mistaken for it). */
async function sandboxInit(info: Readable): Promise<{ announced: boolean; init: { pid: number; startTime: string } | null }> {
  let text = '';
  let found: { pid: number; startTime: string } | null = null;
  let announced = false;
  info.setEncoding('utf8');
  const ended = new Promise<void>((resolve) => {
    info.on('data', (chunk: string) => {
      text += chunk;
      const pid = Number(/"child-pid":\s*(\d+)\D/.exec(text)?.[1]);
      // Named = created, even when it has already ended by the time it is looked at.
      if (pid > 0) announced = true;
      const stat = found === null && pid > 0 ? readStat(pid) : null;
      if (stat) found = { pid, startTime: stat.startTime };
    });
    info.once('close', () => resolve());
    info.once('error', () => resolve());
  });
  // bubblewrap closes the pipe right after writing; an init that was never started has nothing to wait for.
  if (!(await settlesWithin(ended, 2_000))) info.destroy();
  return { announced, init: found };
}

/** Polls of `firstMs` before the pause starts doubling: a namespace is usually reaped within a few milliseconds. */
const QUICK_POLLS = 20;

/**
 * Polls `predicate` until true or `timeoutMs` has passed: `QUICK_POLLS` times every `firstMs`, then doubling up to
 * `everyMs`. Node has no pidfd to wait on; a check reads one small /proc file, so the quick polls cost microseconds.
 */
async function waitUntil(predicate: () => boolean, timeoutMs: number, everyMs = 25, firstMs = everyMs): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (let pause = firstMs, polls = 1; ; polls++, pause = polls <= QUICK_POLLS ? firstMs : Math.min(pause * 2, everyMs)) {
    if (predicate()) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return settled;
}
