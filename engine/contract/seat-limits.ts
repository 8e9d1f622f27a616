// What one seat (every process of one agent launch) may use in all, as `agent.yaml` `limits.*` may set it: the
// defaults the runner applies and the ceilings the manifest schema enforces (a larger value is a field error).
import { z } from 'zod';

export const SEAT_LIMITS = {
  /** Processes and threads of the seat together (cgroup pids.max, else RLIMIT_NPROC inside its user namespace). */
  processes: { default: 512, max: 16_384 },
  /** Memory of all the seat's processes together, its /tmp included (cgroup memory.max). */
  seat_memory_mb: { default: 4_096, max: 65_536 },
  /** Size of the seat's private /tmp (a tmpfs in memory). */
  tmp_mb: { default: 512, max: 16_384 },
  /**
   * Size of the seat's workspace, all its files together (a sized tmpfs, in memory), and the largest file it may write
   * in its workspace or /tmp (RLIMIT_FSIZE).
   */
  workspace_mb: { default: 1_024, max: 65_536 },
} as const;

export type SeatLimitName = keyof typeof SEAT_LIMITS;

const bounded = (name: SeatLimitName, min: number) =>
  z.int().min(min).max(SEAT_LIMITS[name].max, `at most ${SEAT_LIMITS[name].max} (the runner's ceiling for ${name})`).optional();

/** The seat fields of the manifest's `limits` block. */
export const seatLimitFields = {
  processes: bounded('processes', 16),
  seat_memory_mb: bounded('seat_memory_mb', 64),
  tmp_mb: bounded('tmp_mb', 1),
  workspace_mb: bounded('workspace_mb', 1),
};
