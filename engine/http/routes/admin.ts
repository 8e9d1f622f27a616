// Control-plane routes: admin token required; CORS only for the desktop shell's app://arena origin.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AgentCatalog } from '../../agents/catalog.js';
import {
  ADMIN_PREFIX,
  AdminCreateSessionRequestSchema,
  type AdminCreateSessionResponse,
  type AdminSessionDetail,
  AdminSessionListQuerySchema,
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
import { readAdminBody, readAdminQuery, readFieldBody } from '../body.js';
import { bearerToken, tokenMatches } from '../guards.js';
import type { LaunchCodes } from '../launch-codes.js';
import { registerAdminAgentRoutes } from './admin-agents.js';
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
  /** Present only when ARENA_TEST_HOOKS=1 was set for the process (decision 11(h)). */
  reset?: () => void;
}

/** The one admin-token check: the admin plugin and the test hooks both run it before anything else. */
function requireAdminToken(token: string) {
  return async (req: FastifyRequest): Promise<void> => {
    if (!tokenMatches(bearerToken(req.headers.authorization), token)) {
      throw new DomainError('unauthorized', 'Admin token required (Authorization: Bearer <token>)', { code: EngineErrorCode.Unauthorized });
    }
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
    return { token };
  });

  app.register(
    async (admin) => {
      admin.addHook('onRequest', requireAdminToken(deps.token));

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
        const page = engine.adminList({ challengeType: query.type, status: query.status, limit: query.limit, offset: query.offset });
        return { sessions: page.items.map((s) => fullSession(s)), total: page.total };
      });

      admin.get<{ Params: { id: string } }>('/sessions/:id', async (req): Promise<AdminSessionDetail> => {
        const session = engine.session(req.params.id);
        if (!session) throw new DomainError('not_found', `No session ${req.params.id}`);
        return {
          session: fullSession(session),
          options: session.options,
          lastActivityAt: session.lastActivityAt,
          operatorLog: engine.transcript(operatorChannel(session.id)),
          chat: engine.transcript(session.id),
        };
      });

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
      if (deps.governance) registerAdminGovernanceRoutes(admin, deps.governance);
      if (deps.agents) registerAdminAgentRoutes(admin, deps.agents);
      if (deps.clawarena) registerAdminClawArenaRoutes(admin, deps.clawarena);
    },
    { prefix: ADMIN_PREFIX },
  );

  if (deps.reset) {
    const reset = deps.reset;
    app.post('/__test__/reset', { onRequest: requireAdminToken(deps.token) }, async () => {
      reset();
      return { ok: true };
    });
  }
}
