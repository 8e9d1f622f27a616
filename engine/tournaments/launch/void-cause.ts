// Blame by cause: a game in which an agent could not reach what the harness or the set-up owes it (its model server,
// its program) is void — a harness/config fault, replayed and never rated — whatever the clocks made of it. When the
// same cause voids games in a row, the run pauses with a message naming it and the fix (VoidStreak).

import type { Termination } from '../../core/ratings/index.js';
import type { GameAccounting } from '../results/model-usage.js';

/** Why a game was void: `key` groups repeats (one endpoint, one missing program); `message` names the fix. */
export interface VoidCause {
  key: string;
  /** The agent it happened to. */
  agent: string;
  message: string;
}

/** What blame reads and rewrites of a game's outcome (game-play.ts GameOutcome). */
interface BlamedOutcome {
  termination: Termination;
  faultedSeats: number[];
  placements: number[] | null;
  detail: string;
  voidCause?: VoidCause;
}

/** Void games in a row for one cause before the run pauses. */
export const VOID_STREAK_PAUSE = 2;

/**
 * The game as it counts: void with its cause when a seat's model agent reported its model server unreachable; the
 * model's own failures (unparsable, illegal, a reachable server's timeout) leave the outcome as it was.
 */
export function blameByCause<O extends BlamedOutcome>(outcome: O, accounting: GameAccounting | null, seatIds: readonly string[]): O {
  if (outcome.voidCause || outcome.termination === 'interrupted') return outcome;
  const lost = accounting?.unreachable?.[0];
  if (!lost) return outcome;
  const agent = seatIds[lost.seat] ?? `seat ${lost.seat + 1}`;
  const cause = unreachableModelServer(agent, lost.endpoint, lost.detail);
  return {
    ...outcome,
    termination: 'harness_error',
    faultedSeats: [],
    placements: null,
    detail: `void (harness/config): ${cause.message}`,
    voidCause: cause,
  };
}

export function unreachableModelServer(agent: string, endpoint: string, detail: string): VoidCause {
  return {
    key: `model-server:${endpoint}`,
    agent,
    message:
      `agent ${agent} could not reach its model server ${endpoint} (${detail}); start the server (e.g. \`ollama serve\`) ` +
      `or fix base_url in the agent's model.yaml, then resume`,
  };
}

export function missingProgram(agent: string, program: string): VoidCause {
  return {
    key: `program:${agent}:${program}`,
    agent,
    message: `agent ${agent} cannot start here: \`${program}\` not found; install it (or put it on PATH), or change entrypoint.command in the agent's agent.yaml, then resume`,
  };
}

/**
 * Counts, per cause, the void games in a row among the games its agent sat in: a game of that agent that is not void
 * for that cause breaks its streak, while games between other agents do not.
 */
export class VoidStreak {
  private readonly counts = new Map<string, { agent: string; count: number }>();

  /** Returns the message to pause with once a cause voided VOID_STREAK_PAUSE games in a row; else null. */
  record(outcome: { voidCause?: VoidCause }, seatIds: readonly string[]): string | null {
    const cause = outcome.voidCause;
    for (const [key, streak] of this.counts) if (key !== cause?.key && seatIds.includes(streak.agent)) this.counts.delete(key);
    if (!cause) return null;
    const count = (this.counts.get(cause.key)?.count ?? 0) + 1;
    this.counts.set(cause.key, { agent: cause.agent, count });
    return count >= VOID_STREAK_PAUSE ? `paused after ${count} void games in a row: ${cause.message}` : null;
  }
}
