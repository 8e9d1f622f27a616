// The one place an error becomes an HTTP answer: a domain error's kind picks the status, the audience of the path picks
// the body (the admin API's {error, code, kind, issues?}, ClawArena's {status:"error", code, message, …}, or
// SpecArena's {error, code?}).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AdminErrorBody, DEFAULT_CODE_OF_KIND, DomainError, EngineErrorCode, type ErrorKind } from '../contract/errors.js';
import { ClawError } from '../protocols/clawarena/errors.js';
import { ArenaError } from '../protocols/specarena/arena-error.js';
import { BODY_LIMIT_BYTES } from './fastify-base.js';

export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unavailable: 503,
  internal: 500,
};

/** The kind of an error that arrived with only a status (SpecArena's ArenaError, Fastify's own 4xx). */
export function kindOfStatus(status: number): ErrorKind {
  const found = (Object.entries(STATUS_OF_KIND) as [ErrorKind, number][]).find(([, s]) => s === status);
  if (found) return found[0];
  return status >= 500 ? 'internal' : 'invalid';
}

type Audience = 'admin' | 'clawarena' | 'specarena';

/** ClawArena paths keep their /api/v1 prefix (layout §4.3); the admin API and the test hooks share one shape. */
function audienceOf(url: string): Audience {
  const path = url.split('?')[0] ?? '';
  if (path.startsWith('/admin/') || path.startsWith('/__test__/')) return 'admin';
  if (path.startsWith('/api/v1/agents') || path.startsWith('/api/v1/economy')) return 'clawarena';
  return 'specarena';
}

export function sendClaw(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

function adminBody(kind: ErrorKind, message: string, code: string | undefined, issues: DomainError['issues'] = []): AdminErrorBody {
  const body: AdminErrorBody = { error: message, code: code ?? DEFAULT_CODE_OF_KIND[kind], kind };
  if (issues.length > 0) body.issues = [...issues];
  return body;
}

type ThrownError = Error & { statusCode?: number; code?: string };

/** A failure described as {kind, status, message, code}, whatever class it was thrown as; null for a bug. */
function classify(error: ThrownError, bodyLimit: number): { kind: ErrorKind; status: number; message: string; code?: string } | null {
  if (error instanceof DomainError)
    return { kind: error.kind, status: STATUS_OF_KIND[error.kind], message: error.message, code: error.code };
  if (error instanceof ArenaError) {
    return { kind: kindOfStatus(error.status), status: error.status, message: error.message, ...(error.code ? { code: error.code } : {}) };
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      kind: 'too_large',
      status: 413,
      message: `Request body too large (limit ${bodyLimit} bytes)`,
      code: EngineErrorCode.PayloadTooLarge,
    };
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { kind: kindOfStatus(error.statusCode), status: error.statusCode, message: error.message, code: error.code ?? 'BAD_REQUEST' };
  }
  return null;
}

export function replyWithError(error: ThrownError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const audience = audienceOf(request.url);
  if (audience === 'clawarena' && error instanceof ClawError) return sendClaw(reply, STATUS_OF_KIND[error.kind], error.body);
  // A route may raise the listener's limit (a bundle upload): the message names the one that applied.
  const known = classify(error, request.routeOptions?.bodyLimit ?? BODY_LIMIT_BYTES);
  if (!known) {
    request.log.error({ err: error, path: request.url.split('?')[0] }, 'unhandled error');
    if (audience === 'clawarena')
      return sendClaw(reply, 500, { status: 'error', code: 'internal_error', message: 'Internal server error' });
    if (audience === 'admin') return reply.code(500).send(adminBody('internal', 'Internal server error', EngineErrorCode.Internal));
    return reply.code(500).send({ error: 'Internal server error' });
  }
  if (audience === 'admin') {
    const issues = error instanceof DomainError ? error.issues : [];
    return reply.code(known.status).send(adminBody(known.kind, known.message, known.code, issues));
  }
  if (error instanceof ArenaError) return reply.code(error.status).type('application/json').send(error.body);
  return reply.code(known.status).send(known.code === undefined ? { error: known.message } : { error: known.message, code: known.code });
}

/** Every route of the listener answers its errors through replyWithError. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: ThrownError, request, reply) => replyWithError(error, request, reply));
}
