// GET /admin/api/v1/models?server=URL[&server=URL…][&only=true]: the model servers that answer (runtime/model-discovery.ts).
import { z } from 'zod';

export const ModelsQuerySchema = z.strictObject({
  /** More servers to probe, e.g. http://127.0.0.1:9000/v1 (repeatable). */
  server: z
    .union([z.string().min(1), z.array(z.string().min(1)).max(16, 'at most 16 servers')])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
  /** Probe only the named servers, not the usual local ports. */
  only: z.enum(['true', 'false']).optional(),
  /** Also list hosted APIs: those whose key is set are asked for their models (nothing is asked otherwise). */
  hosted: z.enum(['true', 'false']).optional(),
});

const DiscoveredModelSchema = z.object({
  id: z.string(),
  digest: z.string().nullable(),
  size_bytes: z.number().nullable(),
  context: z.number().nullable(),
  source: z.string().nullable(),
});

/** The answer: servers that answered, and hosted APIs when asked (runtime/model-discovery.ts, runtime/hosted-models.ts). */
export const ModelsResponseSchema = z.object({
  servers: z.array(
    z.object({
      url: z.string(),
      /** What model.yaml's base_url should say. */
      base_url: z.string(),
      kind: z.enum(['ollama', 'llama.cpp', 'vllm', 'lm-studio', 'openai-compatible']),
      version: z.string().nullable(),
      models: z.array(DiscoveredModelSchema),
      slots: z.number().nullable(),
      context: z.number().nullable(),
      model_path: z.string().nullable(),
    }),
  ),
  hosted: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        base_url: z.string(),
        provider: z.enum(['openai-compatible', 'anthropic']),
        /** The variable (keychain entry) holding the key: its name only, never the key. */
        api_key_env: z.string(),
        configured: z.boolean(),
        models: z.array(DiscoveredModelSchema).nullable(),
        error: z.string().nullable(),
      }),
    )
    .optional(),
});
export type ModelsResponse = z.infer<typeof ModelsResponseSchema>;
