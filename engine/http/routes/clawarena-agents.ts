// ClawArena agent routes under /api/v1/agents/ (spec §3–§9). Registered before the SpecArena /api/v1 alias;
// only connection tokens authenticate here (the admin token is not a connection token, so it is refused).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ClawError } from '../../protocols/clawarena/errors.js';
import type { AuthContext, ClawArenaService } from '../../protocols/clawarena/service.js';
import { sendClaw } from '../error-reply.js';

export const CLAWARENA_BASE = '/api/v1';

const retired = (): never => {
  throw ClawError.of('manual_reflection_only', 'Runtime strategy reflection is retired on this server; do not retry.');
};

/** Any other path under a ClawArena prefix answers in the ClawArena shape. */
export function noClawRoute(req: FastifyRequest): never {
  throw ClawError.of('not_found', `No ClawArena route ${req.method} ${req.url.split('?')[0]}`);
}

/** The caller's connection token, or a ClawArena `unauthorized` error for the one error handler. */
function authenticated(service: ClawArenaService, request: FastifyRequest): AuthContext {
  const auth = service.authenticate(request.headers.authorization);
  if (!auth) throw ClawError.of('unauthorized', 'A valid connection token is required (Authorization: Bearer <connection_token>).');
  return auth;
}

export function registerClawArenaAgentRoutes(app: FastifyInstance, service: ClawArenaService): void {
  const base = `${CLAWARENA_BASE}/agents`;

  app.get(`${base}/schema/`, async (_req, reply) => sendClaw(reply, 200, service.schemaDocument()));

  // Retired learning routes: 410 before any authentication, and the POST body is never looked at.
  app.get(`${base}/strategy-reflection/`, async () => retired());
  app.post(`${base}/strategy-prompt/`, async () => retired());

  app.post(`${base}/provision/`, async (req, reply) => {
    const result = service.provision(req.body);
    return sendClaw(reply, result.status, result.body);
  });

  app.post(`${base}/watcher/`, async (req, reply) => {
    const auth = authenticated(service, req);
    const result = service.heartbeat(auth, req.body);
    return sendClaw(reply, result.status, result.body);
  });

  app.get(`${base}/game/`, async (req, reply) => {
    const auth = authenticated(service, req);
    // A client that hangs up ends its long-poll early.
    const abort = new AbortController();
    const onClose = () => abort.abort();
    reply.raw.once('close', onClose);
    try {
      const result = await service.poll(auth, req.query, abort.signal);
      return sendClaw(reply, result.status, result.body);
    } finally {
      reply.raw.off('close', onClose);
    }
  });

  app.post(`${base}/action/`, async (req, reply) => {
    const auth = authenticated(service, req);
    const result = service.submitAction(auth, req.body);
    return sendClaw(reply, result.status, result.body);
  });

  app.all(`${base}/*`, async (req) => noClawRoute(req));
}
