// Warm-agent helper for SpecArena tournaments (Node 20+, no dependencies). An agent whose manifest says
// `lifecycle: persistent` is started once per concurrent slot with ARENA_URL and ARENA_AGENT_KEY; it asks for a seat,
// plays it with the seat key exactly as a per-game agent plays ARENA_INVITE with ARENA_SESSION_KEY, and asks again.
//
//   import { runWarm } from './arena-warm.mjs';
//   await runWarm(async (seat) => { /* join seat.invite with `Authorization: Bearer ${seat.seat_key}`, play */ });
//
// `playSeat` resolves when the game has ended for this seat; throwing ends the process with exit 1 (that game is lost
// as a crash, and the harness starts a fresh process for the next one).

/** Seconds one long-poll waits; the engine holds a poll at most 30 s. */
export const NEXT_SEAT_WAIT_SECONDS = 30;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One long-poll: the seat `{invite, seat_key, challenge, seed, move_seconds, game_seconds, deadline, agent_id,
 * game_index, seat, url, mcp_url}`, `{finished: true, reason}` when the tournament is over for this process (also
 * when the key is refused: the harness replaced it), or null when no seat came within the wait.
 */
export async function nextSeat({
  url = process.env.ARENA_URL,
  agentKey = process.env.ARENA_AGENT_KEY,
  wait = NEXT_SEAT_WAIT_SECONDS,
} = {}) {
  if (!url || !agentKey) throw new Error('ARENA_URL and ARENA_AGENT_KEY must be set (manifest lifecycle: persistent)');
  const res = await fetch(`${url.replace(/\/+$/, '')}/api/arena/next-seat?wait=${wait}`, {
    headers: { authorization: `Bearer ${agentKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout((wait + 10) * 1000),
  });
  if (res.status === 204) return null;
  if (res.status === 401) return { finished: true, reason: 'agent key refused' };
  if (!res.ok) throw new Error(`next-seat -> HTTP ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * Plays seat after seat until finished, with ARENA_MAX_CONCURRENT_GAMES loops side by side, then exits 0.
 * A seat still being played past its `deadline` means the process is stuck: it exits 2.
 */
export async function runWarm(playSeat, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const loops = Math.max(1, Number(process.env.ARENA_MAX_CONCURRENT_GAMES ?? 1) || 1);
  const loop = async () => {
    for (let failures = 0; ; ) {
      let seat;
      try {
        seat = await nextSeat();
        failures = 0;
      } catch (error) {
        // A few connection failures in a row mean the engine is gone: stop rather than linger.
        if (++failures >= 5) throw error;
        await sleep(200 * failures);
        continue;
      }
      if (seat === null) continue;
      if (seat.finished) return;
      const stuck = setTimeout(
        () => {
          log(`game ${seat.game_index} still running past its deadline`);
          process.exit(2);
        },
        Math.max(1000, seat.deadline - Date.now() + 5000),
      );
      try {
        await playSeat(seat);
      } finally {
        clearTimeout(stuck);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: loops }, loop));
  } catch (error) {
    log(`warm agent: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  process.exit(0);
}
