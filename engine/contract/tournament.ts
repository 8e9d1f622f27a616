// Tournament admin API and event feed (issue 5): request bodies, list queries and the events the executor emits —
// the same objects go to the SSE feed, to `arena run --json` (one per line) and to the UI.
import { z } from 'zod';
import { IsolationSchema } from './isolation.js';
import { KnockoutBracketSchema } from './knockout-bracket.js';
import { PreflightProblemSchema } from './preflight.js';
import { AgentLifecycleStatsSchema } from './warm-agent.js';

export const TOURNAMENT_STATUSES = ['running', 'paused', 'finished', 'cancelled', 'failed'] as const;
export const TournamentStatusSchema = z.enum(TOURNAMENT_STATUSES);

/** POST /tournaments and /tournaments/validate: the definition as JSON, or its YAML/JSON text with a base folder. */
export const TournamentCreateRequestSchema = z.union([
  z.strictObject({
    spec: z.record(z.string(), z.unknown()),
    /** Folder that relative agent manifest paths resolve against (default: the working folder of the engine). */
    base_dir: z.string().min(1).optional(),
    start: z.boolean().default(true),
  }),
  z.strictObject({
    spec_text: z.string().min(1),
    base_dir: z.string().min(1).optional(),
    start: z.boolean().default(true),
  }),
  z.strictObject({
    /** Path of a YAML/JSON definition on this machine; manifests resolve against its folder. */
    spec_file: z.string().min(1),
    start: z.boolean().default(true),
  }),
]);
export type TournamentCreateRequest = z.infer<typeof TournamentCreateRequestSchema>;

export const TournamentListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  /** Case-insensitive part of the name or the id. */
  q: z.string().max(200).optional(),
  status: TournamentStatusSchema.optional(),
  /** exclude (default): runs not archived; only: the archive; include: both. */
  archived: z.enum(['exclude', 'only', 'include']).default('exclude'),
});

/** POST /tournaments/:id/archive. */
export const TournamentArchiveRequestSchema = z.strictObject({ archived: z.boolean() });

/** A game index in a route (`/tournaments/:id/games/:index/...`). */
export const GameIndexSchema = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** GET /tournaments/:id/games/:index/export. */
export const GameExportQuerySchema = z.object({ format: z.enum(['json', 'jsonl']).default('json') });

/** POST /tournaments/:id/games/:index/rerun: the new one-game run, started unless `start` is false. */
export const GameRerunRequestSchema = z.strictObject({ start: z.boolean().default(true) });

/** DELETE /tournaments/:id. */
export const TournamentDeleteResponseSchema = z.object({ deleted: z.string(), reports_removed: z.boolean() });

/** How long a definition will take, from this data folder's measured game times (issue 16). */
export const RunEstimateSchema = z.object({
  /** Median-based wall time at the definition's concurrency (at most the worst case); null when some challenge has no measured games. */
  seconds: z.number().nullable(),
  /** Every game using its whole game_seconds limit: ⌈planned / concurrency⌉ × game_seconds. */
  worst_case_seconds: z.number(),
  per_challenge: z.array(
    z.object({
      challenge: z.string(),
      samples: z.number().int(),
      median_ms: z.number().nullable(),
      /** Whose games the median is of: only this run's agents, any agents of the challenge, or none (limits only). */
      source: z.enum(['agents', 'challenge', 'limits']),
    }),
  ),
  /** Reasons to look twice before Start (a very long run, nothing measured); empty when none. */
  warnings: z.array(z.string()),
});
export type RunEstimate = z.infer<typeof RunEstimateSchema>;

export const TournamentGamesQuerySchema = z.object({
  challenge: z.string().optional(),
  /** Agent id (as in the definition) that sat in the game. */
  agent: z.string().optional(),
  termination: z.string().optional(),
  /** Include replayed void attempts (default: only the attempt that counts). */
  all_attempts: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const TournamentSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  status: TournamentStatusSchema,
  stop_reason: z.string().nullable(),
  planned_games: z.number().int(),
  planned_exact: z.boolean(),
  games_done: z.number().int(),
  manifest_hash: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  finished_at: z.number().nullable(),
  active: z.boolean(),
  /** While active: a pause or cancel the engine has accepted and is carrying out (the games in flight end first). */
  stopping: z.enum(['pausing', 'cancelling']).optional(),
  /**
   * Running but not in this engine: the pid of the other engine process on the data directory that plays it (which
   * alone may pause or cancel it), or null when none does (its engine stopped without pausing it: it can be resumed).
   */
  played_by_pid: z.number().int().nullable().optional(),
  /** When the run was archived (hidden from the default list); null or absent: not archived. */
  archived_at: z.number().nullable().optional(),
  /** While it runs with warm agents: each agent's lifecycle, processes started and restarts. */
  agent_lifecycles: z.array(AgentLifecycleStatsSchema).optional(),
  /** Format adaptive (only from GET /tournaments/:id): stop reason, adjacent pairs decided or not, budget used. */
  adaptive: z.record(z.string(), z.unknown()).optional(),
  /** Format knockout (only from GET /tournaments/:id): the bracket so far and the champion. */
  knockout: KnockoutBracketSchema.optional(),
});
export type TournamentSummary = z.infer<typeof TournamentSummarySchema>;

const SprtSchema = z.object({ llr: z.number(), lower: z.number(), upper: z.number(), decision: z.string() });

const LeaderSchema = z.object({ agent: z.string(), points: z.number(), games: z.number().int() }).nullable();

export const TournamentEventSchema = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('started'),
    tournament_id: z.string(),
    name: z.string(),
    planned_games: z.number().int(),
    planned_exact: z.boolean(),
    games_done: z.number().int(),
    resumed: z.boolean(),
    at: z.number(),
  }),
  z.object({
    event: z.literal('game_started'),
    tournament_id: z.string(),
    game_index: z.number().int(),
    attempt: z.number().int(),
    challenge: z.string(),
    seats: z.array(z.string()),
    seed: z.string(),
    /** Where this attempt is followed live: a SpecArena session or `clawarena:<match id>`; null for scripted test games. */
    session_id: z.string().nullable(),
    at: z.number(),
  }),
  z.object({
    event: z.literal('game_ended'),
    tournament_id: z.string(),
    game_index: z.number().int(),
    attempt: z.number().int(),
    challenge: z.string(),
    seats: z.array(z.string()),
    termination: z.string(),
    fault: z.string(),
    faulted_seats: z.array(z.number().int()),
    /** The counted result, as in the games list: a forfeit's faulted seats last, the others first. */
    placements: z.array(z.number()).nullable(),
    forfeit: z.boolean(),
    /** True when the game was void and will be replayed. */
    replay: z.boolean(),
    duration_ms: z.number(),
    games_done: z.number().int(),
    planned_games: z.number().int(),
    leader: LeaderSchema,
    sprt: SprtSchema.nullable(),
    /** Runs with warm agents: every agent's lifecycle and restart count so far. */
    lifecycles: z.array(AgentLifecycleStatsSchema).optional(),
    at: z.number(),
  }),
  z.object({
    event: z.literal('paused'),
    tournament_id: z.string(),
    games_done: z.number().int(),
    /** Set when the run paused by itself: the set-up fault that kept voiding games, and its fix. */
    reason: z.string().optional(),
    at: z.number(),
  }),
  z.object({ event: z.literal('cancelled'), tournament_id: z.string(), games_done: z.number().int(), at: z.number() }),
  z.object({ event: z.literal('failed'), tournament_id: z.string(), error: z.string(), at: z.number() }),
  z.object({
    event: z.literal('finished'),
    tournament_id: z.string(),
    stop_reason: z.string(),
    games_done: z.number().int(),
    report_dir: z.string().nullable(),
    at: z.number(),
  }),
]);
export type TournamentEvent = z.infer<typeof TournamentEventSchema>;

/** A run's report folder: the reports, the two CSVs (header row first) and the run manifest beside them. */
export const EXPORT_FILES = ['report.json', 'events.jsonl', 'report.md', 'standings.csv', 'games.csv', 'manifest.json'] as const;
export const ExportFileSchema = z.enum(EXPORT_FILES);

/**
 * Model-spend columns of a standings row (GET /tournaments/:id/standings, report.json, standings.csv). Null means
 * undefined — no model usage recorded, no rating, or the weakest-rated agent itself — never "free". Cost per rating
 * point is the spend per game divided by the Elo points above the weakest-rated agent of the same table
 * (engine/tournaments/results/stats.ts). Optional so that the standings row schema can absorb them as they are.
 */
export const StandingCostFieldsSchema = z.object({
  tokens: z.number().int().nullable().optional(),
  cost_usd: z.number().nullable().optional(),
  cost_per_game_usd: z.number().nullable().optional(),
  cost_per_rating_point: z.number().nullable().optional(),
});
export type StandingCostFields = z.infer<typeof StandingCostFieldsSchema>;

// ---- UI additions (issue 6) -------------------------------------------------------------------

/** POST /tournaments/validate: what the builder shows before Start. */
export const TournamentValidateResponseSchema = z.object({
  ok: z.literal(true),
  name: z.string(),
  agents: z.array(z.string()),
  challenges: z.array(z.string()),
  planned_games: z.number().int(),
  /** False for formats whose length depends on results (Swiss byes, knockout tie-breaks, SPRT stops early). */
  planned_exact: z.boolean(),
  /** How long it will take, from measured game times. */
  estimate: RunEstimateSchema.optional(),
  /** What would stop it starting on this machine (a model server down, a program missing); Start refuses these. */
  preflight: z.array(PreflightProblemSchema).optional(),
});
export type TournamentValidateResponse = z.infer<typeof TournamentValidateResponseSchema>;

/** GET /tournaments/catalog: what a tournament can be built from. */
export const TournamentCatalogResponseSchema = z.object({
  challenges: z.array(
    z.object({
      id: z.string(),
      protocol: z.enum(['specarena', 'clawarena']),
      name: z.string(),
      description: z.string(),
      players: z.object({ min: z.number().int(), max: z.number().int() }),
      /** The options a game gets when the definition's `options` leave them out (the builder shows them as a hint). */
      default_options: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  formats: z.array(z.enum(['round-robin', 'gauntlet', 'swiss', 'knockout', 'adaptive'])),
  /** Folder relative manifest paths resolve against when a definition is created without base_dir. */
  base_dir: z.string(),
});
export type TournamentCatalogResponse = z.infer<typeof TournamentCatalogResponseSchema>;

/** GET /tournaments/:id/running: games in flight now. */
export const RunningGameSchema = z.object({
  game_index: z.number().int(),
  attempt: z.number().int(),
  challenge: z.string(),
  seats: z.array(z.string()),
  /**
   * Where to follow the game live, null until it exists: a SpecArena session (the admin session routes), or
   * `clawarena:<match id>` (GET /clawarena/matches/:id/events).
   */
  session_id: z.string().nullable(),
  started_at: z.number(),
});
export const RunningGamesResponseSchema = z.object({ games: z.array(RunningGameSchema) });
export type RunningGamesResponse = z.infer<typeof RunningGamesResponseSchema>;
export type RunningGame = z.infer<typeof RunningGameSchema>;

/** GET /tournaments/:id/charts: rating over games and the pairwise win-rate matrix. */
export const TournamentChartsResponseSchema = z.object({
  agents: z.array(z.string()),
  /**
   * The standings' Bradley–Terry rating of each agent (agent order) after the first `games` settled games, at up to 60
   * evenly spaced counts; the last point is the standings' rating. null while an agent has no rated comparison.
   */
  rating_history: z.array(z.object({ games: z.number().int(), ratings: z.array(z.number().nullable()) })),
  /** cells[i][j]: agent i's score against agent j (wins + draws/2 over games), null when they never met. */
  pairwise: z.array(z.array(z.object({ games: z.number().int(), score_pct: z.number() }).nullable())),
});
export type TournamentChartsResponse = z.infer<typeof TournamentChartsResponseSchema>;

// ---- Responses of the routes the UI reads (kept honest by test/engine/http/tournament-contract.test.ts) ----------

export const TournamentListResponseSchema = z.object({ tournaments: z.array(TournamentSummarySchema), total: z.number().int() });
export type TournamentListResponse = z.infer<typeof TournamentListResponseSchema>;

export const StandingRowSchema = z.object({
  rank: z.number().int(),
  rank_range: z.tuple([z.number().int(), z.number().int()]),
  /** The manifest id (with "@hash" when two versions of one id play), or the definition's own id; never a path. */
  agent: z.string(),
  /** The manifest's name. */
  agent_name: z.string(),
  games: z.number().int(),
  wins: z.number().int(),
  draws: z.number().int(),
  losses: z.number().int(),
  points: z.number(),
  /** 100 · points / games; null before the agent's first rated game. */
  score_pct: z.number().nullable(),
  rating: z.number().nullable(),
  /** null with a rating: the games put no bound on that side (e.g. a perfect record). */
  rating_lower: z.number().nullable(),
  rating_upper: z.number().nullable(),
  /** The interval as every view prints it: "1183 [1012, 1354]", "1183 [> 1012]", "817 [< 988]". */
  rating_interval: z.string().nullable(),
  /** Mean SpecArena security / utility, when the challenge reports them. */
  security: z.number().nullable(),
  utility: z.number().nullable(),
  ...StandingCostFieldsSchema.shape,
});
export type StandingRow = z.infer<typeof StandingRowSchema>;

export const SprtStatusSchema = z.object({
  llr: z.number(),
  lower: z.number(),
  upper: z.number(),
  decision: z.enum(['continue', 'accept_h0', 'accept_h1']),
  progress: z.number(),
});

/**
 * Finished games, how many the standings rate, and why the others are not (engine/core/ratings/rated-games.ts): a
 * void game, or a game of a seat-swapped pair / seat-rotation set still missing a game. report.json carries the same.
 */
export const RatedGamesSchema = z.object({
  finished: z.number().int(),
  rated: z.number().int(),
  unrated: z.object({ void: z.number().int(), incomplete_set: z.number().int(), repeated_seat_order: z.number().int() }),
  incomplete_sets: z.number().int(),
  /** "12 of 13 finished games rated (1 incomplete set)". */
  text: z.string(),
  /** The rule in words. */
  rule: z.string(),
});
export type RatedGames = z.infer<typeof RatedGamesSchema>;

/** GET /tournaments/:id/standings. `ratings` is the full ratings report (the exports' report.json shape). */
export const TournamentStandingsResponseSchema = z.object({
  id: z.string(),
  status: TournamentStatusSchema,
  standings: z.object({ combined: z.array(StandingRowSchema), per_challenge: z.record(z.string(), z.array(StandingRowSchema)) }),
  sprt: SprtStatusSchema.nullable(),
  terminations: z.record(z.string(), z.number().int()),
  rated_games: RatedGamesSchema,
  /** Harness faults above 1% of attempts, agents whose games mostly ended in their own faults; empty when none. */
  warnings: z.array(z.string()),
  ratings: z.record(z.string(), z.unknown()),
});
export type TournamentStandingsResponse = z.infer<typeof TournamentStandingsResponseSchema>;

/** One committed attempt of a game; `seats` are agent indices, `seat_agents` their ids. */
export const TournamentGameSchema = z.object({
  seq: z.number().int(),
  tournamentId: z.string(),
  gameKey: z.string(),
  gameIndex: z.number().int(),
  attempt: z.number().int(),
  round: z.number().int(),
  pairingIndex: z.number().int(),
  opening: z.number().int(),
  challenge: z.string(),
  seats: z.array(z.number().int()),
  seat_agents: z.array(z.string()),
  seed: z.string(),
  swapOf: z.number().int().nullable(),
  setSize: z.number().int(),
  /** SpecArena session id, `clawarena:<match id>` for ClawArena games, null when no session was created. */
  sessionId: z.string().nullable(),
  invites: z.array(z.string()),
  termination: z.string(),
  fault: z.string(),
  faultedSeats: z.array(z.number().int()),
  /** The placements the game counts with (a forfeit: faulted seats last, the others first); null for a void game. */
  placements: z.array(z.number()).nullable(),
  /** True when `placements` come from a forfeit rather than from the game's own end. */
  forfeit: z.boolean(),
  /** What the challenge itself reported (null for a forfeit or a void game). */
  reported_placements: z.array(z.number()).nullable(),
  scores: z.array(z.object({ security: z.number(), utility: z.number() })).nullable(),
  detail: z.string(),
  agentMs: z.number(),
  startedAt: z.number(),
  endedAt: z.number(),
  /** Per seat: model-usage totals (null for a seat without any); null when no seat reported usage. */
  usage: z.array(z.record(z.string(), z.unknown()).nullable()).nullable().optional(),
  /** Per launched seat: the isolation its agent process got; null for games stored before it was recorded. */
  isolation: z.array(IsolationSchema).nullable().optional(),
  /** The game worker (`arena worker --id`) that played the attempt; null when the engine played it itself. */
  workerId: z.string().nullable().optional(),
});
export type TournamentGame = z.infer<typeof TournamentGameSchema>;

export const TournamentGamesResponseSchema = z.object({ games: z.array(TournamentGameSchema), total: z.number().int() });
export type TournamentGamesResponse = z.infer<typeof TournamentGamesResponseSchema>;

export const TranscriptEntrySchema = z.object({
  index: z.number().int(),
  /** 'operator'/'chat': SpecArena channels; 'match': a ClawArena match event; 'model': a model agent's turn. */
  channel: z.enum(['operator', 'chat', 'match', 'model']),
  /** Seat number of the sender, 'operator', or a ClawArena/model label. */
  from: z.union([z.number(), z.string()]),
  to: z.union([z.number(), z.string()]).nullable(),
  content: z.string(),
  timestamp: z.number(),
  event_seq: z.number().int().optional(),
  is_auto: z.boolean().optional(),
  visibility: z.union([z.literal('public'), z.array(z.number().int())]).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  /** In one seat's view: a direct line between two other parties, its text withheld. */
  redacted: z.boolean().optional(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntrySchema>;

/** GET /tournaments/:id/games/:index?seat=N: `seat` (0-based) asks for the game as that seat saw it. */
export const TournamentGameQuerySchema = z.object({ seat: z.coerce.number().int().min(0).optional() });

/**
 * GET /tournaments/:id/games/:index: the attempt that counts (the latest) and its transcript; with `seat`, the
 * transcript as that seat saw it (engine/core/seat-view.ts).
 */
export const TournamentGameDetailResponseSchema = z.object({
  game: TournamentGameSchema,
  transcript: z.array(TranscriptEntrySchema),
  seat: z.number().int().optional(),
});
export type TournamentGameDetailResponse = z.infer<typeof TournamentGameDetailResponseSchema>;

// ---- Comparing two runs (GET /tournaments/compare?a=&b=, `arena compare`) ---------------------------------------

const RunRefSchema = z.object({ id: z.string(), name: z.string(), manifest_hash: z.string() });

export const RatingDeltaSchema = z.object({
  agent: z.string(),
  /** The agent's manifest or entry file differs between the runs. */
  changed: z.boolean(),
  rating_a: z.number().nullable(),
  rating_b: z.number().nullable(),
  /** B − A; each run centres its field on 1000, so this is a change relative to each run's field. */
  delta: z.number().nullable(),
  /** 95% interval (runs independent); null on a side either run leaves open. */
  delta_lower: z.number().nullable(),
  delta_upper: z.number().nullable(),
  games_a: z.number().int(),
  games_b: z.number().int(),
});
export type RatingDelta = z.infer<typeof RatingDeltaSchema>;

export const PairedResultSchema = z.object({
  agent: z.string(),
  /** Games of B whose challenge, seed and seat agents equal a game of A (one paired difference each). */
  pairs: z.number().int(),
  better: z.number().int(),
  same: z.number().int(),
  worse: z.number().int(),
  /** Mean of B's score minus A's score (1 / ½ / 0, or placement percentiles). */
  mean_difference: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  /** Exact two-sided sign test over the pairs that differ. */
  sign_test_p: z.number().nullable(),
});
export type PairedResult = z.infer<typeof PairedResultSchema>;

export const TournamentComparisonSchema = z.object({
  a: RunRefSchema,
  b: RunRefSchema,
  agents: z.array(RatingDeltaSchema),
  paired: z.array(PairedResultSchema),
  only_in_a: z.array(z.string()),
  only_in_b: z.array(z.string()),
  method: z.string(),
});
export type TournamentComparison = z.infer<typeof TournamentComparisonSchema>;

export const TournamentCompareQuerySchema = z.object({
  a: z.string().min(1, 'a: the first tournament id'),
  b: z.string().min(1, 'b: the second tournament id'),
  format: z.enum(['json', 'md', 'csv']).default('json'),
});
