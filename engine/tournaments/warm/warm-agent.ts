// One warm agent's processes: which slot takes a seat, handing seats to a polling process, and the restart policy
// (see warm-pool.ts) applied as its seats' games end and its processes exit.

import type { ModelCallRecord } from '../../contract/model-call.js';
import type { WarmSeat } from '../../contract/warm-agent.js';
import type { LaunchHandle, LaunchResult } from '../../runner/launch.js';
import { scrubLaunchResult } from '../../runner/scrub-output.js';
import { removeWorkspace } from '../../runner/workspace-removal.js';
import type { Verdict } from '../launch/seat-launch.js';
import type { TournamentAgent } from '../spec-file.js';
import type { NextSeatReply } from './warm-desk.js';
import type { WarmPoolOptions } from './warm-options.js';
import {
  finished,
  forfeitHandle,
  forfeitResult,
  type Lease,
  type Parked,
  SEAT_STDERR_BYTES,
  type Slot,
  seatStderr,
  standIn,
} from './warm-slot.js';

/** How long warm processes get to exit by themselves once told the tournament is finished. */
const FINISH_GRACE_MS = 2_000;
/** A started model call → the seat (lease) it was asked for and its place in that seat's record. */
const callOwners = new WeakMap<ModelCallRecord, { lease: Lease; index: number }>();

export class WarmAgent {
  private readonly slots: Slot[] = [];
  private nextSlotId = 0;
  processes = 0;
  restarts = 0;
  retired: string | null = null;
  private readonly capacity: number;

  constructor(
    private readonly agent: TournamentAgent,
    private readonly options: WarmPoolOptions,
    private readonly poolClosed: () => boolean,
  ) {
    // One ClawArena agent holds one seat at a time.
    this.capacity = agent.manifest.protocol === 'clawarena' ? 1 : agent.manifest.max_concurrent_games;
  }

  lease(seat: WarmSeat | null, verdict: Promise<Verdict>, seatNo: number): { handle: LaunchHandle; clawAgentId: number | null } {
    if (this.retired !== null || this.poolClosed())
      return { handle: forfeitHandle(this.retired ?? 'the tournament is over', this.options.clock.now()), clawAgentId: null };
    const slot = this.pickSlot();
    let resolve: (result: LaunchResult) => void = () => {};
    const result = new Promise<LaunchResult>((r) => {
      resolve = r;
    });
    const lease: Lease = {
      seat,
      seatNo,
      slot,
      taken: seat === null,
      done: false,
      resolve,
      stderr: [],
      stderrBytes: 0,
      modelCalls: [],
      inFlight: new Map(),
    };
    this.assign(lease, slot);
    void verdict.then((v) => this.settle(lease, v));
    const handle: LaunchHandle = {
      // The process's workspace is its own, not the game's: the game must not remove it.
      workspace: '',
      get pid() {
        return lease.slot.handle.pid;
      },
      get isolation() {
        return lease.slot.handle.isolation;
      },
      result,
      // The game gave up waiting for this seat: the process is replaced once its other seats are done.
      stop: () => this.release(lease, standIn(lease.slot, 'cancelled', null, lease, this.options.clock.now()), false),
    };
    return { handle, clawAgentId: slot.claw?.clawAgentId ?? null };
  }

  private assign(lease: Lease, slot: Slot): void {
    lease.slot = slot;
    slot.leases.add(lease);
    if (lease.taken) return;
    slot.queue.push(lease);
    this.deliver(slot);
  }

  /** A live slot with room (preferring one already waiting for a seat), else a new process. */
  private pickSlot(): Slot {
    const open = this.slots.filter((s) => s.state === 'live' && s.leases.size < this.capacity);
    const waiting = open.find((s) => s.parked.length > 0);
    if (waiting) return waiting;
    const leastBusy = open.sort((a, b) => a.leases.size - b.leases.size)[0];
    if (leastBusy) return leastBusy;
    return this.startSlot();
  }

  private startSlot(): Slot {
    const id = this.nextSlotId++;
    const claw = this.agent.manifest.protocol === 'clawarena' ? (this.options.clawSlot?.(this.agent, id) ?? null) : null;
    const slot: Slot = {
      id,
      handle: undefined as unknown as LaunchHandle,
      key: null,
      claw,
      startedAt: this.options.clock.now(),
      leases: new Set(),
      queue: [],
      parked: [],
      state: 'live',
      polled: false,
      exited: undefined as unknown as Promise<LaunchResult>,
    };
    const env: Record<string, string> = {
      ARENA_LIFECYCLE: 'persistent',
      ARENA_MAX_CONCURRENT_GAMES: String(this.capacity),
      ARENA_SLOT: String(id),
      ...(claw?.env ?? {}),
    };
    if (!claw) {
      slot.key = this.options.desk.open((waitMs, signal) => this.poll(slot, waitMs, signal));
      env.ARENA_AGENT_KEY = slot.key;
      env.ARENA_URL = this.options.url;
      env.ARENA_MCP_URL = `${this.options.url}/api/arena/mcp`;
    }
    slot.handle = this.options.launch(
      this.agent,
      id,
      env,
      (chunk) => {
        for (const lease of slot.leases) {
          if (!lease.taken || lease.stderrBytes >= SEAT_STDERR_BYTES) continue;
          lease.stderr.push(chunk);
          lease.stderrBytes += chunk.length;
        }
      },
      (call, phase) => {
        if (phase === 'ended') {
          // A game stored before the answer came keeps the call as it stood then (standIn), marked unanswered_at_end.
          const owner = callOwners.get(call);
          if (!owner) return;
          owner.lease.modelCalls[owner.index] = { ...call, seq: owner.index };
          owner.lease.inFlight.delete(owner.index);
          return;
        }
        // A call belongs to the game the process was playing when it asked, and only when it played one seat then:
        // the forward cannot tell which of several concurrent games asked.
        const held = [...slot.leases].filter((l) => l.taken && !l.done);
        const only = held.length === 1 ? held[0] : undefined;
        if (!only) return;
        const index = only.modelCalls.length;
        only.modelCalls.push({ ...call, seq: index });
        only.inFlight.set(index, call);
        callOwners.set(call, { lease: only, index });
      },
    );
    slot.exited = slot.handle.result;
    this.processes++;
    this.slots.push(slot);
    void slot.exited.then((result) => this.onExit(slot, result));
    return slot;
  }

  /** The process asks for its next seat. */
  private poll(slot: Slot, waitMs: number, signal: AbortSignal): Promise<NextSeatReply> {
    slot.polled = true;
    if (slot.state === 'stopping' || slot.state === 'dead' || this.poolClosed())
      return Promise.resolve(finished(this.poolClosed() ? 'tournament over' : 'replaced'));
    const next = slot.queue.shift();
    if (next) return Promise.resolve(this.take(next));
    if (waitMs <= 0) return Promise.resolve({ status: 204 });
    return new Promise<NextSeatReply>((resolve) => {
      const parked: Parked = {
        reply: (r) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          slot.parked = slot.parked.filter((p) => p !== parked);
          resolve(r);
        },
      };
      const onAbort = (): void => parked.reply({ status: 204 });
      const timer = setTimeout(onAbort, waitMs);
      signal.addEventListener('abort', onAbort, { once: true });
      slot.parked.push(parked);
    });
  }

  private take(lease: Lease): NextSeatReply {
    lease.taken = true;
    let undone = false;
    const undelivered = (): void => {
      // Offered again first (once per answer), unless its game is already over.
      if (undone || lease.done || !lease.taken || lease.slot.queue.includes(lease)) return;
      undone = true;
      lease.taken = false;
      lease.slot.queue.unshift(lease);
      this.deliver(lease.slot);
    };
    return { status: 200, body: lease.seat as WarmSeat, undelivered };
  }

  private deliver(slot: Slot): void {
    while (slot.parked.length > 0 && slot.queue.length > 0) {
      const parked = slot.parked[0] as Parked;
      parked.reply(this.take(slot.queue.shift() as Lease));
    }
  }

  /** The game of a lease is over. */
  private settle(lease: Lease, verdict: Verdict): void {
    if (lease.done) return;
    const slot = lease.slot;
    if (verdict.termination === 'completed') {
      this.finishLease(lease, standIn(slot, 'exited', 0, lease, this.options.clock.now()));
      return;
    }
    const faulted = verdict.faultedSeats.includes(lease.seatNo);
    if (!lease.taken) {
      // Never asked for: the process is stalled (or still starting) — it is replaced when that cost the game.
      this.finishLease(lease, standIn(slot, 'cancelled', null, lease, this.options.clock.now()));
      if (faulted && slot.leases.size === 0) this.replace(slot, `slot ${slot.id} did not ask for its seat`);
      return;
    }
    this.release(lease, standIn(slot, 'cancelled', null, lease, this.options.clock.now()), faulted, verdict.detail);
  }

  /** Ends a taken lease whose game did not complete: the process is replaced (now on a fault, else once idle). */
  private release(lease: Lease, result: LaunchResult, faulted: boolean, why = 'stopped'): void {
    if (lease.done) return;
    const slot = lease.slot;
    if (faulted) {
      this.replace(slot, why);
      // The game waits until the process is gone, so its next game starts with a fresh one.
      void slot.exited.then(() => this.finishLease(lease, result));
      return;
    }
    this.finishLease(lease, result);
    // A process already back asking for its next seat has left the game: it is not stuck in it.
    if (slot.parked.length > 0) return;
    if (slot.leases.size === 0) this.stopSlot(slot);
    else if (slot.state === 'live') slot.state = 'draining';
  }

  private finishLease(lease: Lease, result: LaunchResult): void {
    if (lease.done) return;
    lease.done = true;
    const slot = lease.slot;
    slot.leases.delete(lease);
    slot.queue = slot.queue.filter((l) => l !== lease);
    // Scrubbed like a per-game seat's output before anything reads it (verdict tails, usage lines).
    lease.resolve(scrubLaunchResult(result));
    if (slot.state === 'draining' && slot.leases.size === 0) this.stopSlot(slot);
  }

  /** An agent fault: the slot is stopped and counted; past the cap the agent is retired. */
  private replace(slot: Slot, why: string): void {
    if (slot.state === 'stopping' || slot.state === 'dead') return;
    this.fault(why);
    this.stopSlot(slot);
  }

  private fault(why: string): void {
    if (this.retired !== null) return;
    if (this.restarts >= this.options.maxRestarts) {
      this.retired = `warm agent ${this.agent.id} retired after ${this.restarts} restart(s) (cap ${this.options.maxRestarts}; last: ${why.slice(0, 160)}); its remaining games are forfeits`;
      this.forfeitWaiting();
      return;
    }
    this.restarts++;
  }

  private stopSlot(slot: Slot): void {
    if (slot.state === 'stopping' || slot.state === 'dead') return;
    slot.state = 'stopping';
    for (const p of [...slot.parked]) p.reply(finished('replaced'));
    slot.handle.stop();
  }

  private onExit(slot: Slot, result: LaunchResult): void {
    const before = slot.state;
    slot.state = 'dead';
    // The slot's workspace lived as long as its process.
    if (result.workspace) void removeWorkspace(result.workspace);
    if (slot.key) this.options.desk.close(slot.key);
    this.slots.splice(this.slots.indexOf(slot), 1);
    const closing = this.poolClosed();
    // A process that died by itself is a fault, whether in a game or between games (a runner failure or a kill from
    // outside its sandbox is not).
    const runnerFailed = (result.termination === 'spawn_error' && result.harnessError) || result.killedExternally;
    if (before === 'live' && !closing && !runnerFailed)
      this.fault(
        `slot ${slot.id} exited ${result.signal ? `on ${result.signal}` : `with code ${result.exitCode}`}${result.detail ? `: ${result.detail}` : ''}`,
      );
    for (const lease of [...slot.leases]) {
      // Seats it never asked for go to another process when this one did speak the protocol before.
      if (!lease.taken && slot.polled && this.retired === null && !closing) {
        slot.leases.delete(lease);
        this.assign(lease, this.pickSlot());
      } else if (!lease.taken && this.retired !== null) this.finishLease(lease, forfeitResult(this.retired, this.options.clock.now()));
      else this.finishLease(lease, lease.taken ? { ...result, ...seatStderr(lease) } : result);
    }
  }

  /** Seats queued but not yet taken become forfeits once the agent is retired. */
  private forfeitWaiting(): void {
    for (const slot of this.slots)
      for (const lease of [...slot.queue]) this.finishLease(lease, forfeitResult(this.retired ?? 'retired', this.options.clock.now()));
  }

  async close(): Promise<void> {
    const slots = [...this.slots];
    for (const slot of slots) {
      if (slot.state === 'live' || slot.state === 'draining') {
        for (const p of [...slot.parked]) p.reply(finished('tournament over'));
      }
    }
    await Promise.all(
      slots.map(async (slot) => {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), FINISH_GRACE_MS);
        });
        // ClawArena processes have no finished signal: they are stopped at once.
        const exited = slot.claw ? false : await Promise.race([slot.exited.then(() => true as const), grace]);
        clearTimeout(timer);
        if (!exited) {
          slot.state = 'stopping';
          slot.handle.stop();
          await slot.exited;
        }
      }),
    );
  }
}
