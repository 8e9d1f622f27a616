// One warm process (a slot) and the seats (leases) it holds, and what a game sees of a warm seat once its part is
// over: a stand-in result carrying the seat's share of the process's stderr, or a forfeit when no process plays it.

import type { ModelCallRecord } from '../../contract/model-call.js';
import type { WarmSeat } from '../../contract/warm-agent.js';
import type { LaunchHandle, LaunchResult } from '../../runner/launch.js';
import type { NextSeatReply } from './warm-desk.js';
import type { WarmSlotLaunch } from './warm-options.js';

/** Stderr kept per seat for its game's accounting (model usage lines), like a per-game agent's capture. */
export const SEAT_STDERR_BYTES = 1024 * 1024;

export interface Lease {
  seat: WarmSeat | null;
  seatNo: number;
  slot: Slot;
  taken: boolean;
  done: boolean;
  resolve: (result: LaunchResult) => void;
  /** The process's stderr while it held this seat: the game's share of its usage lines. */
  stderr: Buffer[];
  stderrBytes: number;
  /** The model calls the process made while it held only this seat. */
  modelCalls: ModelCallRecord[];
  /** Those of them not yet answered, by their place in modelCalls: the live records the forward is still filling in. */
  inFlight: Map<number, ModelCallRecord>;
}

export interface Parked {
  reply: (r: NextSeatReply) => void;
}

export interface Slot {
  id: number;
  handle: LaunchHandle;
  key: string | null;
  claw: WarmSlotLaunch | null;
  startedAt: number;
  /** Seats handed to this process whose game is not over. */
  leases: Set<Lease>;
  /** Seats waiting for the process to ask (SpecArena). */
  queue: Lease[];
  parked: Parked[];
  /** live: takes seats; draining: finishes its seats, then is replaced; stopping: being stopped; dead: gone. */
  state: 'live' | 'draining' | 'stopping' | 'dead';
  /** Asked for a seat at least once: it got as far as the protocol. */
  polled: boolean;
  exited: Promise<LaunchResult>;
}

export function finished(reason: string): NextSeatReply {
  return { status: 200, body: { finished: true, reason } };
}

/** What a game sees of a warm seat once its part is over: the stderr of its time in the game (the process keeps running). */
export function standIn(slot: Slot, termination: 'exited' | 'cancelled', exitCode: number | null, lease: Lease, now: number): LaunchResult {
  return {
    ...emptyResult(now),
    ...seatStderr(lease),
    ...(lease.modelCalls.length > 0 ? { modelCalls: seatCalls(lease) } : {}),
    isolation: slot.handle.isolation,
    pid: slot.handle.pid ?? null,
    termination,
    exitCode,
    startedAt: slot.startedAt,
    durationMs: now - slot.startedAt,
  };
}

/** The seat's calls as they stand: one still in flight as far as it got (its wait, its capacity), marked unanswered. */
function seatCalls(lease: Lease): ModelCallRecord[] {
  return lease.modelCalls.map((call, seq) => {
    const live = lease.inFlight.get(seq);
    return live ? { ...live, seq, unanswered_at_end: true } : call;
  });
}

/** The seat's share of the process's stderr, in LaunchResult's fields. */
export function seatStderr(lease: Lease): Pick<LaunchResult, 'stderr' | 'stderrTail' | 'stderrBytes' | 'stderrTruncated' | 'truncated'> {
  const stderr = Buffer.concat(lease.stderr).toString('utf8');
  const cut = lease.stderrBytes >= SEAT_STDERR_BYTES;
  return { stderr, stderrTail: stderr.slice(-64 * 1024), stderrBytes: lease.stderrBytes, stderrTruncated: cut, truncated: cut };
}

export function forfeitResult(detail: string, now: number): LaunchResult {
  return { ...emptyResult(now), termination: 'spawn_error', detail, harnessError: false };
}

export function forfeitHandle(detail: string, now: number): LaunchHandle {
  const result = forfeitResult(detail, now);
  return { workspace: '', pid: undefined, result: Promise.resolve(result), isolation: result.isolation, stop: () => {} };
}

export function emptyResult(now: number): LaunchResult {
  return {
    pid: null,
    exitCode: null,
    signal: null,
    durationMs: 0,
    startedAt: now,
    termination: 'exited',
    detail: null,
    harnessError: false,
    killedExternally: false,
    stdout: '',
    stderr: '',
    stdoutTail: '',
    stderrTail: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    truncated: false,
    limits: { timeoutMs: 0, stdoutBytes: 0, stderrBytes: 0 },
    workspace: '',
    argv: [],
    // Never ran: nothing was isolated, and nothing ran either.
    isolation: {
      sandbox: 'process',
      network: 'none',
      rlimits: null,
      method: 'none',
      filesystem: 'host',
      pid: 'host',
      endpoints: [],
      trusted: false,
    },
  };
}
