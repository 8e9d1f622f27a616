// A knockout run's bracket as GET /tournaments/:id gives it: every meeting opened so far (round by round, in bracket
// order), byes, tie-breaks and winners by agent id, and the champion once the final is decided. Shown by the report
// browser's bracket view.
import { z } from 'zod';

export const KnockoutMeetingSchema = z.object({
  /** From 1; the final is round `rounds`. */
  round: z.number().int().min(1),
  /** Position in the round's bracket order, from 0. */
  pairing_index: z.number().int().min(0),
  /** The better-seeded agent's id. */
  high: z.string(),
  /** Its opponent's id; null for a bye (high advances without games). */
  low: z.string().nullable(),
  /** Played beside the final for third place; it feeds no next round. */
  third_place: z.boolean(),
  /** Points over the meeting's games so far (1 a win, ½ a draw), tie-breaks included. */
  points: z.object({ high: z.number(), low: z.number() }),
  tie_break_pairs: z.number().int().min(0),
  /** Null while the meeting is undecided. */
  winner: z.string().nullable(),
  /** How it was decided: `games`, `tie_break`, `seed` (still level after every tie-break) or `bye`. */
  decided_by: z.string().nullable(),
});
export type KnockoutMeeting = z.infer<typeof KnockoutMeetingSchema>;

export const KnockoutBracketSchema = z.object({
  /** Rounds the bracket has (the next power of two of the entrants: 5 entrants → 8 slots → 3 rounds). */
  rounds: z.number().int().min(1),
  entrants: z.number().int().min(2),
  meetings: z.array(KnockoutMeetingSchema),
  /** The final's winner; null until it is decided. */
  champion: z.string().nullable(),
});
export type KnockoutBracket = z.infer<typeof KnockoutBracketSchema>;

/** The bracket from the format's own summary (agent indices) and the run's agent ids; null for another format. */
export function knockoutBracket(summary: Record<string, unknown> | null, ids: readonly string[]): KnockoutBracket | null {
  if (summary?.format !== 'knockout' || !Array.isArray(summary.meetings)) return null;
  const id = (agent: unknown): string => (typeof agent === 'number' ? (ids[agent] ?? String(agent)) : String(agent));
  const meetings = (summary.meetings as Record<string, unknown>[]).map((m) =>
    KnockoutMeetingSchema.parse({
      round: m.round,
      pairing_index: m.pairing_index,
      high: id(m.high),
      low: m.low === null ? null : id(m.low),
      third_place: m.third_place === true,
      points: m.points,
      tie_break_pairs: m.tie_break_pairs,
      winner: m.winner === null || m.winner === undefined ? null : id(m.winner),
      decided_by: typeof m.decided_by === 'string' ? m.decided_by : null,
    }),
  );
  let rounds = 1;
  while (2 ** rounds < ids.length) rounds++;
  const final = meetings.find((m) => m.round === rounds && !m.third_place);
  return { rounds, entrants: ids.length, meetings, champion: final?.winner ?? null };
}
