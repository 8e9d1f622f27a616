// ClawArena agent routes under /api/v1/agents/ (spec §3–§9). Registered before the SpecArena /api/v1 alias;
// only connection tokens authenticate here (the admin token is not a connection token, so it is refused).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClawError } from '../../protocols/clawarena/errors.js';
import type { AuthContext, ClawArenaService } from '../../protocols/clawarena/service.js';

export const CLAWARENA_BASE = '/api/v1';

const RETIRED = {
  status: 'error',
  code: 'manual_reflection_only',
  message: 'Runtime strategy reflection is retired on this server; do not retry.',
};

export function sendClaw(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

function authenticated(service: ClawArenaService, request: FastifyRequest, reply: FastifyReply): AuthContext | null {
  const auth = service.authenticate(request.headers.authorization);
  if (!auth) {
    const error = ClawError.of('unauthorized', 'A valid connection token is required (Authorization: Bearer <connection_token>).');
    sendClaw(reply, error.status, error.body);
    return null;
  }
  return auth;
}

/** Anything thrown inside a ClawArena route still answers in the ClawArena error shape. */
function guarded<R extends FastifyRequest>(handler: (request: R, reply: FastifyReply) => Promise<unknown>) {
  return async (request: R, reply: FastifyReply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      if (error instanceof ClawError) return sendClaw(reply, error.status, error.body);
      request.log.error({ err: error, path: request.url.split('?')[0] }, 'clawarena route failed');
      return sendClaw(reply, 500, { status: 'error', code: 'internal_error', message: 'Internal server error' });
    }
  };
}

export function registerClawArenaAgentRoutes(app: FastifyInstance, service: ClawArenaService): void {
  const base = `${CLAWARENA_BASE}/agents`;

  app.get(
    `${base}/schema/`,
    guarded(async (_req, reply) => sendClaw(reply, 200, service.schemaDocument())),
  );

  // Retired learning routes: 410 before any authentication, and the POST body is never looked at.
  app.get(`${base}/strategy-reflection/`, async (_req, reply) => sendClaw(reply, 410, RETIRED));
  app.post(`${base}/strategy-prompt/`, async (_req, reply) => sendClaw(reply, 410, RETIRED));

  app.post(
    `${base}/provision/`,
    guarded(async (req, reply) => {
      const result = service.provision(req.body);
      return sendClaw(reply, result.status, result.body);
    }),
  );

  app.post(
    `${base}/watcher/`,
    guarded(async (req, reply) => {
      const auth = authenticated(service, req, reply);
      if (!auth) return reply;
      const result = service.heartbeat(auth, req.body);
      return sendClaw(reply, result.status, result.body);
    }),
  );

  app.get(
    `${base}/game/`,
    guarded(async (req, reply) => {
      const auth = authenticated(service, req, reply);
      if (!auth) return reply;
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
    }),
  );

  app.post(
    `${base}/action/`,
    guarded(async (req, reply) => {
      const auth = authenticated(service, req, reply);
      if (!auth) return reply;
      const result = service.submitAction(auth, req.body);
      return sendClaw(reply, result.status, result.body);
    }),
  );

  app.all(`${base}/*`, async (req, reply) =>
    sendClaw(reply, 404, { status: 'error', code: 'not_found', message: `No ClawArena route ${req.method} ${req.url.split('?')[0]}` }),
  );
}
