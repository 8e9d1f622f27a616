// The builder's agent list as seats: one row per entry of the definition's `agents`, the same manifest as often as the
// user wants (each with its own id, so each is its own entrant with its own lifecycle). Pure, so the rows and the
// definition they make are unit-tested without a browser.
import { uniqueAgentId } from './agent-paths.js';
import type { FormAgent } from './builder-form.js';

/** What the seat rows need of a catalogue agent. */
export interface SeatAgent {
  manifest_path: string;
  id: string | null;
  name: string | null;
}

/** What the seat rows need of a chosen challenge. */
export interface SeatChallenge {
  players: { min: number; max: number };
}

/** Seats one game of the chosen challenges needs at least (a 7-seat Diplomacy, a 6-seat Mafia; 2 for a duel). */
export function tableSize(chosen: readonly SeatChallenge[]): number {
  return Math.max(2, ...chosen.map((c) => c.players.min));
}

/** Pickers shown: every chosen seat, empty ones up to a full table, then one more to add an entrant. */
export function seatRows(chosenCount: number, table: number): number {
  return Math.max(chosenCount + 1, table);
}

/** The id a seat gets for this agent: its manifest id (or name), unique among the other seats. */
function seatId(agent: SeatAgent, others: readonly FormAgent[]): string {
  return uniqueAgentId(
    agent.id ?? agent.name ?? 'agent',
    others.map((a) => a.id),
  );
}

/**
 * Seat `index` given to `agent`. A seat past the chosen ones is added after them (seats have no gaps: an empty seat
 * is one the definition does not list). The seat's id is made again for its new agent; its lifecycle choice and what
 * an import carried for it go with the agent it replaces.
 */
export function withSeatAgent(agents: readonly FormAgent[], index: number, agent: SeatAgent): FormAgent[] {
  if (index >= agents.length) return [...agents, { manifest: agent.manifest_path, id: seatId(agent, agents) }];
  const others = agents.filter((_, i) => i !== index);
  return agents.map((a, i) => (i === index ? { manifest: agent.manifest_path, id: seatId(agent, others) } : a));
}

/** The seats without seat `index`; the seats after it move up. */
export function withoutSeat(agents: readonly FormAgent[], index: number): FormAgent[] {
  return agents.filter((_, i) => i !== index);
}

/** `count` seats, every one `agent` (ids `x`, `x-2`, …): "fill every seat with …". */
export function filledSeats(count: number, agent: SeatAgent): FormAgent[] {
  const out: FormAgent[] = [];
  for (let i = 0; i < count; i++) out.push({ manifest: agent.manifest_path, id: seatId(agent, out) });
  return out;
}
