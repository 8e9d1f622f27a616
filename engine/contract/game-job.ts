// What travels between a coordinator and its game workers (`arena worker`) on the BullMQ queue: one job per game
// attempt, and the full game record the worker returns. Jobs carry hashes and facts of the schedule, never a secret:
// workers use their own environment or keychain for the secrets their agents are granted.
import { z } from 'zod';
import { IsolationSchema } from './isolation.js';
import { ModelCallRecordSchema } from './model-call.js';
import { MAX_LIMIT_SECONDS } from './timer-limits.js';
import { TranscriptEntrySchema } from './tournament.js';
import { AgentLifecycleStatsSchema } from './warm-agent.js';

/** 1: the first job format; a worker refuses jobs of another version (the coordinator runs another release). */
export const GAME_JOB_VERSION = 1;

const ScheduledGameSchema = z.object({
  gameIndex: z.number().int().min(0),
  round: z.number().int(),
  pairingIndex: z.number().int(),
  seats: z.array(z.number().int().min(0)).min(1),
  seed: z.string(),
  swapOf: z.number().int().optional(),
  setSize: z.number().int(),
  opening: z.number().int(),
  challenge: z.string().min(1),
});

/** An agent of the run as the run manifest names it: the worker finds it by manifest id and checks its hashes. */
const JobAgentSchema = z.object({
  id: z.string(),
  manifest_id: z.string(),
  manifest_sha256: z.string(),
  entry_file: z.string().nullable(),
  entry_sha256: z.string().nullable(),
  /** How the run plays it (the definition may override the manifest); absent: per-game. */
  lifecycle: z.enum(['per-game', 'persistent']).optional(),
});

export const GameJobSchema = z.object({
  version: z.literal(GAME_JOB_VERSION),
  tournament_id: z.string(),
  attempt: z.number().int().min(1),
  /** The run manifest's hash, for the worker's log and its refusals. */
  manifest_hash: z.string(),
  app_version: z.string(),
  protocol: z.enum(['specarena', 'clawarena']),
  game: ScheduledGameSchema,
  /** Every agent of the run in definition order (a seat's number indexes this list). */
  agents: z.array(JobAgentSchema).min(1),
  challenge_sha256: z.string(),
  options: z.record(z.string(), z.unknown()),
  // Within the ceiling every time limit of a definition keeps (Node timers).
  move_ms: z
    .number()
    .positive()
    .max(MAX_LIMIT_SECONDS * 1000),
  game_ms: z
    .number()
    .positive()
    .max(MAX_LIMIT_SECONDS * 1000),
  start_ms: z
    .number()
    .positive()
    .max(MAX_LIMIT_SECONDS * 1000),
  max_illegal_actions: z.number().int().min(0),
  /** Faults a warm agent may cause on one worker before its remaining games there are forfeits. */
  max_restarts: z.number().int().min(0).max(1_000_000).optional(),
});
export type GameJob = z.infer<typeof GameJobSchema>;

const SeatUsageSchema = z.record(z.string(), z.unknown()).nullable();

/** The game as the worker played it: everything the coordinator stores for the attempt. */
export const GameResultSchema = z.object({
  worker_id: z.string(),
  session_id: z.string().nullable(),
  invites: z.array(z.string()),
  /** One of the engine's terminations (engine/core/ratings); the coordinator checks it. */
  termination: z.string(),
  faulted_seats: z.array(z.number().int()),
  placements: z.array(z.number()).nullable(),
  scores: z.array(z.object({ security: z.number(), utility: z.number() })).nullable(),
  detail: z.string(),
  agent_ms: z.number(),
  started_at: z.number(),
  ended_at: z.number(),
  transcript: z.array(TranscriptEntrySchema),
  /** Model-agent accounting (null when no seat was a model agent). */
  usage: z.array(SeatUsageSchema).nullable(),
  model_turns: z.array(TranscriptEntrySchema),
  /** Per seat, the model calls through its forward (engine/runner/model-proxy.ts); absent when none was made. */
  model_calls: z.array(z.array(ModelCallRecordSchema).nullable()).optional(),
  isolation: z.array(IsolationSchema).nullable(),
  /** A void game's set-up cause (a model server unreachable, a program missing): repeats pause the run. */
  void_cause: z.object({ key: z.string(), agent: z.string(), message: z.string() }).optional(),
  /** The worker's warm-agent figures for this tournament after the game (absent: no warm agent in the run). */
  lifecycles: z.array(AgentLifecycleStatsSchema).max(1000).optional(),
  /** The signing worker's public key (`ed25519:<base64>`, engine/workers/worker-keys.ts). */
  worker_key: z.string().max(200).optional(),
  /** Ed25519 signature (base64) over the job id, the job's digest and this record without the signature. */
  signature: z.string().max(200).optional(),
});
export type GameResult = z.infer<typeof GameResultSchema>;

/** Deterministic job id of an attempt: re-adding it (a resumed coordinator) finds the job instead of a second one. */
export function gameJobId(tournamentId: string, gameIndex: number, attempt: number): string {
  // BullMQ job ids may not contain ':' and may not look like integers.
  return `${tournamentId.replaceAll(':', '_')}.g${gameIndex}.a${attempt}`;
}
