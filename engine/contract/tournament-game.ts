// Stored tournament games as the admin API returns them (GET /tournaments/:id/games and /games/:index): the game row
// with its seats' agent ids, and its transcript. Lenient where the engine may add fields later (objects strip extras).
import { z } from 'zod';

export const TRANSCRIPT_CHANNELS = ['operator', 'chat', 'match', 'model'] as const;
export const TranscriptChannelSchema = z.enum(TRANSCRIPT_CHANNELS);
export type TranscriptChannel = z.infer<typeof TranscriptChannelSchema>;

/** One transcript line: `from`/`to` are seat numbers (0-based, seat order), 'operator', or a protocol-specific sender. */
export const TranscriptEntrySchema = z.object({
  index: z.number().int(),
  channel: TranscriptChannelSchema,
  from: z.union([z.number().int(), z.string()]),
  /** null: public. */
  to: z.union([z.number().int(), z.string()]).nullable(),
  content: z.string(),
  timestamp: z.number(),
  event_seq: z.number().int().optional(),
  is_auto: z.boolean().optional(),
  visibility: z.union([z.literal('public'), z.array(z.number().int())]).optional(),
  /** 'model' entries: turn, phase, attempt, protocol, prompt, truncated (and per-call usage where recorded). */
  data: z.record(z.string(), z.unknown()).optional(),
  /** Set when the text was withheld from this reader (live public feeds); stored records are complete. */
  redacted: z.boolean().optional(),
});
export type TranscriptEntryDto = z.infer<typeof TranscriptEntrySchema>;

/** Model-agent totals of one seat in one game (model-usage.ts SeatUsage). */
export const SeatUsageSchema = z.object({
  calls: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  latency_ms: z.number(),
  cost_usd: z.number(),
  fallbacks: z.record(z.string(), z.number()).default({}),
  invalid_lines: z.number().optional(),
  stderr_truncated: z.boolean().optional(),
});
export type SeatUsageDto = z.infer<typeof SeatUsageSchema>;

export const TournamentGameSchema = z.object({
  seq: z.number().int(),
  tournamentId: z.string(),
  gameIndex: z.number().int(),
  attempt: z.number().int(),
  round: z.number().int(),
  challenge: z.string(),
  /** Agent index per seat; `seat_agents` holds the agents' ids in the same order. */
  seats: z.array(z.number().int()),
  seat_agents: z.array(z.string()),
  seed: z.string(),
  sessionId: z.string().nullable(),
  invites: z.array(z.string()),
  termination: z.string(),
  fault: z.string(),
  faultedSeats: z.array(z.number().int()),
  /** 1 = first, per seat; null when the game did not complete. */
  placements: z.array(z.number()).nullable(),
  scores: z.array(z.object({ security: z.number(), utility: z.number() })).nullable(),
  detail: z.string(),
  agentMs: z.number(),
  startedAt: z.number(),
  endedAt: z.number(),
  usage: z.array(SeatUsageSchema.nullable()).nullable().optional(),
});
export type TournamentGame = z.infer<typeof TournamentGameSchema>;

export const TournamentGamesResponseSchema = z.object({ games: z.array(TournamentGameSchema), total: z.number().int() });
export type TournamentGamesResponse = z.infer<typeof TournamentGamesResponseSchema>;

export const TournamentGameDetailSchema = z.object({ game: TournamentGameSchema, transcript: z.array(TranscriptEntrySchema) });
export type TournamentGameDetail = z.infer<typeof TournamentGameDetailSchema>;
