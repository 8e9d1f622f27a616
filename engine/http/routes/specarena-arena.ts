// Join, act and sync on the operator channel (spec §3.4, auth mode §4.2).
import type { FastifyInstance } from 'fastify';
import { ArenaMessageRequestSchema, JoinRequestSchema, type JoinResponse } from '../../contract/specarena.js';
import { operatorChannel } from '../../core/redaction.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { issueSessionKey, joinMessage, verifySignedBody } from '../../protocols/specarena/auth.js';
import { INVALID_JSON, optionalObject, readBody } from '../body.js';
import type { ArenaRouteDeps } from '../deps.js';
import { identityOf, syncQuery } from './request-identity.js';

export function registerArenaRoutes(app: FastifyInstance, deps: ArenaRouteDeps): void {
  const { engine, identity } = deps;
  // The game routes are plain functions (Fastify sends what they return; a throw reaches the error handler): an async
  // handler costs a promise and a microtask per request on the hottest paths (bench:api).

  app.post('/api/arena/join', (req) => {
    // Seat keys are checked first in both modes: a seat-key session refuses keyless joins, and a seat key is
    // itself the credential, so its holder joins without a signature even in auth mode.
    const seatKeyJoin = req.headers.authorization?.startsWith('Bearer a_') === true;
    if (identity.authMode && !seatKeyJoin) {
      if (req.body === INVALID_JSON || req.body === undefined) throw new ArenaError(400, 'Invalid JSON in request body');
      identityOf(req, deps);
      const body = optionalObject(req.body);
      if (typeof body.invite !== 'string' || body.invite.length === 0) throw new ArenaError(400, 'invite is required');
      const invite = body.invite;
      const { userId } = verifySignedBody(body, identity.now(), joinMessage(invite));
      const joined = engine.join(invite, userId);
      const session = engine.sessionByInvite(invite);
      if (!session) throw new ArenaError(404, 'Challenge not found for invite');
      const index = session.state.players.indexOf(invite);
      if (index < 0) throw new ArenaError(400, 'Invite not found in challenge players');
      const response: JoinResponse = {
        ChallengeID: joined.session.id,
        ChallengeInfo: joined.metadata,
        sessionKey: issueSessionKey(identity.secret, joined.session.id, index, identity.now()),
      };
      return response;
    }
    const body = readBody(JoinRequestSchema, req.body);
    // A seat key, when presented, must belong to this invite (resolveIdentity refuses any other).
    identityOf(req, deps);
    const joined = engine.join(body.invite, body.userId);
    const response: JoinResponse = { ChallengeID: joined.session.id, ChallengeInfo: joined.metadata };
    return response;
  });

  app.post('/api/arena/message', (req) => {
    const body = readBody(ArenaMessageRequestSchema, req.body);
    const from = identityOf(req, deps);
    if (from === null) throw new ArenaError(400, 'from is required');
    engine.message(body.challengeId, from, body.messageType, body.content);
    return { ok: 'Message sent' };
  });

  app.get('/api/arena/sync', (req) => {
    const { channel, start } = syncQuery(req);
    const messages = engine.sync(operatorChannel(channel), start, identityOf(req, deps));
    return { messages, count: messages.length };
  });
}
