// The owner's dashboard for ClawArena agents (admin API, contract in engine/contract/clawarena-admin.ts): list,
// create (the token is shown once), change game / play mode / guidance, rotate the token, request a watcher restart,
// an agent's matches, and a match's events so far (the viewer polls them to follow a running tournament game). Failures are domain errors (ClawErrors are domain errors too) rendered by the one handler.
import type { FastifyInstance } from 'fastify';
import {
  type ClawAgentListResponse,
  type ClawAgentMatchesResponse,
  type ClawAgentResponse,
  type ClawAgentTokenResponse,
  type ClawAgentView,
  ClawMatchEventsQuerySchema,
  type ClawMatchEventsResponse,
  CreateClawAgentRequestSchema,
  type UpdateClawAgentRequest,
  UpdateClawAgentRequestSchema,
} from '../../contract/clawarena-admin.js';
import { DomainError } from '../../contract/errors.js';
import type { StoredClawAgent } from '../../db/store.js';
import { matchTranscript } from '../../protocols/clawarena/match-transcript.js';
import type { ClawArenaService } from '../../protocols/clawarena/service.js';
import { readAdminQuery, readFieldBody } from '../body.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

export function clawAgentView(agent: StoredClawAgent): ClawAgentView {
  const p = agent.preferences;
  const risk = text(p.risk_profile);
  return {
    agentId: agent.agentId,
    name: agent.name,
    gameType: agent.preferredGameType,
    playMode: p.play_mode === 'manual' ? 'manual' : 'autoplay',
    strategyHint: text(p.strategy_hint),
    riskProfile: risk === 'conservative' || risk === 'balanced' || risk === 'aggressive' ? risk : null,
    language: text(p.message_language),
    runtimeKind: agent.runtimeKind,
    createdAt: agent.createdAt,
    lastSeenAt: agent.lastSeenAt,
    restartRequestedAt: text(p.watcher_restart_requested_at),
    restartAckAt: text(p.watcher_restart_ack_at),
  };
}

/** The stored preference keys of a create/update body; null clears (stored as ''), absent keeps. */
function preferencePatch(body: UpdateClawAgentRequest): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (body.playMode !== undefined) patch.play_mode = body.playMode;
  if (body.strategyHint !== undefined) patch.strategy_hint = body.strategyHint ?? '';
  if (body.riskProfile !== undefined) patch.risk_profile = body.riskProfile ?? '';
  if (body.language !== undefined) patch.message_language = body.language ?? '';
  return patch;
}

export function registerAdminClawArenaRoutes(admin: FastifyInstance, service: ClawArenaService): void {
  const agentOr404 = (raw: string): StoredClawAgent => {
    const agent = /^\d+$/.test(raw) ? service.agent(Number(raw)) : undefined;
    if (!agent) throw new DomainError('not_found', `No ClawArena agent ${raw}`);
    return agent;
  };
  const checkGame = (gameType: string | null | undefined) => {
    if (gameType && !service.games.has(gameType)) {
      const message = `Unknown game type ${gameType}; one of ${[...service.games.keys()].join(', ')}`;
      throw new DomainError('invalid', message, { issues: [{ path: 'gameType', message }] });
    }
  };

  admin.get(
    '/clawarena/agents',
    async (): Promise<ClawAgentListResponse> => ({
      agents: service.agents().map(clawAgentView),
      games: [...service.games].map(([gameType, game]) => ({ gameType, title: game.title, players: game.players.default })),
    }),
  );

  admin.post('/clawarena/agents', async (req, reply): Promise<ClawAgentTokenResponse> => {
    const body = readFieldBody(CreateClawAgentRequestSchema, req.body);
    checkGame(body.gameType);
    const { agent, token } = service.createAgent({
      name: body.name,
      preferredGameType: body.gameType ?? null,
      preferences: preferencePatch(body),
    });
    reply.code(201).header('Cache-Control', 'no-store');
    return { agent: clawAgentView(agent), token };
  });

  admin.patch<{ Params: { id: string } }>('/clawarena/agents/:id', async (req): Promise<ClawAgentResponse> => {
    const agent = agentOr404(req.params.id);
    const body = readFieldBody(UpdateClawAgentRequestSchema, req.body);
    checkGame(body.gameType);
    const updated = service.updateAgent(agent.agentId, { preferredGameType: body.gameType, preferences: preferencePatch(body) });
    return { agent: clawAgentView(updated) };
  });

  admin.post<{ Params: { id: string } }>('/clawarena/agents/:id/token', async (req, reply): Promise<ClawAgentTokenResponse> => {
    const agent = agentOr404(req.params.id);
    const token = service.issueToken(agent.agentId, null);
    reply.header('Cache-Control', 'no-store');
    return { agent: clawAgentView(agent), token };
  });

  admin.post<{ Params: { id: string } }>('/clawarena/agents/:id/restart', async (req): Promise<ClawAgentResponse> => {
    const agent = agentOr404(req.params.id);
    const updated = service.updateAgent(agent.agentId, { preferences: { watcher_restart_requested_at: new Date().toISOString() } });
    return { agent: clawAgentView(updated) };
  });

  admin.get<{ Params: { id: string } }>('/clawarena/agents/:id/matches', async (req): Promise<ClawAgentMatchesResponse> => {
    const agent = agentOr404(req.params.id);
    const matches = service.matchesOfAgent(agent.agentId, 50).flatMap((m) => (m ? [m] : []));
    return {
      matches: matches.map((m) => ({
        matchId: m.matchId,
        gameType: m.gameType,
        status: m.status,
        origin: m.origin,
        seats: m.seats.map((s) => ({ seat: s.seat, agentId: s.agentId, name: s.name })),
        placement: m.seats.find((s) => s.agentId === agent.agentId)?.placement ?? null,
        finishReason: typeof m.result?.finish_reason === 'string' ? m.result.finish_reason : null,
      })),
    };
  });

  // Polled with the last `next`: events are append-only, so positions past it are exactly the new ones.
  admin.get<{ Params: { id: string } }>('/clawarena/matches/:id/events', async (req, reply): Promise<ClawMatchEventsResponse> => {
    const { after = 0 } = readAdminQuery(ClawMatchEventsQuerySchema, req.query);
    const match = /^\d+$/.test(req.params.id) ? service.match(Number(req.params.id)) : undefined;
    if (!match) throw new DomainError('not_found', `No ClawArena match ${req.params.id}`);
    const all = service.matchEvents(match.matchId);
    reply.header('Cache-Control', 'no-store');
    return {
      matchId: match.matchId,
      status: match.status,
      events: matchTranscript(all.slice(after), after),
      next: Math.max(after, all.length),
    };
  });
}
