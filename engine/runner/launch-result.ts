// What one agent launch comes back with (launch.ts): how it ended, its capped output and the isolation it ran under.

import type { Isolation } from '../contract/isolation.js';
import type { ModelCallRecord } from '../contract/model-call.js';
import type { NetworkMode } from './launch-options.js';
import type { AppliedIsolation } from './os-sandbox.js';
import type { AppliedRlimits } from './sandbox.js';
import type { SeatRecord } from './seat-accounting.js';

export type Termination = 'exited' | 'timeout' | 'cancelled' | 'output_limit' | 'spawn_error';

export interface IsolationRecord extends AppliedIsolation {
  sandbox: 'process' | 'docker';
  /**
   * What the agent actually got: 'none' no network, 'endpoints' only `endpoints`, 'loopback' the host network;
   * 'unavailable' = a trusted agent's denial was asked for but the OS did not allow it.
   */
  network: NetworkMode | 'endpoints' | 'unavailable';
  rlimits: AppliedRlimits | null;
  /** The seat's own accounting (seat-accounting.ts); null for trusted and Docker launches. */
  seat?: SeatRecord | null;
}

export interface LaunchResult {
  /** Calls through its model server's forward (a model agent's), in order; absent for other agents. */
  modelCalls?: ModelCallRecord[];
  /** Process id of the agent (its process group id on POSIX); null when it never started. */
  pid: number | null;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  startedAt: number;
  /** Sampled peak RSS of the process tree; absent when unmeasured (not Linux, or the agent ended between two looks). */
  peakRssKb?: number;
  termination: Termination;
  /** Why the launch failed, for spawn_error. */
  detail: string | null;
  /**
   * For spawn_error: true when the harness or this machine's set-up failed (workspace, required isolation missing,
   * docker CLI missing, the command's program not found here, runner bug), false when the agent's own command is
   * malformed (empty, unbalanced quotes).
   */
  harnessError: boolean;
  /** For spawn_error: the program (`ruby`, `node`) that was not found on the agent's PATH or in its sandbox view. */
  missingProgram?: string;
  /**
   * The sandbox itself died on a signal the runner did not send: someone outside killed the seat. An agent cannot do
   * that from inside (the sandbox's supervisor is outside its PID namespace), so this is never the agent's fault.
   */
  killedExternally: boolean;
  /** Output up to the caps, decoded as UTF-8 (replacement characters for invalid bytes). */
  stdout: string;
  stderr: string;
  stdoutTail: string;
  stderrTail: string;
  stdoutBytes: number;
  stderrBytes: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  truncated: boolean;
  limits: { timeoutMs: number; stdoutBytes: number; stderrBytes: number };
  workspace: string;
  argv: string[];
  isolation: IsolationRecord;
}

/** The recorded part of a launch's isolation (contract/isolation.ts), without the rlimits. */
export function isolationOf(record: IsolationRecord): Isolation {
  const { method, filesystem, pid, network, endpoints, trusted, seat } = record;
  const recorded: Isolation = { method, filesystem, pid, network, endpoints: [...endpoints], trusted };
  if (seat)
    recorded.seat = {
      accounting: seat.accounting,
      processes: seat.processes,
      memory_mb: seat.memoryMb,
      tmp_mb: seat.tmpMb,
      file_mb: seat.fileMb,
      workspace_mb: seat.workspaceMb,
    };
  return recorded;
}

export interface LaunchHandle {
  readonly workspace: string;
  /** Process id (= process group id) once started. */
  readonly pid: number | undefined;
  readonly result: Promise<LaunchResult>;
  /** The isolation it runs under, complete once started (a warm agent's games record it before it exits). */
  readonly isolation: IsolationRecord;
  /** Cancels the run: the process group is terminated and the result's termination is 'cancelled'. */
  stop(): void;
}
