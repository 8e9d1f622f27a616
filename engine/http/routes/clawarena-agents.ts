// ClawArena agent routes under /api/v1/agents/ (spec §3–§9). Registered before the SpecArena /api/v1 alias;
// only connection tokens authenticate here (the admin token is not a connection token, so it is refused).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ActionRequestSchema, HeartbeatRequestSchema, PollQuerySchema, ProvisionRequestSchema } from '../../contract/clawarena.js';
import { ClawError } from '../../protocols/clawarena/errors.js';
import type { AuthContext, ClawArenaService } from '../../protocols/clawarena/service.js';
import { sendClaw } from '../error-reply.js';

export const CLAWARENA_BASE = '/api/v1';

/** What the agent routes use of the service. */
export type ClawAgentApi = Pick<ClawArenaService, 'authenticate' | 'schemaDocument' | 'provision' | 'heartbeat' | 'poll' | 'submitAction'>;

const retired = (): never => {
  throw ClawError.of('manual_reflection_only', 'Runtime strategy reflection is retired on this server; do not retry.');
};

/** Any other path under a ClawArena prefix answers in the ClawArena shape. */
export function noClawRoute(req: FastifyRequest): never {
  throw ClawError.of('not_found', `No ClawArena route ${req.method} ${req.url.split('?')[0]}`);
}

/**
 * Parses a ClawArena request with its contract schema; a failure is one `invalid_payload` naming the first field
 * (`fallback` when the problem is with the input as a whole), worded by the route.
 */
function parseClaw<S extends z.ZodType>(schema: S, input: unknown, fallback: string, word: (field: string, issue?: string) => string) {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data as z.infer<S>;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? fallback);
  throw ClawError.of('invalid_payload', word(field, issue?.message), { field });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The caller's connection token, or a ClawArena `unauthorized` error for the one error handler. */
function authenticated(service: ClawAgentApi, request: FastifyRequest): AuthContext {
  const auth = service.authenticate(request.headers.authorization);
  if (!auth) throw ClawError.of('unauthorized', 'A valid connection token is required (Authorization: Bearer <connection_token>).');
  return auth;
}

export function registerClawArenaAgentRoutes(app: FastifyInstance, service: ClawAgentApi): void {
  const base = `${CLAWARENA_BASE}/agents`;

  app.get(`${base}/schema/`, async (_req, reply) => sendClaw(reply, 200, service.schemaDocument()));

  // Retired learning routes: 410 before any authentication, and the POST body is never looked at.
  app.get(`${base}/strategy-reflection/`, async () => retired());
  app.post(`${base}/strategy-prompt/`, async () => retired());

  app.post(`${base}/provision/`, async (req, reply) => {
    // An empty body is allowed (every field is optional); a body that is not JSON fails the schema.
    const input = parseClaw(
      ProvisionRequestSchema,
      req.body === undefined || req.body === null ? {} : req.body,
      'body',
      (field) => `invalid provision request (${field})`,
    );
    return sendClaw(reply, 201, service.provision(input));
  });

  app.post(`${base}/watcher/`, async (req, reply) => {
    const auth = authenticated(service, req);
    const input = parseClaw(
      HeartbeatRequestSchema,
      isObject(req.body) ? req.body : {},
      'body',
      (field) => `invalid heartbeat field ${field}`,
    );
    return sendClaw(reply, 200, service.heartbeat(auth, input));
  });

  app.get(`${base}/game/`, async (req, reply) => {
    const auth = authenticated(service, req);
    const query = parseClaw(
      PollQuerySchema,
      req.query ?? {},
      'query',
      (field, issue) => `invalid query parameter ${field}: ${issue ?? 'invalid'}`,
    );
    // A client that hangs up ends its long-poll early.
    const abort = new AbortController();
    const onClose = () => abort.abort();
    reply.raw.once('close', onClose);
    try {
      return sendClaw(reply, 200, await service.poll(auth, query, abort.signal));
    } finally {
      reply.raw.off('close', onClose);
    }
  });

  app.post(`${base}/action/`, async (req, reply) => {
    const auth = authenticated(service, req);
    if (!isObject(req.body)) throw ClawError.of('invalid_payload', 'the body must be a JSON object {action, params, idempotency_key?}');
    const input = parseClaw(ActionRequestSchema, req.body, 'body', (field, issue) => `invalid ${field}: ${issue ?? 'invalid'}`);
    return sendClaw(reply, 200, service.submitAction(auth, input));
  });

  app.all(`${base}/*`, async (req) => noClawRoute(req));
}
