// Agents page routes of the admin API: the catalog of agent folders and manifests, adding and removing user folders,
// and the runs one agent took part in.
import type { FastifyInstance } from 'fastify';
import { type AgentCatalog, AgentCatalogError } from '../../agents/catalog.js';
import { AddAgentFolderRequestSchema, type AgentCatalogResponse, AgentRunsQuerySchema } from '../../contract/agent-catalog.js';
import { EngineErrorCode } from '../../contract/errors.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { readFieldBody } from '../body.js';

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof AgentCatalogError)
      throw new ArenaError(
        error.status,
        error.message,
        error.status === 404 ? EngineErrorCode.NotFound : error.status === 400 ? EngineErrorCode.ValidationFailed : undefined,
      );
    throw error;
  }
}

export function registerAdminAgentRoutes(admin: FastifyInstance, catalog: AgentCatalog): void {
  admin.get('/agents', async (): Promise<AgentCatalogResponse> => catalog.catalog());

  admin.post('/agents/folders', async (req): Promise<AgentCatalogResponse> => {
    const body = readFieldBody(AddAgentFolderRequestSchema, req.body);
    return wrap(() => catalog.addFolder(body.path));
  });

  admin.delete<{ Params: { id: string } }>(
    '/agents/folders/:id',
    async (req): Promise<AgentCatalogResponse> => wrap(() => catalog.removeFolder(req.params.id)),
  );

  admin.get('/agents/runs', async (req) => {
    const q = AgentRunsQuerySchema.safeParse(req.query);
    if (!q.success) {
      const issue = q.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      throw new ArenaError(400, `Invalid query: ${where}${issue?.message}`, EngineErrorCode.ValidationFailed);
    }
    return { runs: wrap(() => catalog.runs(q.data.manifest, q.data.limit)) };
  });
}
