// What a caller asks of one agent launch (launch.ts): the agent, its runner variables, limits, network and trust;
// and the runner's defaults for the limits it does not give.
import type { AgentManifest } from '../contract/manifest.js';
import type { ModelCallRecord } from '../contract/model-call.js';
import { SEAT_LIMITS } from '../contract/seat-limits.js';
import type { LocalEndpoints } from './endpoint-forward.js';
import type { ModelCallHooks } from './model-proxy.js';

export type NetworkMode = 'none' | 'loopback';

export interface RunLimits {
  /** Wall-clock limit for the whole run (default: the manifest's `limits.game_seconds`, else 30 s, docker 120 s). */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL of the process group. */
  killGraceMs?: number;
  stdoutBytes?: number;
  stderrBytes?: number;
  /** Size of the stdout/stderr tails kept for logs. */
  tailBytes?: number;
  /** Kill the run once stdout + stderr exceed this many bytes (default: never; output past the caps is discarded). */
  outputLimitBytes?: number;
  /** Address space of a process / memory of a container (default: the manifest's `limits.memory_mb`, else 32 GiB / 2 GiB). */
  memoryMb?: number;
  cpuSeconds?: number;
  openFiles?: number;
  /** Processes the user may have: a number, or 'auto' = the user's current count + 256 (default). Trusted launches only. */
  processes?: number | 'auto';
  /** What the whole seat may use (default: the manifest's `limits.*`, else SEAT_LIMITS' defaults). */
  seat?: Partial<SeatLimits>;
}

/** Totals for all processes of one seat (seat-accounting.ts): tasks, memory, /tmp size, workspace size, largest file. */
export interface SeatLimits {
  processes: number;
  memoryMb: number;
  tmpMb: number;
  workspaceMb: number;
  fileMb: number;
}

export const RUNNER_DEFAULTS = {
  processTimeoutMs: 30_000,
  dockerTimeoutMs: 120_000,
  killGraceMs: 2_000,
  stdoutBytes: 4 * 1024 * 1024,
  stderrBytes: 1024 * 1024,
  tailBytes: 64 * 1024,
  // RLIMIT_AS counts reserved virtual memory: Node's fetch (WebAssembly) fails below about 12 GiB, so the default only stops runaways.
  processMemoryMb: 32 * 1024,
  dockerMemoryMb: 2 * 1024,
  cpuSeconds: 120,
  openFiles: 1024,
  processHeadroom: 256,
} as const;

export interface LaunchOptions {
  manifest: AgentManifest;
  /** Folder of the agent.yaml: relative paths in the command resolve against it. */
  manifestDir: string;
  /** Runner variables (ARENA_*); they win over the manifest env. ARENA_WORKSPACE is always set by the runner. */
  env?: Record<string, string>;
  limits?: RunLimits;
  signal?: AbortSignal;
  /** A fresh workspace is created under this folder (named `workspaceName`, else a random name). */
  workspaceRoot: string;
  workspaceName?: string;
  /**
   * The workspace outlives the launch (a governance trial's, kept in the scratch folder): the host folder is bound in
   * and its total is not bounded. Otherwise (tournament seats) a sandboxed workspace is a tmpfs of `workspace_mb`.
   */
  keepWorkspace?: boolean;
  /**
   * 'none' (default): no network but `arenaEndpoints` and the manifest's `network.allow` (forwarded into the sandbox).
   * 'loopback': the host network, when the operator asks for it (the file system and processes stay sandboxed).
   */
  network?: NetworkMode;
  /** `host:port` of the arena the agent plays on (its ARENA_URL), reachable from the sandbox. */
  arenaEndpoints?: readonly string[];
  /** Endpoints served by this process: their forwarded streams go straight to the server, not out over TCP. */
  localEndpoints?: LocalEndpoints;
  /** The agent's folder is trusted: run it without the OS sandbox (recorded in its isolation). */
  trusted?: boolean;
  /** Folders that stay hidden even when inside a folder the sandbox shows (the data directory). */
  privatePaths?: readonly string[];
  /** Linux, engine running as root: start the sandbox as this user (the hostile-agent suite runs its attacks so). */
  runAs?: { uid: number; gid: number };
  /** Refuse to run a trusted agent when network denial was asked for but is unavailable. */
  requireNetworkIsolation?: boolean;
  /** Source of the allow-listed variables and granted secrets (default: process.env). */
  hostEnv?: NodeJS.ProcessEnv;
  /** Used in the docker container name. */
  label?: string;
  /**
   * In a PID namespace (where only memory is sampled): the pause between looks at the process tree, from the start
   * (default: fast looks for two seconds, then every 250 ms). A process's own peak is kept by the kernel, so a
   * long-lived one is measured exactly at any pace; what a slower pace can miss is a short-lived descendant.
   */
  memorySampleMs?: number;
  /** Sees stderr as it arrives (a warm agent's per-game usage lines; the capture is unchanged). */
  onStderr?: (chunk: Buffer) => void;
  /**
   * Sees each model call as it starts and again (the same object) as it ends: a warm agent's per-game share, owned by
   * the game it was asked in. LaunchResult.modelCalls has them all.
   */
  onModelCall?: (call: ModelCallRecord, phase: 'started' | 'ended') => void;
  /** `arena replay`: answers the model server's calls from a record; the server is never contacted. */
  modelReplay?: ModelCallHooks['replay'];
  /** model.yaml `cache: true`: the seat's cache keys and lookups (engine/tournaments/model-cache.ts). */
  modelCache?: ModelCallHooks['cache'];
  dockerBinary?: string;
}

export interface ResolvedLimits {
  timeoutMs: number;
  killGraceMs: number;
  stdoutBytes: number;
  stderrBytes: number;
  tailBytes: number;
  outputLimitBytes: number | undefined;
  memoryMb: number;
  cpuSeconds: number;
  openFiles: number;
  processes: number | 'auto';
  seat: SeatLimits;
}

export function resolveLimits(options: LaunchOptions, docker: boolean): ResolvedLimits {
  const given = options.limits ?? {};
  const manifestLimits = options.manifest.limits;
  const gameMs = manifestLimits?.game_seconds === undefined ? undefined : manifestLimits.game_seconds * 1000;
  return {
    timeoutMs: given.timeoutMs ?? gameMs ?? (docker ? RUNNER_DEFAULTS.dockerTimeoutMs : RUNNER_DEFAULTS.processTimeoutMs),
    killGraceMs: given.killGraceMs ?? RUNNER_DEFAULTS.killGraceMs,
    stdoutBytes: given.stdoutBytes ?? RUNNER_DEFAULTS.stdoutBytes,
    stderrBytes: given.stderrBytes ?? RUNNER_DEFAULTS.stderrBytes,
    tailBytes: given.tailBytes ?? RUNNER_DEFAULTS.tailBytes,
    outputLimitBytes: given.outputLimitBytes,
    memoryMb: given.memoryMb ?? manifestLimits?.memory_mb ?? (docker ? RUNNER_DEFAULTS.dockerMemoryMb : RUNNER_DEFAULTS.processMemoryMb),
    cpuSeconds: given.cpuSeconds ?? RUNNER_DEFAULTS.cpuSeconds,
    openFiles: given.openFiles ?? RUNNER_DEFAULTS.openFiles,
    processes: given.processes ?? 'auto',
    seat: {
      processes: given.seat?.processes ?? manifestLimits?.processes ?? SEAT_LIMITS.processes.default,
      memoryMb: given.seat?.memoryMb ?? manifestLimits?.seat_memory_mb ?? SEAT_LIMITS.seat_memory_mb.default,
      tmpMb: given.seat?.tmpMb ?? manifestLimits?.tmp_mb ?? SEAT_LIMITS.tmp_mb.default,
      workspaceMb: given.seat?.workspaceMb ?? manifestLimits?.workspace_mb ?? SEAT_LIMITS.workspace_mb.default,
      fileMb: given.seat?.fileMb ?? manifestLimits?.workspace_mb ?? SEAT_LIMITS.workspace_mb.default,
    },
  };
}
