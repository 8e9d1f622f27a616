// Warm agents (manifest `lifecycle: persistent`): per tournament, each such agent runs as a few long-lived processes
// ("slots", started lazily, at most what the tournament's concurrency can use), each handed seat after seat. A game
// sees a warm seat as a LaunchHandle like any other: its result is the process's real exit when the process dies
// during the game (the runner judges it as it judges a per-game agent), else a stand-in once the game is over.
// Restart policy: a slot whose seat faulted (crash, clock, protocol) or that died or stalled is replaced for the next
// game; after `maxRestarts` such faults the agent is retired and its remaining games are forfeits. A slot left in a
// game that ended without its fault (the opponent forfeited, a stop) is replaced too, without counting: its process is
// still inside a session that will never end.

import type { AgentLifecycleStats, WarmSeat } from '../../contract/warm-agent.js';
import type { LaunchHandle } from '../../runner/launch.js';
import type { Verdict } from '../launch/seat-launch.js';
import { WarmAgent } from './warm-agent.js';
import type { WarmPoolOptions } from './warm-options.js';

export type { WarmHooks, WarmPoolOptions, WarmSlotLaunch } from './warm-options.js';

/** Default faults a warm agent may cause per tournament before its remaining games are forfeits. */
export const DEFAULT_MAX_RESTARTS = 5;

export class WarmPool {
  private readonly agents = new Map<number, WarmAgent>();
  private closed = false;

  constructor(private readonly options: WarmPoolOptions) {
    options.agents.forEach((agent, index) => {
      if (agent.manifest.lifecycle !== 'persistent') return;
      const warm = new WarmAgent(agent, options, () => this.closed);
      const before = options.previous?.find((p) => p.agent === agent.id && p.lifecycle === 'persistent');
      if (before) {
        warm.processes = before.processes;
        warm.restarts = before.restarts;
        warm.retired = before.retired;
      }
      this.agents.set(index, warm);
    });
  }

  /** Whether this agent (index in the tournament) plays warm. */
  has(agentIndex: number): boolean {
    return this.agents.has(agentIndex);
  }

  get size(): number {
    return this.agents.size;
  }

  /**
   * A SpecArena seat for a warm agent: queued for one of its processes, which takes it with its next poll.
   * `verdict` is the game's; the lease ends with it.
   */
  lease(agentIndex: number, seat: WarmSeat, verdict: Promise<Verdict>, seatNo: number): LaunchHandle {
    return this.agentAt(agentIndex).lease(seat, verdict, seatNo).handle;
  }

  /** A ClawArena seat: a free slot's ClawArena agent id (createMatch seats it) and the seat's handle. */
  leaseClaw(agentIndex: number, verdict: Promise<Verdict>, seatNo: number): { handle: LaunchHandle; clawAgentId: number | null } {
    const leased = this.agentAt(agentIndex).lease(null, verdict, seatNo);
    return { handle: leased.handle, clawAgentId: leased.clawAgentId };
  }

  stats(): AgentLifecycleStats[] {
    return this.options.agents.map((agent, index) => {
      const warm = this.agents.get(index);
      return warm
        ? { agent: agent.id, lifecycle: 'persistent' as const, processes: warm.processes, restarts: warm.restarts, retired: warm.retired }
        : { agent: agent.id, lifecycle: 'per-game' as const, processes: 0, restarts: 0, retired: null };
    });
  }

  /** The tournament is over for every warm process: they are told so, given a moment, then stopped. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.agents.values()].map((a) => a.close()));
  }

  private agentAt(index: number): WarmAgent {
    const agent = this.agents.get(index);
    if (!agent) throw new Error(`agent ${index} is not warm`);
    return agent;
  }
}
