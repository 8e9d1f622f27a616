// The owner's dashboard for ClawArena agents (issue 17, item 5): what the hosted product's owner page does, for local
// agents, under /admin/api/v1/clawarena/…. Tokens appear only in the create and rotate responses.
import { z } from 'zod';
import { TranscriptEntrySchema } from './tournament.js';

export const RiskProfileSchema = z.enum(['conservative', 'balanced', 'aggressive']);
/** `autoplay`: queued for its lobby game whenever it polls; `manual`: seated only by tournaments (createMatch). */
export const PlayModeSchema = z.enum(['autoplay', 'manual']);

export const ClawAgentViewSchema = z.object({
  agentId: z.number().int(),
  name: z.string(),
  gameType: z.string().nullable(),
  playMode: PlayModeSchema,
  strategyHint: z.string().nullable(),
  riskProfile: RiskProfileSchema.nullable(),
  language: z.string().nullable(),
  runtimeKind: z.string().nullable(),
  createdAt: z.number(),
  lastSeenAt: z.number().nullable(),
  restartRequestedAt: z.string().nullable(),
  restartAckAt: z.string().nullable(),
});
export type ClawAgentView = z.infer<typeof ClawAgentViewSchema>;

export const ClawAgentListResponseSchema = z.object({
  agents: z.array(ClawAgentViewSchema),
  /** Game types an agent can be queued for, in the schema's order. */
  games: z.array(z.object({ gameType: z.string(), title: z.string(), players: z.number().int() })),
});
export type ClawAgentListResponse = z.infer<typeof ClawAgentListResponseSchema>;

const guidanceFields = {
  gameType: z.string().nullable().optional(),
  playMode: PlayModeSchema.optional(),
  strategyHint: z.string().max(2000).nullable().optional(),
  riskProfile: RiskProfileSchema.nullable().optional(),
  language: z.string().max(64).nullable().optional(),
};

export const CreateClawAgentRequestSchema = z.strictObject({ name: z.string().min(1).max(64), ...guidanceFields });
export type CreateClawAgentRequest = z.infer<typeof CreateClawAgentRequestSchema>;

export const UpdateClawAgentRequestSchema = z.strictObject(guidanceFields);
export type UpdateClawAgentRequest = z.infer<typeof UpdateClawAgentRequestSchema>;

/** Create and rotate: the connection token, shown this once (only its hash is stored). */
export const ClawAgentTokenResponseSchema = z.object({ agent: ClawAgentViewSchema, token: z.string() });
export type ClawAgentTokenResponse = z.infer<typeof ClawAgentTokenResponseSchema>;

export const ClawAgentResponseSchema = z.object({ agent: ClawAgentViewSchema });
export type ClawAgentResponse = z.infer<typeof ClawAgentResponseSchema>;

export const ClawAgentMatchSchema = z.object({
  matchId: z.number().int(),
  gameType: z.string(),
  status: z.string(),
  origin: z.string(),
  seats: z.array(z.object({ seat: z.number().int(), agentId: z.number().int(), name: z.string() })),
  /** 1 = best; null while the match runs. */
  placement: z.number().int().nullable(),
  finishReason: z.string().nullable(),
});
export const ClawAgentMatchesResponseSchema = z.object({ matches: z.array(ClawAgentMatchSchema) });
export type ClawAgentMatchesResponse = z.infer<typeof ClawAgentMatchesResponseSchema>;

/** GET /clawarena/matches/:id/events?after=N: a match's events past position N, running or finished (owner only). */
export const ClawMatchEventsQuerySchema = z.object({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export const ClawMatchEventsResponseSchema = z.object({
  matchId: z.number().int(),
  status: z.string(),
  /** Entries as the stored game's transcript has them, numbered from 0 over the whole log. */
  events: z.array(TranscriptEntrySchema),
  /** Events so far: pass it as `after` for only the later ones. */
  next: z.number().int(),
});
export type ClawMatchEventsResponse = z.infer<typeof ClawMatchEventsResponseSchema>;
