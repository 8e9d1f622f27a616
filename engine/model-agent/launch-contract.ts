// The ARENA_* variables the runner gives every agent (the same contract as challenges/kit/agent-client.mjs).

/** What every protocol's agent may get: its id and the game's per-move limit. */
export interface CommonContract {
  agentId: string | undefined;
  moveSeconds: number | undefined;
}

export function readCommonContract(env: NodeJS.ProcessEnv): CommonContract {
  const move = env.ARENA_MOVE_SECONDS === undefined ? undefined : Number(env.ARENA_MOVE_SECONDS);
  return {
    agentId: env.ARENA_AGENT_ID || undefined,
    moveSeconds: move !== undefined && Number.isFinite(move) && move > 0 ? move : undefined,
  };
}

/** SpecArena's launch contract. */
export interface LaunchContract {
  url: string;
  invite: string;
  challenge: string | undefined;
  agentId: string | undefined;
  seed: string;
  sessionKey: string | undefined;
  /** The game's per-move limit, when the runner passes one. */
  moveSeconds: number | undefined;
}

export function readLaunchContract(env: NodeJS.ProcessEnv): LaunchContract {
  const url = env.ARENA_URL;
  const invite = env.ARENA_INVITE;
  if (!url) throw new Error('ARENA_URL is not set');
  if (!invite) throw new Error('ARENA_INVITE is not set');
  return {
    ...readCommonContract(env),
    url: url.replace(/\/+$/, ''),
    invite,
    challenge: env.ARENA_CHALLENGE || undefined,
    seed: env.ARENA_SEED ?? '0',
    sessionKey: env.ARENA_SESSION_KEY || undefined,
  };
}
