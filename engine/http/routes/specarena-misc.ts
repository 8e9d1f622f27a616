// /health, /skill.md, metadata and scoring/stats routes (spec §3.1, §3.2, §3.8).
import type { FastifyInstance } from 'fastify';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import type { MiscRouteDeps } from '../deps.js';
import { skillMarkdown } from './skill-md.js';

export function registerMiscRoutes(app: FastifyInstance, deps: MiscRouteDeps): void {
  const { engine, scoring } = deps;
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/skill.md', async (_req, reply) =>
    reply.type('text/markdown; charset=utf-8').send(skillMarkdown(engine.metadata(), deps.identity.authMode)),
  );

  app.get('/api/metadata', async () => engine.metadata());
  app.get<{ Params: { name: string } }>('/api/metadata/:name', async (req) => {
    const metadata = engine.metadataOf(req.params.name);
    if (!metadata) throw new ArenaError(404, 'Challenge not found');
    return metadata;
  });

  app.get('/api/scoring', async () => scoring.global());
  app.get<{ Params: { type: string } }>('/api/scoring/:type', async (req) => {
    if (!engine.hasChallenge(req.params.type)) throw new ArenaError(404, 'Unknown challenge type');
    return scoring.byType(req.params.type);
  });
  app.get('/api/stats', async () => engine.stats());
}
