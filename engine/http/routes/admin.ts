// Control-plane routes: admin token required; CORS only for the desktop shell's app://arena origin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AgentCatalog } from '../../agents/catalog.js';
import {
  ADMIN_PREFIX,
  ADMIN_SESSION_PATH,
  AdminCreateSessionRequestSchema,
  type AdminCreateSessionResponse,
  type AdminKeptSessionResponse,
  type AdminSessionDetail,
  AdminSessionListQuerySchema,
  type AdminSessionStatus,
  LAUNCH_CODE_PATH,
  LaunchCodeExchangeRequestSchema,
  type LaunchCodeExchangeResponse,
  type OverviewResponse,
} from '../../contract/admin.js';
import { DomainError, EngineErrorCode } from '../../contract/errors.js';
import { operatorChannel } from '../../core/redaction.js';
import { fullSession } from '../../core/sanitize.js';
import type { Store } from '../../db/store.js';
import type { ClawArenaService } from '../../protocols/clawarena/service.js';
import type { GovernanceRunner } from '../../protocols/governance/background-runs.js';
import type { ArenaEngine } from '../../protocols/specarena/arena-engine.js';
import { issueSeatKey } from '../../protocols/specarena/auth.js';
import type { TournamentService } from '../../tournaments/service.js';
import type { AdminSessions } from '../admin-sessions.js';
import { readAdminBody, readAdminQuery, readFieldBody } from '../body.js';
import { bearerToken, tokenMatches } from '../guards.js';
import type { LaunchCodes } from '../launch-codes.js';
import { registerAdminAgentRoutes } from './admin-agents.js';
import { registerAdminBundleRoutes } from './admin-bundles.js';
import { registerAdminClawArenaRoutes } from './admin-clawarena.js';
import { registerAdminGovernanceRoutes } from './admin-governance.js';
import { registerAdminTournamentRoutes } from './admin-tournaments.js';

export interface AdminDeps {
  token: string;
  engine: ArenaEngine;
  version: string;
  /** Absolute path of the data folder, shown on the Settings page (admin only). */
  dataDir?: string;
  authMode: boolean;
  staleAfterMs: number;
  secret: Buffer;
  now(): number;
  recompute(): { games: number };
  /** The tournament service once the engine listens (routes in admin-tournaments.ts). */
  tournaments?: () => TournamentService | undefined;
  /** Governance report browser and background matches (routes in admin-governance.ts). */
  governance?: { store: Store; runner: GovernanceRunner };
  /** Agents page: folders, manifests and an agent's runs (routes in admin-agents.ts). */
  agents?: AgentCatalog;
  /** Agents page: the owner's dashboard for ClawArena agents (routes in admin-clawarena.ts). */
  clawarena?: ClawArenaService;
  /** One-time codes `arena serve` hands the browser instead of the token. */
  launchCodes?: LaunchCodes;
  /** Cookie sessions a launch-code exchange opens for the browser UI (admin-sessions.ts). */
  adminSessions?: AdminSessions;
  /** Present only when ARENA_TEST_HOOKS=1 was set for the process (decision 11(h)). */
  reset?: () => void;
}

const unauthorized = () =>
  new DomainError('unauthorized', 'Admin token required (Authorization: Bearer <token>)', { code: EngineErrorCode.Unauthorized });

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The one admin check (the admin plugin and the test hooks both run it first): the bearer token, or the browser session cookie of a traded launch code. A write carried by
 * the cookie alone must also name this engine as its Origin (browsers always send one with a write): SameSite=Strict
 * already keeps the cookie off other sites' requests, and the server-wide Origin check refuses foreign ones.
 */
function requireAdmin(token: string, sessions: AdminSessions | undefined) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (tokenMatches(bearerToken(req.headers.authorization), token)) return;
    const host = req.headers.host ?? '';
    const secure = req.protocol === 'https';
    const session = sessions?.check(req.headers.cookie, host, secure);
    if (!session) throw unauthorized();
    if (!SAFE_METHODS.has(req.method) && req.headers.origin !== `${secure ? 'https' : 'http'}://${host}`)
      throw new DomainError('forbidden', 'A write with the session cookie must come from this engine’s own page (Origin)', {
        code: EngineErrorCode.ForbiddenOrigin,
      });
    if (session.setCookie) reply.header('Set-Cookie', session.setCookie);
  };
}

export function registerAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const { engine } = deps;

  // Outside the token check: the code is the credential, good once.
  app.post(LAUNCH_CODE_PATH, async (req, reply): Promise<LaunchCodeExchangeResponse> => {
    const { code } = readFieldBody(LaunchCodeExchangeRequestSchema, req.body);
    const token = deps.launchCodes?.redeem(code) ?? null;
    reply.header('Cache-Control', 'no-store');
    if (token === null) throw new DomainError('unauthorized', 'Launch code unknown, already used or expired');
    // The browser's session, so its other tabs get in without a new link (admin-sessions.ts).
    if (deps.adminSessions) reply.header('Set-Cookie', deps.adminSessions.issue(req.headers.host ?? '', req.protocol === 'https'));
    return { token };
  });

  // Outside the check too: answers whether the cookie is live (never 401, so a page without access logs no error).
  app.get(ADMIN_SESSION_PATH, async (req, reply): Promise<AdminSessionStatus> => {
    reply.header('Cache-Control', 'no-store');
    const session = deps.adminSessions?.check(req.headers.cookie, req.headers.host ?? '', req.protocol === 'https');
    if (session?.setCookie) reply.header('Set-Cookie', session.setCookie);
    return { signed_in: session != null };
  });

  app.register(
    async (admin) => {
      admin.addHook('onRequest', requireAdmin(deps.token, deps.adminSessions));

      admin.get(
        '/overview',
        async (): Promise<OverviewResponse> => ({
          version: deps.version,
          ...(deps.dataDir === undefined ? {} : { dataDir: deps.dataDir }),
          authMode: deps.authMode,
          staleAfterMs: deps.staleAfterMs,
          challenges: engine.metadata(),
          stats: engine.stats(),
        }),
      );

      admin.get('/sessions', async (req) => {
        const query = readAdminQuery(AdminSessionListQuerySchema, req.query);
        const page = engine.adminList({
          challengeType: query.type,
          status: query.status,
          tournamentSessions: query.tournaments === 'show',
          limit: query.limit,
          offset: query.offset,
        });
        const owners = engine.tournamentsOf(page.items.map((s) => s.id));
        return { sessions: page.items.map((s) => fullSession(s)), total: page.total, tournaments: Object.fromEntries(owners) };
      });

      const sessionDetail = (id: string): AdminSessionDetail | null => {
        const session = engine.session(id);
        if (!session) return null;
        return {
          session: fullSession(session),
          options: session.options,
          lastActivityAt: session.lastActivityAt,
          operatorLog: engine.transcript(operatorChannel(session.id)),
          chat: engine.transcript(session.id),
        };
      };

      admin.get<{ Params: { id: string } }>('/sessions/:id', async (req): Promise<AdminSessionDetail> => {
        const detail = sessionDetail(req.params.id);
        if (!detail) throw new DomainError('not_found', `No session ${req.params.id}`);
        return detail;
      });

      admin.get<{ Params: { id: string } }>(
        '/sessions/:id/kept',
        async (req): Promise<AdminKeptSessionResponse> => ({ kept: sessionDetail(req.params.id) }),
      );

      admin.post('/sessions', async (req): Promise<AdminCreateSessionResponse> => {
        const body = readAdminBody(AdminCreateSessionRequestSchema, req.body);
        if (!engine.hasChallenge(body.challengeType)) {
          const message = `Unknown challenge type: ${body.challengeType}`;
          throw new DomainError('invalid', message, { issues: [{ path: 'challengeType', message }] });
        }
        const session = engine.createSession(body.challengeType, body.options, { seatKeysRequired: body.seatKeys });
        const response: AdminCreateSessionResponse = { session: fullSession(session) };
        if (body.seatKeys) response.seatKeys = session.invites.map((_, slot) => issueSeatKey(deps.secret, session.id, slot, deps.now()));
        return response;
      });

      admin.post('/scoring/recompute', async () => deps.recompute());

      if (deps.tournaments) registerAdminTournamentRoutes(admin, deps.tournaments);
      if (deps.tournaments) registerAdminBundleRoutes(admin, deps.tournaments);
      if (deps.governance) registerAdminGovernanceRoutes(admin, deps.governance);
      if (deps.agents) registerAdminAgentRoutes(admin, deps.agents);
      if (deps.clawarena) registerAdminClawArenaRoutes(admin, deps.clawarena);
    },
    { prefix: ADMIN_PREFIX },
  );

  if (deps.reset) {
    const reset = deps.reset;
    app.post('/__test__/reset', { onRequest: requireAdmin(deps.token, undefined) }, async () => {
      reset();
      return { ok: true };
    });
  }
}
