// ClawArena agents and their connection tokens: provisioning, names, the lobby game type, minting, revoking and
// checking tokens. A token minted for one scheduled match is scoped to it.
import type { AnyGameRules } from '../../../games/index.js';
import type { Clock } from '../../core/clock.js';
import type { Store, StoredClawAgent } from '../../db/store.js';
import { ClawError } from './errors.js';
import { hashSecret, mintToken, parseToken } from './tokens.js';

export interface AuthContext {
  agentId: number;
  /** A token minted for one scheduled match sees only that match and never enters the lobby. */
  scopeMatchId: number | null;
  secretHash: string;
}

export interface NewAgent {
  name: string;
  preferredGameType?: string | null;
  runtimeKind?: string | null;
  preferences?: Record<string, unknown>;
}

const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;

export function createAgents(deps: { store: Store; clock: Clock; games: ReadonlyMap<string, AnyGameRules> }) {
  const { store, clock, games } = deps;
  const repo = store.clawarena;

  function validateName(name: string): string {
    const trimmed = name.trim();
    if (!NAME_PATTERN.test(trimmed)) {
      throw ClawError.of('invalid_payload', 'agent names are 1-64 letters, digits, spaces, dots, dashes or underscores', { field: 'name' });
    }
    return trimmed;
  }

  /** Mints a token; an unscoped one replaces the agent's previous unscoped tokens. */
  function issueToken(agentId: number, matchId: number | null): string {
    const { token, secretHash } = mintToken(agentId);
    store.transaction(() => {
      if (matchId === null) repo.revokeUnscopedTokens(agentId, clock.now());
      repo.insertToken(secretHash, agentId, matchId, clock.now());
    });
    return token;
  }

  function createAgent(spec: NewAgent): { agent: StoredClawAgent; token: string } {
    const name = validateName(spec.name);
    if (spec.preferredGameType && !games.has(spec.preferredGameType)) {
      throw ClawError.of('invalid_payload', `unknown game type ${spec.preferredGameType}`, { allowed_values: [...games.keys()] });
    }
    return store.transaction(() => {
      if (repo.agentByName(name)) throw ClawError.of('name_taken', `an agent named ${name} already exists`, { field: 'name' });
      const agent = repo.insertAgent({
        name,
        createdAt: clock.now(),
        preferredGameType: spec.preferredGameType ?? null,
        runtimeKind: spec.runtimeKind ?? null,
        preferences: spec.preferences ?? {},
      });
      return { agent, token: issueToken(agent.agentId, null) };
    });
  }

  return {
    createAgent,
    issueToken,

    /** The caller of an `Authorization: Bearer <connection_token>` header, or null for any other header. */
    authenticate(authorization: string | string[] | undefined): AuthContext | null {
      if (typeof authorization !== 'string') return null;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      const parsed = parseToken(match?.[1]);
      if (!parsed) return null;
      const secretHash = hashSecret(parsed.secret);
      const token = repo.token(secretHash);
      if (!token || token.revokedAt !== null || token.agentId !== parsed.agentId) return null;
      return { agentId: token.agentId, scopeMatchId: token.matchId, secretHash };
    },

    agentOf(auth: AuthContext): StoredClawAgent {
      const agent = repo.agent(auth.agentId);
      if (!agent) throw ClawError.of('unauthorized', 'unknown agent');
      return agent;
    },

    /** The caller's seat: in its scoped match, else its latest one. */
    seatOf(auth: AuthContext) {
      return auth.scopeMatchId !== null ? repo.seatOfAgent(auth.scopeMatchId, auth.agentId) : repo.latestSeatOfAgent(auth.agentId);
    },

    /** Changes lobby game type and owner guidance; pass only what changes. */
    updateAgent(agentId: number, patch: { preferredGameType?: string | null; preferences?: Record<string, unknown> }): StoredClawAgent {
      return store.transaction(() => {
        const agent = repo.agent(agentId);
        if (!agent) throw ClawError.of('invalid_payload', `no ClawArena agent ${agentId}`);
        if (patch.preferredGameType && !games.has(patch.preferredGameType))
          throw ClawError.of('invalid_payload', `unknown game type ${patch.preferredGameType}`);
        const next = {
          ...agent,
          preferredGameType: patch.preferredGameType === undefined ? agent.preferredGameType : patch.preferredGameType,
          preferences: patch.preferences ? { ...agent.preferences, ...patch.preferences } : agent.preferences,
        };
        repo.updateAgent(next);
        const leftLobby = next.preferences.play_mode === 'manual' && agent.preferences.play_mode !== 'manual';
        if (next.preferredGameType !== agent.preferredGameType || leftLobby) repo.dequeue(agentId);
        return repo.agent(agentId) as StoredClawAgent;
      });
    },
  };
}

export type ClawAgents = ReturnType<typeof createAgents>;
