// Warm lifecycle (agent kit contract: GET /api/arena/next-seat with the agent key): one process plays seat after
// seat until the harness says the tournament is finished.
import { AgentError } from './agent-errors.mjs';
import { sleep } from './arena-client.mjs';
import { playOneSeat } from './play-seat.mjs';

/** How long one next-seat long-poll may wait (the engine holds it at most 30 s). */
const NEXT_SEAT_WAIT_SECONDS = 30;

/**
 * The next seat for this warm process: the seat object, `{finished: true}` once the tournament is over for it, or
 * null when none came within the wait (HTTP 204). A refused key (401: the harness replaced this process) is finished.
 */
export async function nextSeat(url, agentKey, waitSeconds = NEXT_SEAT_WAIT_SECONDS) {
  const res = await fetch(`${url}/api/arena/next-seat?wait=${waitSeconds}`, {
    headers: { authorization: `Bearer ${agentKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout((waitSeconds + 10) * 1000),
  });
  if (res.status === 204) return null;
  if (res.status === 401) return { finished: true, reason: 'agent key refused' };
  const body = await res.json().catch(() => null);
  if (!res.ok || body === null) throw new AgentError(`next-seat -> ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** One loop per concurrent game the manifest allows (ARENA_MAX_CONCURRENT_GAMES); exits 0 when finished. */
export async function runWarm(play) {
  const url = (process.env.ARENA_URL ?? '').replace(/\/+$/, '');
  const key = process.env.ARENA_AGENT_KEY;
  const name = process.env.ARENA_AGENT_ID || 'agent';
  if (!url) {
    process.stderr.write('agent: ARENA_URL is not set\n');
    process.exit(1);
  }
  const log = (line) => process.stdout.write(`[${name}] ${line}\n`);
  const loops = Math.max(1, Number(process.env.ARENA_MAX_CONCURRENT_GAMES ?? 1) || 1);
  const loop = async () => {
    let failures = 0;
    for (;;) {
      let seat;
      try {
        seat = await nextSeat(url, key);
        failures = 0;
      } catch (error) {
        // The engine restarting its listener is not a reason to give up at once.
        if (++failures >= 5) throw error;
        await sleep(200 * failures);
        continue;
      }
      if (seat === null) continue;
      if (seat.finished) return;
      const contract = {
        url: seat.url.replace(/\/+$/, ''),
        invite: seat.invite,
        challenge: seat.challenge,
        agentId: seat.agent_id,
        seed: seat.seed,
        sessionKey: seat.seat_key,
        mcpUrl: seat.mcp_url,
      };
      // Past the game's deadline the harness has ended the game: a process still in it is stuck.
      const deadline = setTimeout(
        () => {
          process.stderr.write(`${name}: game ${seat.game_index} still running past its deadline\n`);
          process.exit(2);
        },
        Math.max(1000, seat.deadline - Date.now() + 5000),
      );
      try {
        await playOneSeat(play, contract, log, false);
      } finally {
        clearTimeout(deadline);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: loops }, loop));
  } catch (error) {
    process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.exit(0);
}
