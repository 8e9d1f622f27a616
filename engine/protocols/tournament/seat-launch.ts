// Starts one seat's agent for a tournament game, whatever the protocol: the runner with the host network (agents
// reach the engine on loopback), the game clock plus grace as the hard limit, and the variables every protocol shares.
import { deriveSeed, type ScheduledGame } from '../../core/tournament/index.js';
import { type LaunchHandle, launchAgent } from '../../runner/launch.js';
import type { TournamentAgent } from './spec-file.js';

/** How long finished agents get to exit by themselves, and the runner's margin past the game clock. */
export const EXIT_GRACE_MS = 2_000;

export interface SeatLaunchDeps {
  workspaceRoot: string;
  gameMs: number;
  hostEnv?: NodeJS.ProcessEnv;
}

/** `protocolEnv` is the protocol's own contract (SpecArena invite and seat key, or ClawArena URL and token). */
export function launchSeat(
  deps: SeatLaunchDeps,
  agent: TournamentAgent,
  game: ScheduledGame,
  seat: number,
  protocolEnv: Record<string, string>,
): LaunchHandle {
  return launchAgent({
    manifest: agent.manifest,
    manifestDir: agent.dir,
    workspaceRoot: deps.workspaceRoot,
    network: 'loopback',
    label: `${agent.manifest.id}-${game.gameIndex}-${seat}`,
    limits: { timeoutMs: deps.gameMs + EXIT_GRACE_MS * 2, killGraceMs: 500 },
    ...(deps.hostEnv ? { hostEnv: deps.hostEnv } : {}),
    env: {
      ...protocolEnv,
      ARENA_CHALLENGE: game.challenge,
      ARENA_AGENT_ID: agent.id,
      ARENA_SEED: deriveSeed(game.seed, `agent:${seat}`),
    },
  });
}
