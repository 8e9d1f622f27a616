// What the engine's HTTP listener is built from; route modules take the parts they use.
import type { ClawArenaService } from '../protocols/clawarena/service.js';
import type { ArenaEngine } from '../protocols/specarena/arena-engine.js';
import type { IdentityConfig } from '../protocols/specarena/identity.js';
import type { ScoringReader } from '../protocols/specarena/scoring-service.js';
import type { WarmDesk } from '../tournaments/warm/warm-desk.js';
import type { AdminDeps } from './routes/admin.js';

export interface HttpDeps {
  engine: ArenaEngine;
  scoring: ScoringReader;
  identity: IdentityConfig;
  admin: AdminDeps;
  /** ClawArena agent API (/api/v1/agents/*, /api/v1/economy/*); absent in tests that build a bare server. */
  clawarena?: ClawArenaService;
  /** Warm agents' next-seat polls (/api/arena/next-seat); absent in tests that build a bare server. */
  warmDesk?: WarmDesk;
  /** Folder with the built renderer (index.html, assets/); served at / when present. */
  rendererDir?: string;
  /** SSE keep-alive interval (spec: 30 s); tests shorten it. */
  pingIntervalMs?: number;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  version: string;
  /** Sessions a client may open per minute through the public API (session-cap.ts); 0 = no cap. */
  sessionsPerMinute?: number;
}

/** Who a SpecArena request comes from is resolved against the protocol engine and the identity settings. */
export type IdentityDeps = Pick<HttpDeps, 'engine' | 'identity'>;
export type ArenaRouteDeps = IdentityDeps;
export type ChatRouteDeps = IdentityDeps & Pick<HttpDeps, 'pingIntervalMs'>;
export type McpRouteDeps = IdentityDeps & Pick<HttpDeps, 'version'>;
export type MiscRouteDeps = Pick<HttpDeps, 'engine' | 'scoring' | 'identity'>;
/** Invite lookups resolve a seat key, so a seat-key session's invites are shown to their holders only. */
export type SessionRouteDeps = IdentityDeps & Pick<HttpDeps, 'sessionsPerMinute'>;
export type UserRouteDeps = Pick<HttpDeps, 'engine' | 'scoring' | 'identity'>;
