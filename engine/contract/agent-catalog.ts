// Agents page (issue 6): the agent folders the engine scans for `agent.yaml`, every manifest it found (valid or not,
// with its problems) and the runs an agent took part in. Built-in folders ship with the app and cannot be removed.
import { z } from 'zod';
import { AgentProtocolSchema } from './manifest.js';

export const AgentFolderSchema = z.object({
  /** Stable id: `builtin:<name>` for shipped folders, a number as text for user-added ones. */
  id: z.string(),
  path: z.string(),
  builtin: z.boolean(),
  /** False when a user-added folder has gone missing since it was added (kept so the user can see and remove it). */
  exists: z.boolean(),
  added_at: z.number().nullable(),
  /** The user marked it trusted: its agents run without the OS sandbox (never a shipped folder). */
  trusted: z.boolean(),
});
export type AgentFolder = z.infer<typeof AgentFolderSchema>;

export const CatalogAgentSchema = z.object({
  /** Absolute path of the agent.yaml: the key a tournament definition's `manifest:` names. */
  manifest_path: z.string(),
  dir: z.string(),
  folder_id: z.string(),
  ok: z.boolean(),
  /** One line per problem, as `arena agents validate` prints them; empty when ok. */
  problems: z.array(z.string()),
  /** From the manifest when it parsed; null otherwise. */
  id: z.string().nullable(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  protocols: z.array(AgentProtocolSchema),
  /** Challenge types (SpecArena) or games (ClawArena) the manifest says it plays; empty = not stated. */
  challenges: z.array(z.string()),
  scenarios: z.array(z.string()),
  /** Names of the environment variables the manifest asks for (values are never sent). */
  secrets: z.array(z.string()),
  /** Why it cannot start on this machine ("cannot start here: `node` not found …"); null or absent when it can. */
  cannot_start: z.string().nullable().optional(),
});
export type CatalogAgent = z.infer<typeof CatalogAgentSchema>;

export const AgentCatalogResponseSchema = z.object({
  folders: z.array(AgentFolderSchema),
  agents: z.array(CatalogAgentSchema),
  /** Present when the scan hit one of its bounds (time, folders, manifests): the list is partial. */
  incomplete: z.string().optional(),
});
export type AgentCatalogResponse = z.infer<typeof AgentCatalogResponseSchema>;

export const AddAgentFolderRequestSchema = z.strictObject({
  path: z.string().min(1, 'path must not be empty').max(4096),
});

/** POST /agents/folders/:id/trust */
export const TrustAgentFolderRequestSchema = z.strictObject({ trusted: z.boolean() });

export const AgentRunsQuerySchema = z.object({
  manifest: z.string().min(1),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const AgentRunSchema = z.discriminatedUnion('kind', [
  /** Matched by the resolved manifest path of each agent entry in the tournament's definition. */
  z.object({
    kind: z.literal('tournament'),
    tournament_id: z.string(),
    tournament_name: z.string(),
    /** The id the agent had inside that tournament. */
    agent_id: z.string(),
    games: z.number().int(),
    points: z.number(),
    status: z.string(),
    at: z.number(),
  }),
  /**
   * Stored governance matches name agents by manifest id only: a match counts when the manifest's id is among the
   * match's agents and the manifest lists the match's scenario.
   */
  z.object({
    kind: z.literal('governance'),
    match_id: z.string(),
    scenario_id: z.string(),
    agent_id: z.string(),
    trials: z.number().int(),
    passed: z.number().int(),
    outcome: z.string(),
    at: z.number(),
  }),
]);
export type AgentRun = z.infer<typeof AgentRunSchema>;

export const AgentRunsResponseSchema = z.object({ runs: z.array(AgentRunSchema) });
