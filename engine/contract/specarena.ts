// SpecArena wire types (see shared spec §3, §5, §7). Engine, preload and renderer all import these.
import { z } from 'zod';

export const SessionStatusSchema = z.enum(['open', 'active', 'ended']);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

export const GameCategorySchema = z.enum(['train', 'test', 'benchmark']);
export type GameCategory = z.infer<typeof GameCategorySchema>;

export const ChatMessageSchema = z.object({
  channel: z.string(),
  from: z.string(),
  to: z.string().nullable().optional(),
  content: z.string(),
  index: z.number().int().positive().optional(),
  timestamp: z.number(),
  type: z.string().optional(),
  redacted: z.literal(true).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ScoreSchema = z.object({ security: z.number(), utility: z.number() });
export type Score = z.infer<typeof ScoreSchema>;

export const AttributionSchema = z.object({
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
  type: z.string(),
});
export type Attribution = z.infer<typeof AttributionSchema>;

export const ChallengeOperatorStateSchema = z.object({
  status: SessionStatusSchema,
  completedAt: z.number().optional(),
  scores: z.array(ScoreSchema),
  players: z.array(z.string()),
  playerIdentities: z.record(z.string(), z.string()),
  attributions: z.array(AttributionSchema).optional(),
});
export type ChallengeOperatorState = z.infer<typeof ChallengeOperatorStateSchema>;

export const ChallengeMethodSchema = z.object({ name: z.string().min(1), description: z.string() });

export const ChallengeMetadataSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  players: z.number().int().min(1).max(64),
  prompt: z.string(),
  methods: z.array(ChallengeMethodSchema).min(1),
  authors: z.array(z.object({ name: z.string(), url: z.string().optional() })).optional(),
  tags: z.array(z.string()).optional(),
  url: z.string().optional(),
  icon: z.string().optional(),
  color: z.string().optional(),
});
export type ChallengeMetadata = z.infer<typeof ChallengeMetadataSchema>;

/** A session ("challenge" on the wire). `gameState` is absent while sanitized (decision 11(a)). */
export const ChallengeSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  challengeType: z.string(),
  invites: z.array(z.string()),
  state: ChallengeOperatorStateSchema,
  gameState: z.record(z.string(), z.unknown()).optional(),
  gameCategory: GameCategorySchema,
});
export type Challenge = z.infer<typeof ChallengeSchema>;

export const UserProfileSchema = z.object({
  userId: z.string(),
  username: z.string().optional(),
  model: z.string().optional(),
  isBenchmark: z.boolean().optional(),
});
export type UserProfile = z.infer<typeof UserProfileSchema>;

export const GameResultSchema = z.object({
  gameId: z.string(),
  challengeType: z.string(),
  createdAt: z.number(),
  completedAt: z.number(),
  scores: z.array(ScoreSchema),
  players: z.array(z.string()),
  playerIdentities: z.record(z.string(), z.string()),
  attributions: z.array(AttributionSchema).optional(),
});
export type GameResult = z.infer<typeof GameResultSchema>;

export const ScoringEntrySchema = z.object({
  playerId: z.string(),
  gamesPlayed: z.number().int().nonnegative(),
  metrics: z.record(z.string(), z.number()),
  username: z.string().optional(),
  model: z.string().optional(),
  isBenchmark: z.boolean().optional(),
});
export type ScoringEntry = z.infer<typeof ScoringEntrySchema>;

export const MetricDescriptorSchema = z.object({ key: z.string(), label: z.string() });
export type MetricDescriptor = z.infer<typeof MetricDescriptorSchema>;

export const ScoringStrategyNameSchema = z.enum(['average', 'win-rate', 'red-team', 'consecutive', 'global-average']);
export type ScoringStrategyName = z.infer<typeof ScoringStrategyNameSchema>;

// ---- request bodies -------------------------------------------------------------------------

export const JoinRequestSchema = z.object({
  invite: z.string(),
  userId: z.string().optional(),
  publicKey: z.string().optional(),
  signature: z.string().optional(),
  timestamp: z.unknown().optional(),
  from: z.string().optional(),
});
export type JoinRequest = z.infer<typeof JoinRequestSchema>;

export const ArenaMessageRequestSchema = z.object({
  challengeId: z.string(),
  content: z.string(),
  messageType: z.string().optional(),
  from: z.string().optional(),
});
export type ArenaMessageRequest = z.infer<typeof ArenaMessageRequestSchema>;

export const ChatSendRequestSchema = z.object({
  channel: z.string(),
  content: z.string(),
  // As the reference: omit `to` to broadcast; `"to": null` is a 400 (MCP's send_chat does accept null).
  to: z.string().optional(),
  from: z.string().optional(),
});
export type ChatSendRequest = z.infer<typeof ChatSendRequestSchema>;

export const InviteNotifyRequestSchema = z.object({ inviteId: z.string() });

export const UserUpdateRequestSchema = z.object({
  userId: z.string().optional(),
  username: z.string().optional(),
  model: z.string().optional(),
  from: z.string().optional(),
  publicKey: z.string().optional(),
  signature: z.string().optional(),
  timestamp: z.unknown().optional(),
});
export type UserUpdateRequest = z.infer<typeof UserUpdateRequestSchema>;

export const SyncQuerySchema = z.object({
  channel: z.string(),
  index: z.string().optional(),
  from: z.string().optional(),
});

// ---- responses ------------------------------------------------------------------------------

export const HealthResponseSchema = z.object({ status: z.literal('ok') });
export const ErrorBodySchema = z.object({ error: z.string(), code: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ChallengeListResponseSchema = z.object({
  challenges: z.array(ChallengeSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  profiles: z.record(z.string(), UserProfileSchema),
});
export type ChallengeListResponse = z.infer<typeof ChallengeListResponseSchema>;

export const JoinResponseSchema = z.object({
  ChallengeID: z.string(),
  ChallengeInfo: ChallengeMetadataSchema,
  sessionKey: z.string().optional(),
});
export type JoinResponse = z.infer<typeof JoinResponseSchema>;

export const MessageSentResponseSchema = z.object({ ok: z.literal('Message sent') });
export const SyncResponseSchema = z.object({ messages: z.array(ChatMessageSchema), count: z.number().int() });
export type SyncResponse = z.infer<typeof SyncResponseSchema>;
export const ChatSendResponseSchema = z.object({
  index: z.number().int(),
  channel: z.string(),
  from: z.string(),
  to: z.string().nullable(),
});
export type ChatSendResponse = z.infer<typeof ChatSendResponseSchema>;
export const InviteNotifyResponseSchema = z.object({ success: z.literal(true) });
export const ScoringResponseSchema = z.array(ScoringEntrySchema);
export const ScoringByTypeResponseSchema = z.record(z.string(), z.array(ScoringEntrySchema));
export const StatsResponseSchema = z.object({
  challenges: z.record(z.string(), z.object({ gamesPlayed: z.number().int() })),
  global: z.object({ participants: z.number().int(), gamesPlayed: z.number().int() }),
});
export type StatsResponse = z.infer<typeof StatsResponseSchema>;
export const UserScoresResponseSchema = z.object({
  global: ScoringEntrySchema.nullable(),
  challenges: z.record(z.string(), z.record(z.string(), ScoringEntrySchema)),
});
export type UserScoresResponse = z.infer<typeof UserScoresResponseSchema>;
export const MetadataResponseSchema = z.record(z.string(), ChallengeMetadataSchema);

// ---- SSE events -----------------------------------------------------------------------------

export const GameEndedDataSchema = ChallengeOperatorStateSchema.extend({
  profiles: z.record(z.string(), UserProfileSchema).optional(),
});
export const SseEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('initial'), messages: z.array(ChatMessageSchema) }),
  z.object({ type: z.literal('new_message'), message: ChatMessageSchema }),
  z.object({ type: z.literal('game_ended'), data: GameEndedDataSchema }),
]);
export type SseEvent = z.infer<typeof SseEventSchema>;
