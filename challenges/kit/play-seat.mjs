// One seat from join to the end of its game, shared by a per-game agent and each loop of a warm one.
import { GameOver } from './agent-errors.mjs';
import { createRng } from './agent-rng.mjs';
import { ArenaClient } from './arena-client.mjs';

/** How long a warm agent's finished seat keeps following a game that has not ended yet. */
const WARM_STREAM_DRAIN_MS = 10_000;

/**
 * Joins, plays and (unless `untilEnd` is false) waits for the end of one seat; a GameOver thrown out of `play` is a
 * normal end. A warm agent does not wait: once `play` has made its last move it is ready for the next seat, and the
 * harness hands it one only after this game is over.
 */
export async function playOneSeat(play, contract, log, untilEnd = true) {
  const client = new ArenaClient({ url: contract.url, invite: contract.invite, sessionKey: contract.sessionKey, log });
  // A warm agent that made its last move lets its streams run to the end of the game (the server then ends them and
  // their connections serve the next game); anything that went wrong cuts them at once.
  let drainMs = 0;
  try {
    await client.join(contract.agentId);
    await play({ client, rng: createRng(contract.seed), contract, log });
    if (!untilEnd) {
      drainMs = WARM_STREAM_DRAIN_MS;
      return;
    }
    const end = await client.waitForGameEnd();
    log(`game ended: ${JSON.stringify(end.scores)}`);
  } catch (error) {
    if (!(error instanceof GameOver)) throw error;
    log(`game ended: ${JSON.stringify(error.end.scores)}`);
  } finally {
    client.close({ drainMs });
  }
}
