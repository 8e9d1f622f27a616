// The warm-agent channel (persistent lifecycle): a process started with ARENA_AGENT_KEY long-polls
// GET /api/arena/next-seat?wait=S with `Authorization: Bearer <agent key>` and gets one of these, or 204 (nothing yet).
import { z } from 'zod';

export const NEXT_SEAT_PATH = '/api/arena/next-seat';
/** Longest long-poll the engine holds open (seconds); `wait` is clamped to it. */
export const NEXT_SEAT_MAX_WAIT_SECONDS = 30;

export const NextSeatQuerySchema = z.strictObject({
  wait: z.coerce.number().min(0).max(NEXT_SEAT_MAX_WAIT_SECONDS).optional(),
});

/** One seat to play with the seat key, exactly as a per-game agent plays ARENA_INVITE with ARENA_SESSION_KEY. */
export const WarmSeatSchema = z.strictObject({
  invite: z.string(),
  seat_key: z.string(),
  challenge: z.string(),
  /** The seat's own seed (what a per-game agent gets as ARENA_SEED). */
  seed: z.string(),
  move_seconds: z.number(),
  game_seconds: z.number(),
  /** Epoch ms after which the harness has ended the game whatever happened. */
  deadline: z.number(),
  agent_id: z.string(),
  game_index: z.number(),
  seat: z.number(),
  url: z.string(),
  mcp_url: z.string(),
});
export type WarmSeat = z.infer<typeof WarmSeatSchema>;

/** The tournament is over (or stopped) for this process: it should exit 0. */
export const WarmFinishedSchema = z.strictObject({ finished: z.literal(true), reason: z.string() });
export type WarmFinished = z.infer<typeof WarmFinishedSchema>;

export const NextSeatResponseSchema = z.union([WarmSeatSchema, WarmFinishedSchema]);
export type NextSeatResponse = z.infer<typeof NextSeatResponseSchema>;

/** Per agent of a running tournament: its lifecycle, warm processes started, restarts after faults, and retirement. */
export const AgentLifecycleStatsSchema = z.object({
  agent: z.string(),
  lifecycle: z.enum(['per-game', 'persistent']),
  processes: z.number().int(),
  restarts: z.number().int(),
  /** Why the agent's remaining games are forfeits (restart cap reached), else null. */
  retired: z.string().nullable(),
  /** Runs on game workers: each worker's own warm processes and restarts (the figures above are their sum). */
  workers: z
    .array(z.object({ worker: z.string(), processes: z.number().int(), restarts: z.number().int(), retired: z.string().nullable() }))
    .optional(),
});
export type AgentLifecycleStats = z.infer<typeof AgentLifecycleStatsSchema>;
