// The admin API used by the Local Arena UI and CLI (bearer admin token; never reachable by agents).
import { z } from 'zod';
import { ChallengeMetadataSchema, ChallengeSchema, ChatMessageSchema, StatsResponseSchema } from './specarena.js';

export const ADMIN_PREFIX = '/admin/api/v1';

/** The one admin route without the token: trades a one-time launch code (from the link `arena serve` opens) for it. */
export const LAUNCH_CODE_PATH = `${ADMIN_PREFIX}/launch-code`;
export const LaunchCodeExchangeRequestSchema = z.strictObject({ code: z.string().min(1).max(256) });
export const LaunchCodeExchangeResponseSchema = z.object({ token: z.string().min(1) });
export type LaunchCodeExchangeResponse = z.infer<typeof LaunchCodeExchangeResponseSchema>;

/** Whether this browser's session cookie is live: a tab without a token asks before calling anything that would 401. */
export const ADMIN_SESSION_PATH = `${ADMIN_PREFIX}/session`;
export const AdminSessionStatusSchema = z.object({ signed_in: z.boolean() });
export type AdminSessionStatus = z.infer<typeof AdminSessionStatusSchema>;

export const OverviewResponseSchema = z.object({
  version: z.string(),
  /** Absolute path of the engine's data folder (database, reports, keys). */
  dataDir: z.string().optional(),
  authMode: z.boolean(),
  staleAfterMs: z.number(),
  challenges: z.record(z.string(), ChallengeMetadataSchema),
  stats: StatsResponseSchema,
});
export type OverviewResponse = z.infer<typeof OverviewResponseSchema>;

export const AdminSessionListQuerySchema = z.object({
  type: z.string().optional(),
  status: z.enum(['open', 'active', 'ended']).optional(),
  /** `hide`: leave out the sessions tournaments created for their games. */
  tournaments: z.enum(['show', 'hide']).default('show'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const AdminSessionListResponseSchema = z.object({
  sessions: z.array(ChallengeSchema),
  total: z.number().int(),
  /** Session id → the tournament that created it, for the sessions of this page a tournament created. */
  tournaments: z.record(z.string(), z.string()).optional(),
});
export type AdminSessionListResponse = z.infer<typeof AdminSessionListResponseSchema>;

export const AdminSessionDetailSchema = z.object({
  session: ChallengeSchema,
  options: z.record(z.string(), z.unknown()),
  lastActivityAt: z.number(),
  operatorLog: z.array(ChatMessageSchema),
  chat: z.array(ChatMessageSchema),
});
export type AdminSessionDetail = z.infer<typeof AdminSessionDetailSchema>;

/**
 * A session that may be gone on purpose (a tournament removes the session of a game that forfeited or was void once its
 * record is stored): null then, never a 404, so a viewer following a game reads the end without an error.
 */
export const AdminKeptSessionResponseSchema = z.object({ kept: AdminSessionDetailSchema.nullable() });
export type AdminKeptSessionResponse = z.infer<typeof AdminKeptSessionResponseSchema>;

export const AdminCreateSessionRequestSchema = z
  .object({
    challengeType: z.string().min(1),
    options: z.record(z.string(), z.unknown()).default({}),
    /** Issue one seat key per invite (the agent launch contract's ARENA_SESSION_KEY). */
    seatKeys: z.boolean().default(false),
  })
  .strict();
export type AdminCreateSessionRequest = z.infer<typeof AdminCreateSessionRequestSchema>;

export const AdminCreateSessionResponseSchema = z.object({ session: ChallengeSchema, seatKeys: z.array(z.string()).optional() });
export type AdminCreateSessionResponse = z.infer<typeof AdminCreateSessionResponseSchema>;

export const RecomputeResponseSchema = z.object({ games: z.number().int() });
