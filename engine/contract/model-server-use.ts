// How busy each model server was during a run (engine/tournaments/results/model-server-use.ts): the one set of figures
// the live view (GET /tournaments/:id/model-servers), report.json (`model_servers`), report.md and the app's report
// page all show.
import { z } from 'zod';

export const ModelServerUseSchema = z.object({
  /** `host:port`. */
  server: z.string(),
  /** The capacity the engine scheduled against (the smallest seen, when it changed during the run); 0: never asked. */
  capacity: z.number().int(),
  /** Calls the server answered. */
  calls: z.number().int(),
  /** Calls answered from the cache instead (no slot, no tokens). */
  cache_hits: z.number().int(),
  busy_ms: z.number(),
  span_ms: z.number(),
  /** busy_ms / (capacity × span_ms), 0..1. */
  utilisation: z.number(),
  queued_ms_mean: z.number(),
  queued_ms_max: z.number(),
});
export type ModelServerUse = z.infer<typeof ModelServerUseSchema>;

/** GET /tournaments/:id/model-servers: the run's model servers so far (calls of finished games). */
export const TournamentModelServersResponseSchema = z.object({
  /** Agents of the run that play through a model server (model.yaml); 0: the run has none and the view hides the panel. */
  model_agents: z.number().int(),
  servers: z.array(ModelServerUseSchema),
});
export type TournamentModelServersResponse = z.infer<typeof TournamentModelServersResponseSchema>;
