// Calls the Agents page makes: the catalog of agent folders and manifests, adding/removing folders, an agent's runs.
import { ADMIN_PREFIX } from '../../../../engine/contract/admin.js';
import {
  type AgentCatalogResponse,
  AgentCatalogResponseSchema,
  type AgentRun,
  AgentRunsResponseSchema,
} from '../../../../engine/contract/agent-catalog.js';
import {
  type NewModelAgentRequest,
  type NewModelAgentResponse,
  NewModelAgentResponseSchema,
} from '../../../../engine/contract/model-agent-create.js';
import { type ModelsResponse, ModelsResponseSchema } from '../../../../engine/contract/model-discovery.js';
import type { ArenaClient } from '../../arena-client/client.js';

const agents = `${ADMIN_PREFIX}/agents`;

export function fetchCatalog(client: ArenaClient, signal?: AbortSignal): Promise<AgentCatalogResponse> {
  return client.call(AgentCatalogResponseSchema, agents, { admin: true, signal });
}

export function addFolder(client: ArenaClient, path: string): Promise<AgentCatalogResponse> {
  return client.call(AgentCatalogResponseSchema, `${agents}/folders`, { method: 'POST', admin: true, body: { path } });
}

export function removeFolder(client: ArenaClient, id: string): Promise<AgentCatalogResponse> {
  return client.call(AgentCatalogResponseSchema, `${agents}/folders/${encodeURIComponent(id)}`, { method: 'DELETE', admin: true });
}

/** Trusted: the folder's agents run without the OS sandbox. */
export function setFolderTrusted(client: ArenaClient, id: string, trusted: boolean): Promise<AgentCatalogResponse> {
  return client.call(AgentCatalogResponseSchema, `${agents}/folders/${encodeURIComponent(id)}/trust`, {
    method: 'POST',
    admin: true,
    body: { trusted },
  });
}

export function fetchRuns(client: ArenaClient, manifest: string, signal?: AbortSignal): Promise<AgentRun[]> {
  return client
    .call(AgentRunsResponseSchema, `${agents}/runs?manifest=${encodeURIComponent(manifest)}`, { admin: true, signal })
    .then((r) => r.runs);
}

/**
 * The model servers answering: the usual local ports and hosted APIs (only those whose key is set are asked), or, with
 * `server`, that URL alone.
 */
export function discoverModels(client: ArenaClient, server?: string, signal?: AbortSignal): Promise<ModelsResponse> {
  const query = server === undefined ? 'hosted=true' : `only=true&server=${encodeURIComponent(server)}`;
  return client.call(ModelsResponseSchema, `${ADMIN_PREFIX}/models?${query}`, { admin: true, signal });
}

/** Writes the new model agent's folder (the engine checks it and asks its server once first). */
export function createModelAgent(client: ArenaClient, body: NewModelAgentRequest): Promise<NewModelAgentResponse> {
  return client.call(NewModelAgentResponseSchema, `${agents}/model`, { method: 'POST', admin: true, body });
}
