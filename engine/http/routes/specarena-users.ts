// User profile routes (spec §3.9, auth §4.4, decision 11(g)).
import type { FastifyInstance } from 'fastify';
import { UserUpdateRequestSchema } from '../../contract/specarena.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { userUpdateMessage, verifySignedBody } from '../../protocols/specarena/auth.js';
import { optionalObject, readBody } from '../body.js';
import type { UserRouteDeps } from '../deps.js';
import { identityOf } from './request-identity.js';
import { parseLimit, parseOffset } from './specarena-sessions.js';

/** The request carries a seat or session key (its identity came from the key, never from `from`). */
function keyed(req: { headers: { authorization?: string | undefined }; query: unknown }): boolean {
  const query = optionalObject(req.query);
  return req.headers.authorization?.startsWith('Bearer ') === true || typeof query.key === 'string';
}

export function registerUserRoutes(app: FastifyInstance, deps: UserRouteDeps): void {
  const { engine, scoring, identity } = deps;

  app.get('/api/users', async () => engine.users.list());

  app.get<{ Querystring: { ids?: string } }>('/api/users/batch', async (req) => {
    if (typeof req.query.ids !== 'string') throw new ArenaError(400, 'ids query parameter is required');
    const ids = req.query.ids
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id.length > 0);
    return engine.users.getMany(ids);
  });

  app.get<{ Params: { id: string } }>('/api/users/:id/scores', async (req) => scoring.forUser(req.params.id));

  app.get<{ Params: { id: string }; Querystring: { limit?: string; offset?: string } }>('/api/users/:id/challenges', async (req) => {
    const limit = parseLimit(req.query.limit, 50, null);
    const offset = parseOffset(req.query.offset);
    const page = engine.listForUser(req.params.id, limit, offset);
    return { challenges: page.challenges, total: page.total, limit, offset, profiles: page.profiles };
  });

  app.get<{ Params: { id: string } }>('/api/users/:id', async (req) => {
    const user = engine.users.get(req.params.id);
    if (!user) throw new ArenaError(404, 'User not found');
    return user;
  });

  app.post('/api/users', async (req) => {
    const body = readBody(UserUpdateRequestSchema, req.body);
    if (identity.authMode) {
      const { userId } = verifySignedBody(optionalObject(req.body), identity.now(), userUpdateMessage);
      return engine.users.merge({ userId, username: body.username, model: body.model });
    }
    const caller = identityOf(req, deps);
    const target = body.userId ?? caller;
    if (!target) throw new ArenaError(400, 'userId is required');
    // Keyed callers resolve to their seat's invite; a keyless `from` or `userId` never owns a seat-key agent's profile.
    if (!engine.users.writableBy(target, keyed(req) ? caller : null))
      throw new ArenaError(
        403,
        `userId ${JSON.stringify(target)} is the profile of an agent in a seat-key session: only that seat's key may change it`,
        'SEAT_KEY_REQUIRED',
      );
    return engine.users.merge({ userId: target, username: body.username, model: body.model });
  });
}
