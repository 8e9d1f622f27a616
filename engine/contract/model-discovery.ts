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
