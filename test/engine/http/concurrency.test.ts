// Acceptance 5: concurrent requests lose no update (decision 11(d): one transaction per action).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage, ScoringEntry } from '../../../engine/contract/specarena.js';
import { type Client, client } from '../../support/http.js';
import { type CreatedSession, createSession, guess, intersect, privateSet } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let c: Client;

beforeAll(async () => {
  server = await startTestServer();
  c = client(server.url);
});
afterAll(async () => server?.close());

describe('concurrency', () => {
  it('50 concurrent joins over 25 sessions, then 50 concurrent guesses: every update recorded', async () => {
    const sessions: CreatedSession[] = await Promise.all(Array.from({ length: 25 }, () => createSession(c)));
    const joins = sessions.flatMap((s) => s.invites.map((invite, i) => ({ s, invite, userId: i === 0 ? 'north' : 'south' })));
    const joined = await Promise.all(
      joins.map((j) => c.post<{ ChallengeID: string }>('/api/arena/join', { invite: j.invite, userId: j.userId })),
    );
    expect(joined.map((r) => r.status)).toEqual(joins.map(() => 200));
    expect(joined.map((r) => r.body.ChallengeID)).toEqual(joins.map((j) => j.s.id));

    const active = await c.get<{ challenges: Challenge[]; total: number }>('/api/challenges/psi', {
      query: { status: 'active', limit: 100 },
    });
    expect(active.body.total).toBe(25);
    for (const s of sessions) {
      const listed = active.body.challenges.find((x) => x.id === s.id);
      expect(new Set(listed?.state.players)).toEqual(new Set(s.invites));
    }

    const targets = await Promise.all(
      sessions.map(async (s) =>
        intersect(await privateSet(c, s.id, s.invites[0] as string), await privateSet(c, s.id, s.invites[1] as string)),
      ),
    );
    const guesses = await Promise.all(
      sessions.flatMap((s, k) => s.invites.map((invite) => guess(c, s.id, invite, targets[k] as number[]))),
    );
    expect(guesses.map((g) => g.status)).toEqual(guesses.map(() => 200));

    const ended = await c.get<{ challenges: Challenge[]; total: number }>('/api/challenges/psi', {
      query: { status: 'ended', limit: 100 },
    });
    expect(ended.body.total).toBe(25);
    for (const [k, s] of sessions.entries()) {
      const done = ended.body.challenges.find((x) => x.id === s.id);
      expect(done?.state.scores).toEqual([
        { security: 1, utility: 1 },
        { security: 1, utility: 1 },
      ]);
      expect(done?.gameState).toMatchObject({ guesses: [targets[k], targets[k]] });
      expect(Object.values(done?.state.playerIdentities ?? {}).sort()).toEqual(['north', 'south']);
    }
    // Every ending was scored exactly once.
    const global = await c.get<ScoringEntry[]>('/api/scoring');
    expect(global.body.map((e) => [e.playerId, e.gamesPlayed]).sort()).toEqual([
      ['north', 25],
      ['south', 25],
    ]);
    const streaks = await c.get<Record<string, ScoringEntry[]>>('/api/scoring/psi');
    for (const e of streaks.body.consecutive ?? []) expect(e.metrics['consecutive:utility']).toBe(25);
    expect((await c.get<{ challenges: { psi: { gamesPlayed: number } } }>('/api/stats')).body.challenges.psi.gamesPlayed).toBe(25);
  });

  it('concurrent duplicate joins of one invite: exactly one succeeds', async () => {
    const s = await createSession(c);
    const invite = s.invites[0] as string;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => c.post('/api/arena/join', { invite, userId: `racer-${i}` })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'This invite has already been used.', code: 'INVITE_ALREADY_USED' });
    }
    const ops = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: s.id, from: invite } });
    // One join, one set DM.
    expect(ops.body.messages).toHaveLength(1);
    const listed = await c.get<{ challenges: Challenge[] }>('/api/challenges/psi', { query: { limit: 100 } });
    expect(listed.body.challenges.find((x) => x.id === s.id)?.state.players).toEqual([invite]);
  });

  it('concurrent guesses of both players of one session are both recorded', async () => {
    for (let round = 0; round < 5; round++) {
      const s = await createSession(c);
      const [a, b] = s.invites as [string, string];
      await Promise.all([c.post('/api/arena/join', { invite: a, userId: 'x' }), c.post('/api/arena/join', { invite: b, userId: 'y' })]);
      const target = intersect(await privateSet(c, s.id, a), await privateSet(c, s.id, b));
      const [ga, gb] = await Promise.all([guess(c, s.id, a, target), guess(c, s.id, b, [...target, 999_999])]);
      expect([ga.status, gb.status]).toEqual([200, 200]);
      const ended = await c.get<{ challenges: Challenge[] }>('/api/challenges/psi', { query: { status: 'ended', limit: 100 } });
      const done = ended.body.challenges.find((x) => x.id === s.id);
      // B's guess holds a number outside A's set: utility -1 for B, no breach of A.
      expect(done?.state.scores).toEqual([
        { security: 1, utility: 1 },
        { security: 1, utility: -1 },
      ]);
      const ops = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: s.id } });
      expect(ops.body.messages.filter((m) => m.content.startsWith('Game ended.'))).toHaveLength(1);
    }
  });

  it('50 concurrent chat sends on one channel get indices 1..50', async () => {
    const channel = `busy-${Date.now()}`;
    const sent = await Promise.all(
      Array.from({ length: 50 }, (_, i) => c.post<{ index: number }>('/api/chat/send', { channel, from: `p${i}`, content: `m${i}` })),
    );
    expect(sent.map((r) => r.body.index).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const synced = await c.get<{ messages: ChatMessage[]; count: number }>('/api/chat/sync', { query: { channel } });
    expect(synced.body.count).toBe(50);
    expect(synced.body.messages.map((m) => m.index)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
