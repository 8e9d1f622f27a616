// How much slower than a quiet machine this one runs now, for the few test margins that must be wall-clock (a real
// child's kill timer, a hook that starts servers). Two readings, the larger wins: the share of a core a short busy
// loop actually gets (wall time over CPU time), and the run-queue length per core over the last minute. Tests wait on
// events wherever they can; this only widens real timeouts, it never removes one. ARENA_TEST_SLOWNESS overrides.
import os from 'node:os';

const MAX_FACTOR = 6;

function busyLoopFactor(): number {
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let x = 0;
  while (process.hrtime.bigint() - wall < 30_000_000n) x = (x * 31 + 7) % 1_000_003;
  const wallUs = Number(process.hrtime.bigint() - wall) / 1000;
  const used = process.cpuUsage(cpu);
  return x < 0 ? 1 : wallUs / Math.max(1, used.user + used.system);
}

function measure(): number {
  const override = Number(process.env.ARENA_TEST_SLOWNESS);
  if (Number.isFinite(override) && override >= 1) return override;
  const perCore = (os.loadavg()[0] ?? 0) / Math.max(1, os.availableParallelism());
  return Math.min(MAX_FACTOR, Math.max(1, busyLoopFactor(), perCore));
}

/** This machine's slowness now, 1 on a quiet one (at most 6). */
export const slowness = measure();

/** A wall-clock margin widened by the machine's slowness. */
export const scaled = (ms: number): number => Math.round(ms * slowness);
