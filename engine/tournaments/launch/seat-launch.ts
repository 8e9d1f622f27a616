// Starts one seat's agent for a tournament game, whatever the protocol: the runner's OS sandbox (the seat reaches only
// the arena URLs of its protocol environment, plus its manifest's network.allow), the game clock plus grace as the
// hard limit, and the variables every protocol shares.

import type { ModelCallRecord } from '../../contract/model-call.js';
import type { Termination } from '../../core/ratings/index.js';
import { seatsLabel } from '../../core/seat-label.js';
import { deriveSeed, type ScheduledGame } from '../../core/tournament/index.js';
import { loopbackEndpoints } from '../../runner/endpoint-forward.js';
import { type LaunchHandle, type LaunchOptions, type LaunchResult, launchAgent } from '../../runner/launch.js';
import { type SandboxPolicy, sandboxLaunchOptions } from '../../runner/sandbox-policy.js';
import { scrubLaunchResult } from '../../runner/scrub-output.js';
import type { ModelCacheSource } from '../model-cache.js';
import type { TournamentAgent } from '../spec-file.js';
import { missingProgram, type VoidCause } from './void-cause.js';

/** How long finished agents get to exit by themselves, and the runner's margin past the game clock. */
export const EXIT_GRACE_MS = 2_000;

export interface SeatLaunchDeps {
  workspaceRoot: string;
  gameMs: number;
  /** The per-move limit, passed as ARENA_MOVE_SECONDS so an agent can budget its turns (the model agent does). */
  moveMs?: number;
  hostEnv?: NodeJS.ProcessEnv;
  sandbox?: SandboxPolicy;
  /** `arena replay`: the recorded answers of a seat's model calls, served instead of its model server's. */
  modelReplay?: ModelReplaySource;
  /** model.yaml `cache: true`: identical requests answered from the cache (model-cache.ts). */
  modelCache?: ModelCacheSource;
}

/** The replay of one seat of one game (by the game's index and the seat), or undefined to play it live. */
export type ModelReplaySource = (gameIndex: number, seat: number) => LaunchOptions['modelReplay'];

/** The launch options of every tournament agent's sandbox: no network but the arena URLs of `protocolEnv`. */
export function sandboxed(
  deps: Pick<SeatLaunchDeps, 'workspaceRoot' | 'hostEnv' | 'sandbox'>,
  agent: TournamentAgent,
  protocolEnv: Record<string, string>,
): Omit<LaunchOptions, 'label' | 'env' | 'limits'> {
  return {
    manifest: agent.manifest,
    manifestDir: agent.dir,
    workspaceRoot: deps.workspaceRoot,
    network: 'none',
    arenaEndpoints: loopbackEndpoints(Object.values(protocolEnv)),
    ...sandboxLaunchOptions(deps.sandbox, agent.dir),
    ...(deps.hostEnv ? { hostEnv: deps.hostEnv } : {}),
  };
}

/** `protocolEnv` is the protocol's own contract (SpecArena invite and seat key, or ClawArena URL and token). */
export function launchSeat(
  deps: SeatLaunchDeps,
  agent: TournamentAgent,
  game: ScheduledGame,
  seat: number,
  protocolEnv: Record<string, string>,
): LaunchHandle {
  const replay = deps.modelReplay?.(game.gameIndex, seat);
  // A replay answers every call from its record: the cache is not asked.
  const cache = replay ? undefined : deps.modelCache?.(agent, game, seat);
  const handle = launchAgent({
    ...sandboxed(deps, agent, protocolEnv),
    ...(replay ? { modelReplay: replay } : {}),
    ...(cache ? { modelCache: cache } : {}),
    label: `${agent.manifest.id}-${game.gameIndex}-${seat}`,
    limits: { timeoutMs: deps.gameMs + EXIT_GRACE_MS * 2, killGraceMs: 500 },
    env: {
      ...protocolEnv,
      ARENA_CHALLENGE: game.challenge,
      ARENA_AGENT_ID: agent.id,
      ARENA_SEED: deriveSeed(game.seed, `agent:${seat}`),
      ...(deps.moveMs !== undefined ? { ARENA_MOVE_SECONDS: String(deps.moveMs / 1000) } : {}),
    },
  });
  // Scrubbed before anything reads it (verdict details cut the tail, usage lines become events).
  const result = handle.result.then(scrubLaunchResult);
  return {
    get workspace() {
      return handle.workspace;
    },
    get pid() {
      return handle.pid;
    },
    get isolation() {
      return handle.isolation;
    },
    result,
    stop: () => handle.stop(),
  };
}

/** A warm process lives for the tournament: its clocks are the games' (the pool's health handling), not the runner's. */
const WARM_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
const WARM_CPU_SECONDS = 7 * 24 * 60 * 60;
/**
 * A warm process's memory is looked at every 2 s (not 20 times a second at first, then 4): it lives for the
 * tournament, so its peak (kept by the kernel per process) is exact at any pace, and a few /proc reads per process per
 * look would otherwise add up to a share of every game's engine CPU.
 */
const WARM_MEMORY_SAMPLE_MS = 2_000;

/** Starts one warm slot of a persistent agent; `protocolEnv` carries the agent key (or ClawArena token) and the slot. */
export function launchWarmSlot(
  deps: Pick<SeatLaunchDeps, 'workspaceRoot' | 'hostEnv' | 'sandbox'>,
  agent: TournamentAgent,
  slot: number,
  protocolEnv: Record<string, string>,
  onStderr: (chunk: Buffer) => void,
  onModelCall?: (call: ModelCallRecord, phase: 'started' | 'ended') => void,
): LaunchHandle {
  // The same sandbox as a per-game seat: only the arena URLs of its environment are reachable.
  return launchAgent({
    ...sandboxed(deps, agent, protocolEnv),
    label: `${agent.manifest.id}-warm-${slot}`,
    onStderr,
    ...(onModelCall ? { onModelCall } : {}),
    limits: { timeoutMs: WARM_TIMEOUT_MS, cpuSeconds: WARM_CPU_SECONDS, killGraceMs: 500 },
    memorySampleMs: WARM_MEMORY_SAMPLE_MS,
    env: { ...protocolEnv, ARENA_AGENT_ID: agent.id },
  });
}

export type Verdict = { termination: Termination; faultedSeats: number[]; detail: string; voidCause?: VoidCause };

/**
 * What an agent's exit says about its game, the same for every protocol: a verdict, 'clean' for exit code 0 (whose
 * meaning depends on whether the game had ended), or null when the runner stopped it (timeouts are judged by the clocks).
 */
export function exitVerdict(seat: number, result: LaunchResult, agentId = seatsLabel([seat])): Verdict | 'clean' | null {
  // Killed from outside its sandbox (the agent cannot reach the sandbox's supervisor): void, replayed, nobody's fault.
  if (result.killedExternally)
    return {
      termination: 'harness_error',
      faultedSeats: [],
      detail: `${seatsLabel([seat])} was killed from outside its sandbox (${result.signal})`,
    };
  if (result.termination === 'spawn_error') {
    if (result.missingProgram !== undefined) {
      const cause = missingProgram(agentId, result.missingProgram);
      return { termination: 'harness_error', faultedSeats: [], detail: `void (harness/config): ${cause.message}`, voidCause: cause };
    }
    return result.harnessError
      ? { termination: 'harness_error', faultedSeats: [], detail: `runner: ${result.detail ?? 'spawn failed'}` }
      : { termination: 'agent_crash', faultedSeats: [seat], detail: `${seatsLabel([seat])} could not start: ${result.detail ?? ''}` };
  }
  if (result.termination === 'output_limit') {
    return { termination: 'agent_resource_limit', faultedSeats: [seat], detail: `${seatsLabel([seat])} exceeded the output limit` };
  }
  if (result.termination !== 'exited') return null;
  if (result.exitCode === 0) return 'clean';
  const tail = result.stderrTail.trim().split('\n').at(-1) ?? '';
  return {
    termination: 'agent_crash',
    faultedSeats: [seat],
    detail: `${seatsLabel([seat])} exited ${result.signal ? `on ${result.signal}` : `with code ${result.exitCode}`}${tail ? `: ${tail.slice(0, 200)}` : ''}`,
  };
}
