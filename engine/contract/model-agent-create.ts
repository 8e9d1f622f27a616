// POST /admin/api/v1/agents/model: "New model agent" on the Agents page. The engine writes agent.yaml + model.yaml
// into a new folder inside one of the user's agent folders, checks both with the manifest and model.yaml schemas,
// asks the model server once (preflight) and answers the created agent, or a 400 naming the field to fix. The request
// only carries shapes; the limits are the manifest's and model.yaml's own (one place each).
import { z } from 'zod';
import { CatalogAgentSchema } from './agent-catalog.js';

/** The new folder's name and the agent's id: no separators, no dots, so it can only name a child of the folder. */
export const NEW_AGENT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export const NewModelAgentRequestSchema = z.strictObject({
  /** One of the user's agent folders (`folders[].id` of the catalog; shipped folders are read-only). */
  folder_id: z.string().min(1, 'pick one of your agent folders'),
  id: z
    .string()
    .regex(NEW_AGENT_ID, 'use lowercase letters, digits and dashes (at most 63), starting with a letter or digit: it names the new folder'),
  name: z.string().trim().min(1, 'must not be empty').max(200),
  /** SpecArena challenges or ClawArena games. */
  protocol: z.enum(['specarena', 'clawarena']),
  /** Challenge ids (SpecArena) or game types (ClawArena) it enters. */
  challenges: z.array(z.string().min(1)).min(1, 'pick at least one challenge or game').max(64),
  provider: z.enum(['openai-compatible', 'anthropic']),
  base_url: z.string().min(1, 'pick a model server or type its URL'),
  /** The NAME of the variable (keychain entry) holding a hosted API's key; the key itself never travels here. */
  api_key_env: z.string().min(1).optional(),
  model: z.string().min(1, 'pick a model'),
  temperature: z.number(),
  max_tokens: z.number(),
  seed: z.number().optional(),
  capacity: z.number().optional(),
});
export type NewModelAgentRequest = z.infer<typeof NewModelAgentRequestSchema>;

export const NewModelAgentResponseSchema = z.object({
  /** The created agent as the Agents list shows it. */
  agent: CatalogAgentSchema,
  /** The files written, absolute. */
  files: z.array(z.string()),
});
export type NewModelAgentResponse = z.infer<typeof NewModelAgentResponseSchema>;
