// The model agent started warm (manifest `lifecycle: persistent`, ARENA_AGENT_KEY set): it asks the engine for its
// next seat and plays it with the same provider client, so the client library, its connections and the prompt prefix
// stay warm across games. Each seat's variables are what a per-game launch would have put in the environment.
import { NEXT_SEAT_MAX_WAIT_SECONDS, NEXT_SEAT_PATH, NextSeatResponseSchema, type WarmSeat } from '../contract/warm-agent.js';

/** The next seat, 'finished' when the tournament is over for this process, or null when none came within the wait. */
export async function nextSeat(
  url: string,
  agentKey: string,
  waitSeconds = NEXT_SEAT_MAX_WAIT_SECONDS,
): Promise<WarmSeat | 'finished' | null> {
  const res = await fetch(`${url.replace(/\/+$/, '')}${NEXT_SEAT_PATH}?wait=${waitSeconds}`, {
    headers: { authorization: `Bearer ${agentKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout((waitSeconds + 10) * 1000),
  });
  if (res.status === 204) return null;
  // A refused key means the harness replaced this process: it is finished.
  if (res.status === 401) return 'finished';
  if (!res.ok) throw new Error(`next-seat -> HTTP ${res.status}`);
  const body = NextSeatResponseSchema.parse(await res.json());
  return 'finished' in body ? 'finished' : body;
}

/** The environment of one seat: the warm process's own, plus the seat's launch contract. */
export function seatEnv(env: NodeJS.ProcessEnv, seat: WarmSeat): NodeJS.ProcessEnv {
  return {
    ...env,
    ARENA_URL: seat.url,
    ARENA_INVITE: seat.invite,
    ARENA_SESSION_KEY: seat.seat_key,
    ARENA_CHALLENGE: seat.challenge,
    ARENA_SEED: seat.seed,
    ARENA_AGENT_ID: seat.agent_id,
    ARENA_MOVE_SECONDS: String(seat.move_seconds),
    ARENA_MCP_URL: seat.mcp_url,
  };
}
