// Dependency-free SpecArena client for baseline agents (plain JS, Node >= 20 built-ins only: global fetch, timers).
// It implements the agent launch contract: the runner starts `node agent.mjs` with ARENA_* variables and expects
// exit 0 once the operator broadcasts "Game ended.", or a non-zero exit with a message on stderr.

// Agents import everything from this one path; the parts live in sibling modules (all plain JS, shipped together).
import { AgentError } from './agent-errors.mjs';
import { runWarm } from './agent-warm.mjs';
import { playOneSeat } from './play-seat.mjs';

export { AgentError, ArenaHttpError, GameOver } from './agent-errors.mjs';
export { createRng } from './agent-rng.mjs';
export { integersIn, parseGameEnd } from './agent-text.mjs';
export { nextSeat } from './agent-warm.mjs';
export { ArenaClient } from './arena-client.mjs';

/** Hard cap on an agent's runtime, so a stuck game never leaves a process behind. */
export const DEFAULT_DEADLINE_MS = 60_000;

/** Reads the launch contract. Only ARENA_URL and ARENA_INVITE are required, so an agent can also be run by hand. */
export function readLaunchContract(env = process.env) {
  const url = env.ARENA_URL;
  const invite = env.ARENA_INVITE;
  if (!url) throw new AgentError('ARENA_URL is not set');
  if (!invite) throw new AgentError('ARENA_INVITE is not set');
  return {
    url: url.replace(/\/+$/, ''),
    invite,
    challenge: env.ARENA_CHALLENGE ?? '',
    agentId: env.ARENA_AGENT_ID || undefined,
    seed: env.ARENA_SEED ?? '0',
    sessionKey: env.ARENA_SESSION_KEY || undefined,
    mcpUrl: env.ARENA_MCP_URL || undefined,
  };
}

/**
 * Runs an agent: reads the contract, joins (userId = ARENA_AGENT_ID), calls `play({client, rng, contract, log})`,
 * waits for "Game ended." and exits 0. Errors exit 1 and a blown deadline exits 2, each with a line on stderr.
 * Started warm (ARENA_AGENT_KEY set, manifest `lifecycle: persistent`), the same `play` runs once per seat the
 * harness hands out, in this one process, until the harness says the tournament is finished.
 */
export async function runAgent(play, { deadlineMs = DEFAULT_DEADLINE_MS } = {}) {
  if (process.env.ARENA_AGENT_KEY) return runWarm(play);
  let contract;
  try {
    contract = readLaunchContract();
  } catch (error) {
    process.stderr.write(`agent: ${error.message}\n`);
    process.exit(1);
  }
  const name = contract.agentId ?? 'agent';
  const log = (line) => process.stdout.write(`[${name}] ${line}\n`);
  const deadline = setTimeout(() => {
    process.stderr.write(`${name}: gave up after ${Math.round(deadlineMs / 1000)} s without the game ending\n`);
    process.exit(2);
  }, deadlineMs);
  try {
    await playOneSeat(play, contract, log);
  } catch (error) {
    clearTimeout(deadline);
    process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  clearTimeout(deadline);
  process.exit(0);
}
