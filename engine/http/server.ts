// The engine's HTTP listener: route precedence, the /api/v1 alias, loopback Host/Origin checks, JSON errors.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { APP_ORIGIN } from '../contract/channels.js';
import { EngineErrorCode } from '../contract/errors.js';
import type { HttpDeps } from './deps.js';
import { installErrorHandler } from './error-reply.js';
import { acceptJsonBodies, baseFastifyOptions } from './fastify-base.js';
import { isAllowedOrigin, isLoopbackHost } from './guards.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerClawArenaAgentRoutes } from './routes/clawarena-agents.js';
import { registerClawArenaEconomyRoutes } from './routes/clawarena-economy.js';
import { registerArenaRoutes } from './routes/specarena-arena.js';
import { registerChatRoutes } from './routes/specarena-chat.js';
import { registerMcpRoutes } from './routes/specarena-mcp.js';
import { registerMiscRoutes } from './routes/specarena-misc.js';
import { registerSessionRoutes } from './routes/specarena-sessions.js';
import { registerUserRoutes } from './routes/specarena-users.js';
import { registerWarmRoutes } from './routes/specarena-warm.js';
import { registerStaticRoutes } from './static.js';
import { attachWatcherSocket } from './watcher-socket.js';

export { BODY_LIMIT_BYTES } from './fastify-base.js';

/** Paths of other protocols keep their /api/v1 prefix; everything else under /api/v1 is the SpecArena alias. */
function rewriteAlias(url: string): string {
  if (!url.startsWith('/api/v1/')) return url;
  if (url.startsWith('/api/v1/agents') || url.startsWith('/api/v1/economy')) return url;
  return `/api/${url.slice('/api/v1/'.length)}`;
}

export async function createHttpServer(deps: HttpDeps): Promise<FastifyInstance> {
  const app = Fastify({ ...baseFastifyOptions(deps.logLevel), rewriteUrl: (req) => rewriteAlias(req.url ?? '/') });
  acceptJsonBodies(app);

  // A callback hook, not an async one: it runs on every request, and a promise per request shows in bench:api.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isLoopbackHost(request.headers.host)) {
      reply.code(403).send({ error: 'Host header must name a loopback address', code: EngineErrorCode.ForbiddenHost });
      return;
    }
    if (!isAllowedOrigin(request.headers.origin, request.headers.host)) {
      reply.code(403).send({ error: 'Cross-origin requests are not allowed', code: EngineErrorCode.ForbiddenOrigin });
      return;
    }
    // The desktop shell's page (app://arena) is the one cross-origin caller; pre-flights never reach a route.
    if (request.headers.origin === APP_ORIGIN) {
      reply.header('Access-Control-Allow-Origin', APP_ORIGIN).header('Vary', 'Origin');
      if (request.method === 'OPTIONS') {
        reply
          .code(204)
          .header('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE')
          .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Last-Event-ID')
          .header('Access-Control-Max-Age', '600')
          .send();
        return;
      }
    }
    done();
  });

  installErrorHandler(app);

  app.setNotFoundHandler((_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(404).send({ error: 'Not Found', code: EngineErrorCode.NotFound }),
  );

  // ClawArena first: its /api/v1/agents and /api/v1/economy paths bypass the SpecArena alias (layout §4.3).
  if (deps.clawarena) {
    registerClawArenaAgentRoutes(app, deps.clawarena);
    registerClawArenaEconomyRoutes(app, deps.clawarena);
  }
  registerMiscRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerArenaRoutes(app, deps);
  if (deps.warmDesk) registerWarmRoutes(app, deps.warmDesk);
  registerChatRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerAdminRoutes(app, deps.admin);
  if (!deps.identity.authMode) await registerMcpRoutes(app, deps);
  if (deps.rendererDir) registerStaticRoutes(app, deps.rendererDir);
  if (deps.clawarena) attachWatcherSocket(app, deps.clawarena, { checkOrigin: true });
  return app;
}
