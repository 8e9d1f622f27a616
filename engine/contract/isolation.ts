// The isolation an agent process actually got, as games, trials and reports record it (engine/runner/os-sandbox.ts).
import { z } from 'zod';

/**
 * 'cgroup-v2' / 'cgroup-v1': a cgroup per seat; 'user-namespace': RLIMIT_NPROC counted in the seat's own user
 * namespace (no memory total); 'shared-uid': nothing per seat (root without cgroups, trusted folders, Docker's own).
 */
export const SeatAccountingSchema = z.enum(['cgroup-v2', 'cgroup-v1', 'user-namespace', 'shared-uid']);
export type SeatAccounting = z.infer<typeof SeatAccountingSchema>;

export const IsolationSchema = z.object({
  /** 'bubblewrap' (Linux), 'seatbelt' (macOS), 'docker', or 'none' (a trusted folder, unsandboxed). */
  method: z.enum(['bubblewrap', 'seatbelt', 'docker', 'none']),
  /** 'sandbox': a read-only system view, its own folder and a fresh workspace; 'host': all the user can read. */
  filesystem: z.enum(['sandbox', 'container', 'host']),
  /** 'namespace': its own PID namespace and /proc; 'same-sandbox': signals and process info limited to its sandbox. */
  pid: z.enum(['namespace', 'same-sandbox', 'container', 'host']),
  /** 'none', 'endpoints' (only `endpoints`), 'loopback' (the host network), 'unavailable' (denial asked, not possible). */
  network: z.enum(['none', 'endpoints', 'loopback', 'unavailable']),
  endpoints: z.array(z.string()),
  /** Ran without the OS sandbox because the user marked its folder trusted. */
  trusted: z.boolean(),
  /** What kept this seat's processes and memory apart from other seats' (absent in records made before it was). */
  seat: z
    .object({
      accounting: SeatAccountingSchema,
      /** Tasks (processes + threads) of the seat; null: not enforced per seat. */
      processes: z.number().nullable(),
      /** Memory of all its processes together; null: not enforced (no cgroup). */
      memory_mb: z.number().nullable(),
      tmp_mb: z.number().nullable(),
      /** Largest file it may write. */
      file_mb: z.number().nullable(),
      /** Size of its workspace, all files together; null: not enforced (absent in records made before it was). */
      workspace_mb: z.number().nullable().optional(),
    })
    .optional(),
});
export type Isolation = z.infer<typeof IsolationSchema>;

/** One line for tables and logs: "bubblewrap: files sandbox, pid namespace, network endpoints (127.0.0.1:4000)". */
export function describeIsolation(i: Isolation): string {
  const net = i.network === 'endpoints' ? `endpoints (${i.endpoints.join(', ')})` : i.network;
  const how = i.method === 'none' ? (i.trusted ? 'unsandboxed (trusted folder)' : 'unsandboxed') : i.method;
  return `${how}: files ${i.filesystem}, pid ${i.pid}, network ${net}`;
}

/**
 * `isolation.json` beside a governance match's reports (whose reference formats have no place for it): the isolation
 * each (agent, trial) run got, in run order, in the same shape as a tournament game's per-seat record.
 */
export const RunIsolationReportSchema = z.object({
  schema_version: z.literal('1'),
  match_id: z.string(),
  runs: z.array(
    z.object({
      agent_id: z.string(),
      trial_id: z.string(),
      /** null only for runs stored before the isolation was recorded. */
      isolation: IsolationSchema.nullable(),
    }),
  ),
});
export type RunIsolationReport = z.infer<typeof RunIsolationReportSchema>;
