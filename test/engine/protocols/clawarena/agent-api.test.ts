// Discovery, retired routes, provisioning, authentication and heartbeat of the ClawArena agent API over HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentSchemaDocumentSchema, HeartbeatResponseSchema } from '../../../../engine/contract/clawarena.js';
import { validatedResponses } from './helpers.js';
import { setUpClawHttp } from './http-setup.js';

const http = setUpClawHttp({ expectValid: true });
afterAll(() => {
  expect(validatedResponses).toBeGreaterThan(20);
});

describe('discovery and housekeeping routes', () => {
  it('serves the schema without authentication, with every field the starter kit requires', async () => {
    const res = await http.client.call('GET', '/agents/schema/', { token: null });
    expect(res.status).toBe(200);
    const doc = AgentSchemaDocumentSchema.parse(res.body);
    expect(doc.heartbeat.grace_seconds).toBe(90);
    expect(doc.heartbeat.body_template).toEqual({ status: 'idle', feed_status: 'connected' });
    expect(Object.keys(doc.games)).toEqual(['liars_dice', 'las_vegas', 'mafia', 'diplomacy', 'monopoly']);
    expect((doc.poll as { max_wait_seconds: number }).max_wait_seconds).toBe(30);
    expect(doc.games.liars_dice).toMatchObject({ players: 2 });
    expect(doc.games.las_vegas).toMatchObject({ players: 4, min_players: 3, max_players: 5 });
    expect(doc.games.mafia).toMatchObject({ players: 6 });
    expect(doc.games.diplomacy).toMatchObject({ players: 7, min_players: 7, max_players: 7 });
    expect(doc.games.monopoly).toMatchObject({ players: 4, min_players: 2, max_players: 6 });
  });

  it('answers the retired learning routes with 410 manual_reflection_only, before auth and without reading the body', async () => {
    const get = await http.client.call('GET', '/agents/strategy-reflection/', { token: null });
    expect(get.status).toBe(410);
    expect(get.body).toMatchObject({ status: 'error', code: 'manual_reflection_only' });
    const post = await http.client.call('POST', '/agents/strategy-prompt/', { rawBody: '{not json', token: 'garbage' });
    expect(post.status).toBe(410);
    expect(post.body.code).toBe('manual_reflection_only');
  });

  it('answers the daily bonus with 200 and no chips', async () => {
    const res = await http.client.call('POST', '/economy/agent-daily-bonus/', { body: { agent_id: 1, token: 'x' }, token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ amount: '0', balance: 0 });
  });

  it('answers unknown agent paths with a JSON error object and keeps the SpecArena /api/v1 alias working', async () => {
    const res = await http.client.call('GET', '/agents/mine/', { token: null });
    expect(res.status).toBe(404);
    expect(res.body.status).toBe('error');
    expect((await fetch(`${http.server.url}/api/v1/metadata`)).status).toBe(200);
  });

  it('provisions a local agent with a token in the documented format', async () => {
    const res = await http.client.call<{ agent_id: number; agent_name: string; connection_token: string; claim_url: string }>(
      'POST',
      '/agents/provision/',
      {
        body: { name: 'provisioned-one', runtime_kind: 'openclaw' },
        token: null,
      },
    );
    expect(res.status).toBe(201);
    const decoded = JSON.parse(Buffer.from(res.body.connection_token, 'base64url').toString('utf8')) as { a: number; t: string };
    expect(decoded.a).toBe(res.body.agent_id);
    // At least 128 bits of entropy: 32 random bytes, base64url.
    expect(Buffer.from(decoded.t, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect((await http.client.heartbeat(undefined, res.body.connection_token)).status).toBe(200);
    const dup = await http.client.call('POST', '/agents/provision/', { body: { name: 'provisioned-one' }, token: null });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('name_taken');
    const bad = await http.client.call('POST', '/agents/provision/', { body: { name: 'x', extra: true }, token: null });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_payload');
  });
});

describe('authentication', () => {
  it('refuses missing, malformed, forged, revoked and admin credentials with 401 unauthorized on every private route', async () => {
    const { agent, token } = http.server.engine.clawarena.createAgent({ name: 'auth-subject' });
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString()) as { a: number; t: string };
    const forged = Buffer.from(JSON.stringify({ a: agent.agentId, t: `${parsed.t.slice(0, -2)}AA` })).toString('base64url');
    const otherAgent = Buffer.from(JSON.stringify({ a: agent.agentId + 1000, t: parsed.t })).toString('base64url');
    const rotated = http.server.engine.clawarena.issueToken(agent.agentId, null);
    const bad: (string | null)[] = [
      null,
      'nonsense',
      Buffer.from('not json').toString('base64url'),
      forged,
      otherAgent,
      token,
      http.server.token,
    ];
    for (const credential of bad) {
      for (const [method, route] of [
        ['GET', '/agents/game/'],
        ['POST', '/agents/action/'],
        ['POST', '/agents/watcher/'],
      ] as const) {
        const res = await http.client.call(method, route, {
          token: credential,
          body: method === 'POST' ? { action: 'bid', params: {} } : undefined,
        });
        expect({ credential, route, status: res.status, code: res.body.code }).toEqual({
          credential,
          route,
          status: 401,
          code: 'unauthorized',
        });
      }
    }
    expect((await http.client.poll({}, rotated)).status).toBe(200);
    // Padding is optional in the token format.
    const padded = rotated + '='.repeat((4 - (rotated.length % 4)) % 4);
    expect((await http.client.poll({}, padded)).status).toBe(200);
  });

  it('stores only hashes of token secrets', async () => {
    const { token } = http.server.engine.clawarena.createAgent({ name: 'hash-subject' });
    const secret = (JSON.parse(Buffer.from(token, 'base64url').toString()) as { t: string }).t;
    expect((await http.client.heartbeat(undefined, token)).status).toBe(200);
    const files = fs.readdirSync(http.server.dataDir).filter((f) => f.startsWith('arena.sqlite'));
    for (const file of files) {
      const bytes = fs.readFileSync(path.join(http.server.dataDir, file));
      expect(bytes.includes(Buffer.from(secret)), file).toBe(false);
      expect(bytes.includes(Buffer.from(token)), file).toBe(false);
    }
  });
});

describe('heartbeat', () => {
  it('accepts the documented and unknown fields and answers with watcher state and quiet preferences', async () => {
    const { token } = http.server.engine.clawarena.createAgent({ name: 'beat', preferredGameType: 'mafia' });
    const res = await http.client.heartbeat(
      {
        status: 'idle',
        feed_status: 'connected',
        client: 'clawarena-kit',
        brain: 'llm',
        client_version: '5.13.7',
        skill_slug: 'ai-clawarena',
        skill_version: '3.0.0',
        watcher_protocol_version: 3,
        idle_reason: 'waiting',
        last_pong_at: null,
      },
      token,
    );
    expect(res.status).toBe(200);
    const body = HeartbeatResponseSchema.parse(res.body);
    expect(body.agent_preferences).toMatchObject({
      report_level: 'silent',
      strategy_self_learning_enabled: false,
      preferred_game_type: 'mafia',
    });
    expect(body).not.toHaveProperty('skill_update_notice');
    expect(body.watcher.last_seen_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const empty = await http.client.call('POST', '/agents/watcher/', { token });
    expect(empty.status).toBe(200);
    const wrong = await http.client.call('POST', '/agents/watcher/', { token, body: { status: 5 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('invalid_payload');
    const long = await http.client.call('POST', '/agents/watcher/', { token, body: { status: 'x'.repeat(33) } });
    expect(long.status).toBe(400);
  });

  it('drives a remote restart with fixed-width timestamps that compare correctly as strings', async () => {
    const { agent, token } = http.server.engine.clawarena.createAgent({ name: 'restartable' });
    const before = (await http.client.heartbeat(undefined, token)).body.agent_preferences as Record<string, unknown>;
    expect(before).not.toHaveProperty('watcher_restart_requested_at');
    http.server.engine.clawarena.updateAgent(agent.agentId, { preferences: { watcher_restart_requested_at: new Date().toISOString() } });
    const asked = (await http.client.heartbeat(undefined, token)).body.agent_preferences as {
      watcher_restart_requested_at: string;
      watcher_restart_ack_at: string;
    };
    expect(asked.watcher_restart_requested_at > asked.watcher_restart_ack_at).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    const acked = (await http.client.heartbeat({ status: 'idle', restart_ack: true }, token)).body.agent_preferences as {
      watcher_restart_requested_at: string;
      watcher_restart_ack_at: string;
    };
    expect(acked.watcher_restart_requested_at > acked.watcher_restart_ack_at).toBe(false);
    expect(acked.watcher_restart_ack_at).toHaveLength(24);
  });
});
