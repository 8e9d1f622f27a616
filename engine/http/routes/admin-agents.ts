// Agents page routes of the admin API: the catalog of agent folders and manifests, adding and removing user folders,
// and the runs one agent took part in.
import type { FastifyInstance } from 'fastify';
import type { AgentCatalog } from '../../agents/catalog.js';
import {
  AddAgentFolderRequestSchema,
  type AgentCatalogResponse,
  AgentRunsQuerySchema,
  TrustAgentFolderRequestSchema,
} from '../../contract/agent-catalog.js';
import { DomainError, EngineErrorCode } from '../../contract/errors.js';
import { NewModelAgentRequestSchema, type NewModelAgentResponse } from '../../contract/model-agent-create.js';
import { ModelsQuerySchema, type ModelsResponse } from '../../contract/model-discovery.js';
import { listHosted } from '../../runtime/hosted-models.js';
import { discoverServers, serverRoot } from '../../runtime/model-discovery.js';
import { readAdminQuery, readFieldBody } from '../body.js';

export function registerAdminAgentRoutes(admin: FastifyInstance, catalog: AgentCatalog): void {
  admin.get('/agents', async (): Promise<AgentCatalogResponse> => catalog.catalog());

  admin.post('/agents/folders', async (req): Promise<AgentCatalogResponse> => {
    const body = readFieldBody(AddAgentFolderRequestSchema, req.body);
    return catalog.addFolder(body.path);
  });

  admin.delete<{ Params: { id: string } }>(
    '/agents/folders/:id',
    async (req): Promise<AgentCatalogResponse> => catalog.removeFolder(req.params.id),
  );

  admin.post<{ Params: { id: string } }>('/agents/folders/:id/trust', async (req): Promise<AgentCatalogResponse> => {
    const body = readFieldBody(TrustAgentFolderRequestSchema, req.body);
    return catalog.setTrusted(req.params.id, body.trusted);
  });

  // The model servers answering here (the usual local ports and any ?server=), for "New model agent".
  // "New model agent": agent.yaml + model.yaml in a new folder inside a user folder, checked and preflighted first.
  admin.post('/agents/model', async (req): Promise<NewModelAgentResponse> => {
    const body = readFieldBody(NewModelAgentRequestSchema, req.body);
    return catalog.createModelAgent(body);
  });

  admin.get('/models', async (req): Promise<ModelsResponse> => {
    const q = readAdminQuery(ModelsQuerySchema, req.query, { named: true });
    for (const url of q.server) {
      try {
        serverRoot(url);
      } catch (error) {
        throw new DomainError('invalid', `Invalid query: server: ${(error as Error).message}`, { code: EngineErrorCode.ValidationFailed });
      }
    }
    const [servers, hosted] = await Promise.all([
      discoverServers(q.server, q.only !== 'true'),
      q.hosted === 'true' ? listHosted(process.env) : Promise.resolve(null),
    ]);
    return { servers, ...(hosted ? { hosted } : {}) };
  });

  admin.get('/agents/runs', async (req) => {
    const q = readAdminQuery(AgentRunsQuerySchema, req.query, { named: true });
    return { runs: catalog.runs(q.manifest, q.limit) };
  });
}
