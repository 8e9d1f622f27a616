// Who is calling (spec §2.4, §4.5, decision 11(f)): `from` in standalone mode, session keys in auth mode,
// seat keys (runner-launched agents) in both. A key always wins over `from`.
import { sessionIdOfChannel } from '../../core/redaction.js';
import type { ArenaEngine } from './arena-engine.js';
import { ArenaError } from './arena-error.js';
import { verifySeatKey, verifySessionKey } from './auth.js';
import { assertNotReserved } from './sender-rules.js';

export interface IdentitySources {
  authorization: string | undefined;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  params: Record<string, unknown>;
}

export interface IdentityConfig {
  authMode: boolean;
  secret: Buffer;
  now(): number;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

function keyOf(sources: IdentitySources): string | undefined {
  const header = sources.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length);
  return str(sources.query.key);
}

/** Where a request may name its session, in the order of spec §4.5 (decision 11(f) adds the path). */
const SESSION_SOURCES: ReadonlyArray<readonly ['query' | 'body' | 'params', string]> = [
  ['query', 'channel'],
  ['query', 'challengeId'],
  ['body', 'challengeId'],
  ['body', 'channel'],
  ['params', 'channel'],
];

/** The session a request names, first found in the order of SESSION_SOURCES. */
function sessionIdOf(sources: IdentitySources): string | undefined {
  for (const [where, field] of SESSION_SOURCES) {
    const found = str(sources[where][field]);
    if (found !== undefined) return sessionIdOfChannel(found);
  }
  return undefined;
}

/** Every session a request names in any of its sources (a route may read a different source than the first). */
function namedSessionIds(sources: IdentitySources): Set<string> {
  const ids = new Set<string>();
  for (const [where, field] of SESSION_SOURCES) {
    const found = str(sources[where][field]);
    if (found !== undefined) ids.add(sessionIdOfChannel(found));
  }
  return ids;
}

const unauthorized = () => new ArenaError(401, 'Authentication required');

/**
 * Returns the caller's identity (an invite, or a free-form `from` in standalone mode), or null for a viewer.
 * Decision 11(j): a reserved name is nobody's identity, and a request that names a seat-key session gets an identity
 * only from that session's seat key.
 */
export function resolveIdentity(engine: ArenaEngine, config: IdentityConfig, sources: IdentitySources): string | null {
  const key = keyOf(sources);
  // A key answers for one session: a request that names two (query and body disagreeing) could pass the check on
  // one and write to the other.
  if (key !== undefined && namedSessionIds(sources).size > 1) throw unauthorized();
  if (key?.startsWith('a_')) {
    const invite = str(sources.body.invite);
    const id = sessionIdOf(sources);
    const ref = invite !== undefined ? { invite } : id !== undefined ? { id } : undefined;
    const session = ref && engine.seats(ref);
    if (!session) throw unauthorized();
    const slot = verifySeatKey(config.secret, session.id, key, config.now());
    const seat = slot === null ? undefined : session.invites[slot];
    if (seat === undefined || (invite !== undefined && invite !== seat)) throw unauthorized();
    return seat;
  }
  // A session created with seat keys is playable only with them: no keyless join of its invites (join is the
  // only route whose body names an invite) and, below, no plain `from` claim of one of its seats.
  const joining = str(sources.body.invite);
  if (joining !== undefined && engine.seatKeysRequired(joining)) throw unauthorized();
  if (config.authMode) {
    const sessionId = sessionIdOf(sources);
    if (key === undefined || sessionId === undefined) return null;
    const index = verifySessionKey(config.secret, sessionId, key, config.now());
    if (index === null) throw unauthorized();
    return engine.session(sessionId)?.state.players[index] ?? null;
  }
  const from = str(sources.query.from) ?? str(sources.body.from);
  if (from === undefined || from === 'viewer') return null;
  assertNotReserved(from);
  if (engine.seatKeysRequired(from)) throw unauthorized();
  // Keyless claims are refused wherever a seat-key session is named, not only claims of its own seats: a stranger's
  // `from` would otherwise still write into its chat and operator log or read with a made-up identity.
  for (const id of namedSessionIds(sources)) if (engine.seatKeysRequiredForSession(id)) throw unauthorized();
  return from;
}
