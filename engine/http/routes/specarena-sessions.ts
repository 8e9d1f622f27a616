// Session listing, creation and invite routes (spec §3.3, §3.5, decision 11(a)).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InviteNotifyRequestSchema, type SessionStatus, SessionStatusSchema } from '../../contract/specarena.js';
import { publicSession } from '../../core/sanitize.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { resolveIdentity } from '../../protocols/specarena/identity.js';
import { INVALID_JSON } from '../body.js';
import type { SessionRouteDeps } from '../deps.js';
import { clientOf, createSessionCap, DEFAULT_SESSIONS_PER_MINUTE } from '../session-cap.js';

interface ListQuery {
  limit?: string;
  offset?: string;
  status?: string;
}

/** limit: a non-numeric value or 0 falls back to the default; clamped to 1..100. */
export function parseLimit(value: string | undefined, fallback: number, max: number | null): number {
  const n = Number.parseInt(value ?? '', 10);
  if (!Number.isFinite(n) || n === 0) return fallback;
  // SQLite rejects LIMIT/OFFSET values beyond int64 with a 500, so "no upper cap" still stops at a safe integer.
  return Math.min(max ?? Number.MAX_SAFE_INTEGER, Math.max(1, n));
}

export function parseOffset(value: string | undefined): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, n)) : 0;
}

function parseStatus(value: string | undefined): SessionStatus | undefined {
  const parsed = SessionStatusSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A seat-key session's invite is looked up or advertised only by the holder of that seat's key; anyone else gets the
 * unknown-invite answer, so the lookup neither lists nor confirms it (decision 11(j)).
 */
function unusedInviteFor(req: FastifyRequest, deps: SessionRouteDeps, invite: string) {
  if (deps.engine.seatKeysRequired(invite)) {
    let holder: string | null = null;
    try {
      holder = resolveIdentity(deps.engine, deps.identity, {
        authorization: req.headers.authorization,
        query: {},
        body: { invite },
        params: {},
      });
    } catch {
      holder = null;
    }
    if (holder !== invite) throw new ArenaError(404, `Challenge not found for invite: ${invite}`);
  }
  return deps.engine.sessionForUnusedInvite(invite);
}

export function registerSessionRoutes(app: FastifyInstance, deps: SessionRouteDeps): void {
  const { engine } = deps;
  app.get<{ Querystring: ListQuery }>('/api/challenges', async (req) => {
    const limit = parseLimit(req.query.limit, 50, 100);
    const offset = parseOffset(req.query.offset);
    const page = engine.list({ status: parseStatus(req.query.status), limit, offset });
    return { challenges: page.challenges, total: page.total, limit, offset, profiles: page.profiles };
  });

  app.get<{ Params: { name: string }; Querystring: ListQuery }>('/api/challenges/:name', async (req) => {
    const limit = parseLimit(req.query.limit, 10, 100);
    const offset = parseOffset(req.query.offset);
    const page = engine.list({ challengeType: req.params.name, status: parseStatus(req.query.status), limit, offset });
    return { challenges: page.challenges, total: page.total, limit, offset, profiles: page.profiles };
  });

  // The body is ignored, as in the reference: anyone may open a session with the challenge's default options.
  const cap = createSessionCap(deps.sessionsPerMinute ?? DEFAULT_SESSIONS_PER_MINUTE);
  app.post<{ Params: { name: string } }>('/api/challenges/:name', (req, reply) => {
    const taken = cap.take(clientOf(req), Date.now());
    if (!taken.ok)
      return reply
        .code(429)
        .header('Retry-After', String(taken.retryAfterSeconds))
        .send({
          error: `Too many sessions opened from this client: at most ${deps.sessionsPerMinute ?? DEFAULT_SESSIONS_PER_MINUTE} a minute; retry after ${taken.retryAfterSeconds} s`,
          code: 'TOO_MANY_SESSIONS',
        });
    return publicSession(engine.createSession(req.params.name));
  });

  app.get<{ Params: { inviteId: string } }>('/api/invites/:inviteId', async (req) =>
    publicSession(unusedInviteFor(req, deps, req.params.inviteId)),
  );

  app.post('/api/invites', async (req) => {
    if (req.body === INVALID_JSON || req.body === undefined) throw new ArenaError(400, 'Invalid JSON in request body');
    const parsed = InviteNotifyRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      const raw = (req.body as { inviteId?: unknown } | null)?.inviteId;
      if (raw === undefined || raw === '' || raw === null) throw new ArenaError(400, 'inviteId is required');
      throw new ArenaError(400, `Expected string, received ${Array.isArray(raw) ? 'array' : typeof raw}`);
    }
    if (parsed.data.inviteId === '') throw new ArenaError(400, 'inviteId is required');
    unusedInviteFor(req, deps, parsed.data.inviteId);
    engine.advertiseInvite(parsed.data.inviteId);
    return { success: true };
  });
}
