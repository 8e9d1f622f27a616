// Calls of the Agents page's ClawArena section (the owner's dashboard): list, create, update, rotate, restart, matches.
import { ADMIN_PREFIX } from '../../../../engine/contract/admin.js';
import {
  type ClawAgentListResponse,
  ClawAgentListResponseSchema,
  type ClawAgentMatchesResponse,
  ClawAgentMatchesResponseSchema,
  type ClawAgentResponse,
  ClawAgentResponseSchema,
  type ClawAgentTokenResponse,
  ClawAgentTokenResponseSchema,
  type CreateClawAgentRequest,
  type UpdateClawAgentRequest,
} from '../../../../engine/contract/clawarena-admin.js';
import type { ArenaClient } from '../../arena-client/client.js';

const base = `${ADMIN_PREFIX}/clawarena/agents`;

export function fetchClawAgents(client: ArenaClient, signal?: AbortSignal): Promise<ClawAgentListResponse> {
  return client.call(ClawAgentListResponseSchema, base, { admin: true, signal });
}

export function createClawAgent(client: ArenaClient, body: CreateClawAgentRequest): Promise<ClawAgentTokenResponse> {
  return client.call(ClawAgentTokenResponseSchema, base, { method: 'POST', admin: true, body });
}

export function updateClawAgent(client: ArenaClient, id: number, body: UpdateClawAgentRequest): Promise<ClawAgentResponse> {
  return client.call(ClawAgentResponseSchema, `${base}/${id}`, { method: 'PATCH', admin: true, body });
}

export function rotateClawToken(client: ArenaClient, id: number): Promise<ClawAgentTokenResponse> {
  return client.call(ClawAgentTokenResponseSchema, `${base}/${id}/token`, { method: 'POST', admin: true, body: {} });
}

export function requestWatcherRestart(client: ArenaClient, id: number): Promise<ClawAgentResponse> {
  return client.call(ClawAgentResponseSchema, `${base}/${id}/restart`, { method: 'POST', admin: true, body: {} });
}

export function fetchClawMatches(client: ArenaClient, id: number, signal?: AbortSignal): Promise<ClawAgentMatchesResponse> {
  return client.call(ClawAgentMatchesResponseSchema, `${base}/${id}/matches`, { admin: true, signal });
}
