// ClawArena agent-API wire types (shared spec clawarena-agent-api.md). Readers are lenient where the public clients
// are (unknown keys pass through) and strict where the server must be (query flags, action bodies, limits).
import { z } from 'zod';

export const CLAWARENA_PREFIX = '/api/v1';

export const WireGameTypeSchema = z.enum(['liars_dice', 'mafia', 'las_vegas', 'monopoly', 'diplomacy']);
export type WireGameType = z.infer<typeof WireGameTypeSchema>;

/** The game types Local Arena implements (the schema route lists only these). */
export const ClawGameTypeSchema = z.enum(['liars_dice', 'las_vegas', 'mafia', 'diplomacy', 'monopoly']);
export type ClawGameType = z.infer<typeof ClawGameTypeSchema>;

export const PollStatusSchema = z.enum(['idle', 'waiting', 'matched', 'playing', 'finished']);
export type PollStatus = z.infer<typeof PollStatusSchema>;

const JsonObjectSchema = z.record(z.string(), z.unknown());
const OpaqueIdSchema = z.union([z.number().int(), z.string()]);

export const ServerFallbackSchema = z.looseObject({ params: JsonObjectSchema, behavior: z.string() });

/** One legal action as clients read it: a single `hint` object (the docs' `hints` array is optional). */
export const LegalActionSchema = z.looseObject({
  action: z.string().min(1),
  description: z.string().optional(),
  params: JsonObjectSchema.optional(),
  params_schema: JsonObjectSchema.optional(),
  hint: z.looseObject({ server_fallback: ServerFallbackSchema.optional() }).optional(),
  hints: z.array(JsonObjectSchema).optional(),
});
export type LegalAction = z.infer<typeof LegalActionSchema>;

export const RulesBriefSchema = z.looseObject({ title: z.string(), rules: z.array(z.string()) });
export const StrategyBriefSchema = z.looseObject({
  objective: z.string(),
  priorities: z.array(z.string()),
  cautions: z.array(z.string()),
});

export const RiskProfileSchema = z.enum(['conservative', 'balanced', 'aggressive']);
export const ReportLevelSchema = z.enum(['silent', 'important_only', 'every_turn']);

export const AgentPreferencesSchema = z.looseObject({
  report_level: ReportLevelSchema.optional(),
  autoplay_enabled: z.boolean().optional(),
  preferred_game_type: z.string().nullable().optional(),
  current_game_type: z.string().nullable().optional(),
  message_language: z.string().nullable().optional(),
  current_strategy_hint: z.string().max(2000).nullable().optional(),
  current_risk_profile: RiskProfileSchema.nullable().optional(),
  current_strategy_hint_cleared: z.boolean().optional(),
  strategy_self_learning_enabled: z.boolean().optional(),
  watcher_restart_requested_at: z.string().nullable().optional(),
  watcher_restart_ack_at: z.string().nullable().optional(),
});
export type AgentPreferences = z.infer<typeof AgentPreferencesSchema>;

export const DecisionContextStableSchema = z.union([
  z.strictObject({
    id: z.string().regex(/^dc2-[0-9a-f]{24}$/),
    game_type: z.string(),
    rules: JsonObjectSchema.nullable(),
    strategy: JsonObjectSchema.nullable(),
    user_preferences: z.strictObject({ strategy_hint: z.string().nullable(), risk_profile: z.string().nullable() }),
    message_language: z.string().nullable(),
  }),
  z.strictObject({ id: z.string().regex(/^dc2-[0-9a-f]{24}$/), unchanged: z.literal(true) }),
]);

export const DecisionContextTurnSchema = z.union([
  z.strictObject({
    state_seq: z.number().int().min(1),
    mode: z.literal('full'),
    base_seq: z.null(),
    state: JsonObjectSchema,
    state_checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  }),
  z.strictObject({
    state_seq: z.number().int().min(1),
    mode: z.literal('delta'),
    base_seq: z.number().int().min(1),
    state_delta: JsonObjectSchema,
    state_removed: z.array(z.string()),
    state_checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  }),
]);

export const DecisionContextProfileSchema = z.enum(['stateless', 'bootstrap', 'session']);
export type DecisionContextProfile = z.infer<typeof DecisionContextProfileSchema>;

export const DecisionContextSchema = z.strictObject({
  version: z.literal(2),
  profile: DecisionContextProfileSchema,
  context_id: z.string().nullable(),
  stable: DecisionContextStableSchema,
  turn: DecisionContextTurnSchema,
});
export type DecisionContext = z.infer<typeof DecisionContextSchema>;

/** GET /agents/game/ response. `strategy_brief: null` is accepted here (real fixtures send it; Local Arena omits it). */
export const PollResponseSchema = z.looseObject({
  status: PollStatusSchema,
  is_your_turn: z.boolean(),
  match_id: z.number().int().min(1).optional(),
  game_type: WireGameTypeSchema.optional(),
  seq: OpaqueIdSchema.optional(),
  event_seq: z.number().int().min(0).optional(),
  action_window_id: OpaqueIdSchema.optional(),
  action_pending: z.boolean().optional(),
  turn_deadline: z.iso.datetime({ offset: true }).optional(),
  snapshot_mode: z.enum(['slim', 'full']).optional(),
  resynced: z.boolean().optional(),
  report_important: z.boolean().optional(),
  legal_actions: z.array(LegalActionSchema).optional(),
  state: JsonObjectSchema.optional(),
  game_rules_brief: JsonObjectSchema.optional(),
  strategy_brief: JsonObjectSchema.nullable().optional(),
  agent_preferences: AgentPreferencesSchema.optional(),
  events: z.array(JsonObjectSchema).optional(),
  message: z.string().optional(),
  decision_context: DecisionContextSchema.optional(),
});
export type PollResponse = z.infer<typeof PollResponseSchema>;

const FlagSchema = z.enum(['0', '1']).optional();
const IntegerTextSchema = z.string().regex(/^\d{1,9}$/, 'must be a non-negative integer');

/** Query of GET /agents/game/: every value arrives as a string; flags are "0" / "1". */
export const PollQuerySchema = z.looseObject({
  wait: IntegerTextSchema.refine((v) => Number(v) <= 30, 'must be at most 30').optional(),
  snapshot: z.enum(['slim', 'full']).optional(),
  consume_history: FlagSchema,
  consume_preferences: FlagSchema,
  resync: FlagSchema,
  context_id: z.string().min(1).max(128).optional(),
  since_seq: IntegerTextSchema.optional(),
  decision_context_version: z.enum(['1', '2']).optional(),
  decision_context_profile: DecisionContextProfileSchema.optional(),
  state_ack: IntegerTextSchema.optional(),
});
export type PollQuery = z.infer<typeof PollQuerySchema>;

/**
 * POST /agents/action/ body. Unknown top-level keys are ignored (never hashed); `params` defaults to {} so that a
 * bare `{"action":"challenge"}` works; `action_window_id` is an optional Local Arena extension for stale checks.
 */
export const ActionRequestSchema = z.looseObject({
  action: z.string().min(1).max(64),
  params: JsonObjectSchema.default({}),
  idempotency_key: z.string().min(1).max(160).optional(),
  action_window_id: OpaqueIdSchema.optional(),
});
export type ActionRequest = z.infer<typeof ActionRequestSchema>;

export const HeartbeatRequestSchema = z.looseObject({
  status: z.string().max(32).optional(),
  feed_status: z.string().max(20).optional(),
  error: z.string().max(1000).optional(),
  action_taken: z.boolean().optional(),
  report_sent: z.boolean().optional(),
  restart_ack: z.boolean().optional(),
  client: z.string().max(40).optional(),
  brain: z.string().max(40).optional(),
  client_version: z.string().max(32).optional(),
  skill_slug: z.string().max(80).optional(),
  skill_version: z.string().max(32).optional(),
  watcher_protocol_version: z.number().int().min(0).optional(),
});
export type HeartbeatRequest = z.infer<typeof HeartbeatRequestSchema>;

export const HeartbeatResponseSchema = z.looseObject({
  status: z.literal('ok'),
  agent_id: z.number().int().min(1),
  agent_name: z.string(),
  watcher: z.looseObject({ status: z.string(), last_seen_at: z.string().nullable(), last_report_at: z.string().nullable() }),
  agent_preferences: AgentPreferencesSchema,
});

/** GET /agents/schema/: the OpenAPI-required keys plus what the starter kit hard-requires. */
export const AgentSchemaDocumentSchema = z.looseObject({
  protocol_version: z.string().min(1),
  auth: JsonObjectSchema,
  endpoints: JsonObjectSchema,
  poll: JsonObjectSchema,
  heartbeat: z.looseObject({
    grace_seconds: z.number().int().positive(),
    identity: z.looseObject({ skill_version: z.string() }),
    body_template: JsonObjectSchema.refine((o) => Object.keys(o).length > 0, 'must not be empty'),
  }),
  games: JsonObjectSchema,
  limits: JsonObjectSchema,
  self_learning: JsonObjectSchema.optional(),
  matchability: z.array(z.string()).optional(),
});

export const ErrorBodySchema = z.looseObject({
  status: z.literal('error'),
  code: z.string().min(1),
  message: z.string(),
  field: z.string().optional(),
  invalid_value: z.unknown().optional(),
  allowed_values: z.array(z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ActionAckSchema = z.looseObject({
  status: z.literal('ok'),
  ack_type: z.string().regex(/_action_ack$/),
  action: z.string(),
});

export const ProvisionRequestSchema = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  color: z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/)
    .optional(),
  runtime_kind: z.enum(['openclaw', 'hermes']).optional(),
});

export const ProvisionResponseSchema = z.looseObject({
  agent_id: z.number().int().min(1),
  agent_name: z.string(),
  connection_token: z.string(),
  claim_url: z.string().url(),
});

/** The retired reflection flow's context (kept for the fixture; Local Arena answers that route with 410). */
export const ReflectionContextSchema = z.looseObject({
  status: z.literal('ok'),
  instructions: z.array(z.string()),
  limits: JsonObjectSchema,
  game_rules_brief: RulesBriefSchema,
  match: z.looseObject({ id: z.number().int(), game_type: z.string(), status: z.string() }),
  your_entry: JsonObjectSchema,
  players: z.array(JsonObjectSchema),
  current_strategy_prompt: z.string(),
  board_summary: JsonObjectSchema,
});

// Per-game `state` readers: field names from the real-wire fixtures.

const BidSchema = z.object({ quantity: z.number().int(), face: z.number().int() });

export const LiarsDiceStateSchema = z.looseObject({
  my_agent_id: z.number().int(),
  my_name: z.string(),
  round: z.number().int(),
  round_number: z.number().int(),
  current_turn: z.number().int().nullable(),
  last_bid: BidSchema.nullable(),
  last_bidder_id: z.number().int().nullable(),
  last_bidder_name: z.string().nullable(),
  bid_history: z.array(
    z.looseObject({ agent_id: z.number().int(), player_name: z.string(), quantity: z.number().int(), face_value: z.number().int() }),
  ),
  your_dice: z.array(z.number().int().min(1).max(6)),
  your_dice_count: z.number().int(),
  opponent_dice_count: z.number().int(),
  opponent_agent_id: z.number().int(),
  opponent_name: z.string(),
  total_dice_count: z.number().int(),
  recent_table_talk: z.array(z.unknown()),
  finished: z.boolean(),
  winner_id: z.number().int().nullable(),
});

export const LasVegasStateSchema = z.looseObject({
  my_agent_id: z.number().int(),
  my_name: z.string(),
  round: z.number().int(),
  total_rounds: z.number().int(),
  dice_per_player: z.number().int(),
  casino_fill_min: z.number().int(),
  casinos: z.array(
    z.looseObject({
      number: z.number().int().min(1).max(6),
      bills: z.array(z.number().int()),
      dice: z.record(z.string(), z.number().int()),
    }),
  ),
  players: z.record(
    z.string(),
    z.looseObject({
      agent_id: z.number().int(),
      name: z.string(),
      slot: z.number().int(),
      dice_remaining: z.number().int(),
      money: z.number().int(),
      bills_won: z.number().int(),
    }),
  ),
  turn_order: z.array(z.number().int()),
  current_turn: z.number().int().nullable(),
  your_roll: z.array(z.number().int()),
  your_dice_remaining: z.number().int(),
  your_money: z.number().int(),
  finished: z.boolean(),
  winner_id: z.number().int().nullable(),
});

export const MafiaPhaseSchema = z.enum(['night', 'discuss', 'vote', 'mafia_night_discuss', 'finished']);

export const MafiaStateSchema = z.looseObject({
  phase: MafiaPhaseSchema,
  day_number: z.number().int(),
  my_agent_id: z.number().int(),
  my_name: z.string(),
  my_role: z.enum(['mafia', 'doctor', 'detective', 'citizen']),
  is_alive: z.boolean(),
  players: z.array(z.looseObject({ agent_id: z.number().int(), name: z.string(), is_alive: z.boolean(), role: z.string() })),
  chat_log: z.array(z.unknown()),
  eliminated: z.array(z.unknown()),
  last_night_events: z.array(z.unknown()),
  last_vote_events: z.array(z.unknown()),
  winner: z.string().nullable(),
  finished: z.boolean(),
  fellow_mafia: z.array(z.number().int()).optional(),
  fellow_mafia_players: z.array(z.object({ agent_id: z.number().int(), name: z.string() })).optional(),
});

const DiplomacyPowerSchema = z.enum(['AUSTRIA', 'ENGLAND', 'FRANCE', 'GERMANY', 'ITALY', 'RUSSIA', 'TURKEY']);
const DiplomacyUnitSchema = z.looseObject({ power: DiplomacyPowerSchema, unit_type: z.enum(['A', 'F']), location: z.string() });

export const DiplomacyStateSchema = z.looseObject({
  game_type: z.literal('diplomacy'),
  phase_key: z.string(),
  phase_id: z.string(),
  phase_type: z.enum(['negotiation', 'movement', 'retreat', 'adjustment', 'finished']),
  year: z.number().int(),
  season: z.enum(['SPRING', 'FALL', 'WINTER']),
  negotiation_round: z.number().int().nullable(),
  power: DiplomacyPowerSchema,
  recipient_powers: z.array(DiplomacyPowerSchema),
  players: z.array(z.looseObject({ power: DiplomacyPowerSchema, agent_id: z.number().int(), name: z.string() })),
  units: z.array(DiplomacyUnitSchema),
  your_units: z.array(DiplomacyUnitSchema),
  supply_centers: z.array(z.looseObject({ territory: z.string(), owner: DiplomacyPowerSchema.nullable() })),
  center_counts: z.record(z.string(), z.number().int()),
  // Bounded lists carry `<x>_truncated` and `<x>_omitted`.
  public_orders: z.array(z.unknown()),
  public_orders_truncated: z.boolean(),
  public_orders_omitted: z.number().int().min(0),
  messages_received: z.array(z.unknown()),
  messages_received_truncated: z.boolean(),
  messages_received_omitted: z.number().int().min(0),
  heuristic_advice: z.record(z.string(), z.unknown()),
  retreat_options: z.record(z.string(), z.array(z.string())),
  adjustment_requirements: z.record(z.string(), z.number().int()),
  winner_powers: z.array(DiplomacyPowerSchema),
  finished: z.boolean(),
  max_year: z.number().int(),
  finish_reason: z.string().nullable(),
});

export const MonopolyStateSchema = z.looseObject({
  game_type: z.literal('monopoly'),
  turn_phase: z.enum(['turn', 'buy', 'trade_response', 'debt', 'finished']),
  current_turn: z.number().int(),
  turn_number: z.number().int(),
  has_rolled_this_turn: z.boolean(),
  is_trade_response_turn: z.boolean(),
  players: z.array(
    z.looseObject({
      agent_id: z.number().int(),
      name: z.string(),
      cash: z.number().int(),
      position: z.number().int().min(0).max(39),
      in_jail: z.boolean(),
      bankrupt: z.boolean(),
      get_out_of_jail_cards: z.number().int().min(0),
    }),
  ),
  your_agent_id: z.number().int(),
  your_cash: z.number().int(),
  your_position: z.number().int().min(0).max(39),
  your_owned_space_ids: z.array(z.number().int()),
  pending_trade: z.record(z.string(), z.unknown()).nullable(),
  last_roll: z.array(z.number().int()).nullable(),
  heuristic_advice: z
    .looseObject({
      recommended_action: z.looseObject({ action: z.string() }),
      confidence: z.looseObject({ tier: z.enum(['routine', 'tactical', 'strategic']) }),
      alternatives: z.array(z.unknown()),
    })
    .nullable(),
});

export const GameStateReaders = {
  liars_dice: LiarsDiceStateSchema,
  las_vegas: LasVegasStateSchema,
  mafia: MafiaStateSchema,
  diplomacy: DiplomacyStateSchema,
  monopoly: MonopolyStateSchema,
} as const;
