// One model call as the engine saw it pass through the model server's forward (engine/runner/model-proxy.ts): the
// request body the agent sent and the response the server gave, stored with the game (secrets scrubbed) so a run can
// be replayed without the server (`arena replay`) and audited afterwards.
import { z } from 'zod';

export const ModelCallRecordSchema = z.object({
  /** Order of the call within its seat's game, from 0. */
  seq: z.int().min(0),
  /** `host:port` of the model server. */
  server: z.string(),
  method: z.string(),
  path: z.string(),
  /** The request body (JSON when it parsed: model, messages, temperature, max_tokens, seed…), else its text. */
  request: z.unknown(),
  /** HTTP status, or null when no response came (connection failed, the agent gave up first). */
  status: z.int().nullable(),
  response: z.unknown(),
  /** Time the server took (request sent to response ended) and the time the call waited for a free slot. */
  latency_ms: z.number(),
  queued_ms: z.number(),
  /** The server's capacity (requests at once) when the call got its slot. */
  capacity: z.int().optional(),
  started_at: z.number(),
  /** Served from a recorded run (`arena replay`), not by the server. */
  replayed: z.boolean().optional(),
  /** model.yaml `cache: true`: the request's cache key (engine/tournaments/model-cache.ts). */
  cache_key: z.string().optional(),
  /** Answered from the cache (an identical earlier call), not by the server: no tokens, no slot. */
  cached: z.boolean().optional(),
  /** The engine could not reach the server for this call (the connection's error code): evidence for blame by cause. */
  unreachable: z.string().optional(),
  /**
   * Asked during the game, still in flight when the game was stored (a warm agent's): kept as it stood then (its wait,
   * its capacity), with no answer.
   */
  unanswered_at_end: z.boolean().optional(),
});
export type ModelCallRecord = z.infer<typeof ModelCallRecordSchema>;

/** What a reader wants of a call: the request's model, messages and sampler settings; the answer's text and usage. */
export function callSummary(call: Pick<ModelCallRecord, 'request' | 'response'>) {
  const req = (typeof call.request === 'object' && call.request !== null ? call.request : {}) as Record<string, unknown>;
  const res = (typeof call.response === 'object' && call.response !== null ? call.response : {}) as Record<string, unknown>;
  const choice = (Array.isArray(res.choices) ? res.choices[0] : undefined) as
    | { message?: { content?: unknown }; finish_reason?: unknown }
    | undefined;
  return {
    model: req.model ?? null,
    messages: req.messages ?? null,
    sampler: { temperature: req.temperature ?? null, max_tokens: req.max_tokens ?? null, seed: req.seed ?? null },
    text: typeof choice?.message?.content === 'string' ? choice.message.content : null,
    finish_reason: choice?.finish_reason ?? null,
    usage: res.usage ?? null,
  };
}
