// What a tournament's warm pool is given: the engine's hooks (next-seat desk, URL, ClawArena slot identities) and
// how the run starts and times its processes.

import type { ModelCallRecord } from '../../contract/model-call.js';
import type { AgentLifecycleStats } from '../../contract/warm-agent.js';
import type { Clock } from '../../core/clock.js';
import type { LaunchHandle } from '../../runner/launch.js';
import type { TournamentAgent } from '../spec-file.js';
import type { WarmDesk } from './warm-desk.js';

export interface WarmSlotLaunch {
  /** Extra variables of the protocol: the SpecArena agent key, or the ClawArena URL and slot token. */
  env: Record<string, string>;
  /** ClawArena: the slot's own ClawArena agent, seated by createMatch(). */
  clawAgentId?: number;
}

/** What the engine gives a tournament for its warm agents: the next-seat desk, its URL, ClawArena slot identities. */
export interface WarmHooks {
  desk: WarmDesk;
  /** Base URL SpecArena warm agents reach the engine at. */
  url: string;
  /** ClawArena agents: the identity and token of a new slot (one ClawArena agent per slot). */
  clawSlot?: (agent: TournamentAgent, slot: number) => WarmSlotLaunch;
}

export interface WarmPoolOptions extends WarmHooks {
  agents: readonly TournamentAgent[];
  /** Starts one slot's process (through the runner) with the warm contract's variables. */
  launch: (
    agent: TournamentAgent,
    slot: number,
    env: Record<string, string>,
    onStderr: (chunk: Buffer) => void,
    onModelCall?: (call: ModelCallRecord, phase: 'started' | 'ended') => void,
  ) => LaunchHandle;
  maxRestarts: number;
  /** The tournament's clock: slot start times and seat durations come from it, as every time of the run does. */
  clock: Clock;
  /** A slot that has not asked for its seat this long after it was handed one is stalled. */
  startMs: number;
  /** Figures of an earlier run of this tournament (resume): processes and restarts go on from them, retired stays. */
  previous?: readonly AgentLifecycleStats[] | null;
}
