// The board-view seam: each playable's folder holds a pure `board-state.ts` (a game's recorded lines → what its
// board shows after any of them) and a `board-view.tsx` that draws it. The match viewer replays the lines up to the
// selected one, so scrubbing the timeline replays the board. Pure, so every game's reducer is unit-tested on
// recorded games.
import type { TranscriptEntry } from '../contract/tournament.js';

/** A stored transcript line, or a live one whose text was withheld from this reader. */
export type BoardLine = TranscriptEntry & { redacted?: boolean };

export interface BoardContext {
  /** Tournament agent id per seat (0-based seats). */
  seatAgents: readonly string[];
  /** SpecArena invite per seat (empty for ClawArena games). */
  invites: readonly string[];
  /** ClawArena: the seat of each wire agent id (see `clawSeats`); empty for SpecArena games. */
  agentSeats: ReadonlyMap<number, number>;
}

export function boardContext(lines: readonly BoardLine[], seatAgents: readonly string[], invites: readonly string[]): BoardContext {
  return { seatAgents, invites, agentSeats: clawSeats(lines, seatAgents.length) };
}

export interface BoardModel<B> {
  /** The playable id it draws (challenge id or ClawArena game_type). */
  id: string;
  /**
   * The board after `lines[0..upto]` (inclusive; -1 = before the first line). `lines` is the whole record in
   * timeline order: facts fixed from the start but revealed only later (Liar's Dice hands) may be read ahead.
   */
  board(lines: readonly BoardLine[], upto: number, ctx: BoardContext): B;
  /** A readable sentence for one line (agents named), or null to keep the line's own text. */
  sentence(line: BoardLine, ctx: BoardContext): string | null;
}

/** "honest-exact (seat 1)": seats count from 1 for people. */
export function seatName(seat: number, ctx: BoardContext): string {
  const agent = ctx.seatAgents[seat];
  return agent ? `${agent} (seat ${seat + 1})` : `seat ${seat + 1}`;
}

/** Integers in a text ("Your private set is: {101, 202}." → [101, 202]). */
export function integersIn(text: string): number[] {
  return (text.match(/-?\d+/g) ?? []).map(Number);
}

// ---- ClawArena: wire agent ids → seats -----------------------------------------------------------------------

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const rec = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * Which seat each wire agent id sat in. The runtime's `match_finished` names every slot; before it (a game cut
 * short), the order the agents were created in (seat order for the tournament's own seats) fills the gaps.
 */
export function clawSeats(lines: readonly BoardLine[], seatCount: number): Map<number, number> {
  const seats = new Map<number, number>();
  const ids = new Set<number>();
  for (const line of lines) {
    if (line.channel !== 'match' || !line.data) continue;
    const data = line.data;
    if (line.content === 'match_finished' && Array.isArray(data.placements)) {
      for (const p of data.placements) {
        const agent = num(rec(p)?.agent_id);
        const slot = num(rec(p)?.slot);
        if (agent !== null && slot !== null) seats.set(agent, slot);
      }
    }
    for (const key of ['agent_id', 'actor_id', 'player_id', 'challenger_id', 'bidder_id', 'winner_id', 'from_agent_id', 'to_agent_id']) {
      const id = num(data[key]);
      if (id !== null) ids.add(id);
    }
    if (Array.isArray(data.players))
      for (const p of data.players) if (num(rec(p)?.agent_id) !== null) ids.add(num(rec(p)?.agent_id) as number);
  }
  const taken = new Set(seats.values());
  const free = Array.from({ length: seatCount }, (_, i) => i).filter((s) => !taken.has(s));
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (seats.has(id)) continue;
    const seat = free.shift();
    if (seat === undefined) break;
    seats.set(id, seat);
  }
  return seats;
}

/** Names a wire agent by its seat's tournament agent ("baseline-node (seat 1)"), else by its wire name. */
export function clawName(ctx: BoardContext, agentId: unknown, wireName?: unknown): string {
  const id = num(agentId);
  const seat = id === null ? undefined : ctx.agentSeats.get(id);
  if (seat !== undefined) return seatName(seat, ctx);
  if (typeof wireName === 'string' && wireName !== '') return wireName;
  return id === null ? 'someone' : `agent ${id}`;
}

/** Match events up to `upto` (inclusive), in order. */
export function matchEvents(lines: readonly BoardLine[], upto: number): BoardLine[] {
  return lines.slice(0, upto + 1).filter((l) => l.channel === 'match');
}

/** The data of a match line as a record (never undefined). */
export function dataOf(line: BoardLine): Record<string, unknown> {
  return line.data ?? {};
}

export { num as asNumber, rec as asRecord };

/** The seat of a wire agent id, when known. */
export function clawSeat(ctx: BoardContext, agentId: unknown): number | undefined {
  const id = num(agentId);
  return id === null ? undefined : ctx.agentSeats.get(id);
}

/** The match runtime's own events, the same in every ClawArena game. */
export function runtimeSentence(line: BoardLine, ctx: BoardContext): string | null {
  if (line.channel !== 'match') return null;
  const d = dataOf(line);
  if (line.content === 'match_started') return 'The match starts: every seat is connected.';
  if (line.content === 'match_finished') {
    const winners = Array.isArray(d.winner_ids) ? d.winner_ids.map((id) => clawName(ctx, id)) : [];
    const reason = typeof d.finish_reason === 'string' ? ` (${d.finish_reason.replace(/_/g, ' ')})` : '';
    return winners.length === 0 ? `The match is over${reason}: no winner.` : `The match is over${reason}: ${winners.join(' and ')} won.`;
  }
  return null;
}

/** What a board view component gets. */
export interface BoardViewProps<B> {
  board: B;
  ctx: BoardContext;
}

/** A playable's board: the reducer and the component that draws it (`V` is the UI library's node type). */
export interface BoardViewEntry<B, V = unknown> {
  model: BoardModel<B>;
  View: (props: BoardViewProps<B>) => V;
}

/** The numbers of a JSON array (anything else: none). */
export function numbersOf(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}
