// The owner's dashboard API for ClawArena agents over real HTTP: create (token once), guidance and play mode reaching
// the agent's polls, token rotation, restart requests, an agent's matches, and errors in the one admin error model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClawAgentListResponseSchema,
  ClawAgentMatchesResponseSchema,
  ClawAgentResponseSchema,
  ClawAgentTokenResponseSchema,
} from '../../../engine/contract/clawarena-admin.js';
import { AdminErrorBodySchema } from '../../../engine/contract/errors.js';
import { type AdminTestServer, startAdminTestServer, type TestServer } from '../../support/server.js';
import { fallbackMove, ValidatingClient } from '../protocols/clawarena/helpers.js';

let server: TestServer;
let admin: AdminTestServer['admin'];
let auth: AdminTestServer['auth'];
let agentApi: ValidatingClient;

beforeAll(async () => {
  ({ server, admin, auth } = await startAdminTestServer());
  agentApi = new ValidatingClient(`${server.url}/api/v1`);
});
afterAll(async () => {
  await server?.close();
});

const send = (method: string, path: string, body?: unknown) => admin.request(method, path, { ...auth, body });

describe('admin API: ClawArena agents', () => {
  it('needs the admin token', async () => {
    expect((await admin.get('/clawarena/agents')).status).toBe(401);
    expect((await admin.post('/clawarena/agents', { name: 'x' })).status).toBe(401);
  });

  it('creates an agent with its guidance; the token is shown once and works on the agent API', async () => {
    const created = await send('POST', '/clawarena/agents', {
      name: 'owner-one',
      gameType: 'liars_dice',
      strategyHint: 'bluff rarely',
      riskProfile: 'conservative',
      language: 'French',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { agent, token } = ClawAgentTokenResponseSchema.parse(created.body);
    expect(agent).toMatchObject({ name: 'owner-one', gameType: 'liars_dice', playMode: 'autoplay', riskProfile: 'conservative' });
    const listed = ClawAgentListResponseSchema.parse((await admin.get('/clawarena/agents', auth)).body);
    expect(listed.games.map((g) => g.gameType)).toContain('mafia');
    expect(listed.agents.find((a) => a.agentId === agent.agentId)?.language).toBe('French');
    expect(JSON.stringify(listed)).not.toContain(token);

    const poll = await agentApi.poll({ consume_preferences: 1 }, token);
    expect(poll.status).toBe(200);
    expect(poll.body.status).toBe('waiting');
    expect(poll.body.agent_preferences).toMatchObject({ message_language: 'French', autoplay_enabled: true });
  });

  it('refuses bad input with field issues, unknown agents with 404 and taken names with a conflict', async () => {
    const bad = await send('POST', '/clawarena/agents', { name: 'owner-bad', riskProfile: 'reckless' });
    expect(bad.status).toBe(400);
    const body = AdminErrorBodySchema.parse(bad.body);
    expect(body.error).toContain('riskProfile');
    const game = await send('POST', '/clawarena/agents', { name: 'owner-bad', gameType: 'chess' });
    expect(game.status).toBe(400);
    expect(AdminErrorBodySchema.parse(game.body).error).toContain('Unknown game type chess');
    expect((await send('POST', '/clawarena/agents', { name: 'owner-bad', extra: 1 })).status).toBe(400);
    expect((await send('PATCH', '/clawarena/agents/99999', { playMode: 'manual' })).status).toBe(404);
    expect((await send('POST', '/clawarena/agents/abc/token')).status).toBe(404);
    await send('POST', '/clawarena/agents', { name: 'owner-dup' });
    const dup = await send('POST', '/clawarena/agents', { name: 'owner-dup' });
    expect(dup.status).toBe(409);
    expect(AdminErrorBodySchema.parse(dup.body).code).toBe('name_taken');
  });

  it('manual play mode keeps the agent out of the lobby; rotation revokes the old token; restart reaches the watcher', async () => {
    const { agent, token } = ClawAgentTokenResponseSchema.parse(
      (await send('POST', '/clawarena/agents', { name: 'owner-two', gameType: 'mafia', playMode: 'manual' })).body,
    );
    const idle = await agentApi.poll({}, token);
    expect(idle.body.status).toBe('idle');
    expect(idle.body.agent_preferences?.autoplay_enabled).toBe(false);

    const patched = ClawAgentResponseSchema.parse(
      (await send('PATCH', `/clawarena/agents/${agent.agentId}`, { playMode: 'autoplay', strategyHint: null })).body,
    );
    expect(patched.agent).toMatchObject({ playMode: 'autoplay', strategyHint: null, gameType: 'mafia' });
    expect((await agentApi.poll({}, token)).body.status).toBe('waiting');

    const rotated = ClawAgentTokenResponseSchema.parse((await send('POST', `/clawarena/agents/${agent.agentId}/token`)).body);
    expect(rotated.token).not.toBe(token);
    expect((await agentApi.heartbeat(undefined, token)).status).toBe(401);
    expect((await agentApi.heartbeat(undefined, rotated.token)).status).toBe(200);

    const restarted = ClawAgentResponseSchema.parse((await send('POST', `/clawarena/agents/${agent.agentId}/restart`)).body);
    expect(restarted.agent.restartRequestedAt).not.toBeNull();
    const beat = await agentApi.heartbeat(undefined, rotated.token);
    expect((beat.body.agent_preferences as Record<string, unknown>).watcher_restart_requested_at).toBe(restarted.agent.restartRequestedAt);
  });

  it("lists an agent's matches with its placement", { timeout: 30_000 }, async () => {
    // Agents of the earlier tests leave the lobby, so these two are seated together.
    for (const other of ClawAgentListResponseSchema.parse((await admin.get('/clawarena/agents', auth)).body).agents) {
      expect((await send('PATCH', `/clawarena/agents/${other.agentId}`, { playMode: 'manual' })).status).toBe(200);
    }
    const a = ClawAgentTokenResponseSchema.parse(
      (await send('POST', '/clawarena/agents', { name: 'owner-m1', gameType: 'liars_dice' })).body,
    );
    const b = ClawAgentTokenResponseSchema.parse(
      (await send('POST', '/clawarena/agents', { name: 'owner-m2', gameType: 'liars_dice' })).body,
    );
    await agentApi.poll({}, a.token);
    const first = await agentApi.poll({}, b.token);
    expect(first.body.status).toBe('playing');
    for (let i = 0; i < 400; i++) {
      const polls = [await agentApi.poll({}, a.token), await agentApi.poll({}, b.token)];
      if (polls.every((p) => p.body.status === 'finished')) break;
      const turn = polls.findIndex((p) => p.body.is_your_turn);
      if (turn >= 0) await agentApi.act(fallbackMove(polls[turn]?.body as never), [a.token, b.token][turn]);
    }
    const res = await admin.get(`/clawarena/agents/${a.agent.agentId}/matches`, auth);
    const { matches } = ClawAgentMatchesResponseSchema.parse(res.body);
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ gameType: 'liars_dice', status: 'finished', origin: 'lobby' });
    expect([1, 2]).toContain(matches[0]?.placement);
    expect(matches[0]?.seats.map((s) => s.name).sort()).toEqual(['owner-m1', 'owner-m2']);
  });
});
