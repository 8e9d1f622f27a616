// Who is calling (spec §2.4, §4.5, decision 11(f)): `from` in standalone mode, session keys in auth mode,
// seat keys (runner-launched agents) in both. A key always wins over `from`.
import { sessionIdOfChannel } from '../../core/redaction.js';
import type { ArenaEngine } from './arena-engine.js';
import { ArenaError } from './arena-error.js';
import { verifySeatKey, verifySessionKey } from './auth.js';

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

function sessionIdOf(sources: IdentitySources): string | undefined {
  const found =
    str(sources.query.channel) ??
    str(sources.query.challengeId) ??
    str(sources.body.challengeId) ??
    str(sources.body.channel) ??
    str(sources.params.channel);
  return found === undefined ? undefined : sessionIdOfChannel(found);
}

const unauthorized = () => new ArenaError(401, 'Authentication required');

/** Returns the caller's identity (an invite, or a free-form `from` in standalone mode), or null for a viewer. */
export function resolveIdentity(engine: ArenaEngine, config: IdentityConfig, sources: IdentitySources): string | null {
  const key = keyOf(sources);
  if (key?.startsWith('a_')) {
    const invite = str(sources.body.invite);
    const session =
      invite !== undefined
        ? engine.sessionByInvite(invite)
        : (() => {
            const id = sessionIdOf(sources);
            return id === undefined ? undefined : engine.session(id);
          })();
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
  if (engine.seatKeysRequired(from)) throw unauthorized();
  return from;
}
