// Bridges Fastify requests to the protocol's identity resolver and sync query rules.
import type { FastifyRequest } from 'fastify';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { resolveIdentity } from '../../protocols/specarena/identity.js';
import { optionalObject } from '../body.js';
import type { IdentityDeps } from '../deps.js';

export function identityOf(req: FastifyRequest, deps: IdentityDeps): string | null {
  return resolveIdentity(deps.engine, deps.identity, {
    authorization: req.headers.authorization,
    query: optionalObject(req.query),
    body: optionalObject(req.body),
    params: optionalObject(req.params),
  });
}

/** `channel` is required; `index` uses Number(): missing or empty → 0, non-numeric → NaN (an empty list). */
export function syncQuery(req: FastifyRequest): { channel: string; start: number } {
  const query = optionalObject(req.query);
  const channel = query.channel;
  if (typeof channel !== 'string') throw new ArenaError(400, channel === undefined ? 'Required' : 'Expected string, received array');
  const index = query.index;
  const start = index === undefined || index === '' ? 0 : Number(index);
  return { channel, start };
}
