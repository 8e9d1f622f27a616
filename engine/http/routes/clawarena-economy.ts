// ClawArena economy route kept for the starter kit's start-up call: local play has no chips (spec §3).
import type { FastifyInstance } from 'fastify';
import type { ClawArenaService } from '../../protocols/clawarena/service.js';
import { sendClaw } from '../error-reply.js';
import { CLAWARENA_BASE, noClawRoute } from './clawarena-agents.js';

export function registerClawArenaEconomyRoutes(app: FastifyInstance, service: Pick<ClawArenaService, 'dailyBonus'>): void {
  app.post(`${CLAWARENA_BASE}/economy/agent-daily-bonus/`, async (_req, reply) => {
    return sendClaw(reply, 200, service.dailyBonus());
  });
  app.all(`${CLAWARENA_BASE}/economy/*`, async (req) => noClawRoute(req));
}
