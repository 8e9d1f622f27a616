// Leftover sessions: a tournament game that ends in a forfeit (a real crashing agent, one that never joins) closes its
// SpecArena session once the game's record is stored, so the Sessions page does not fill with sessions that look
// joinable; a completed game's ended session stays. The admin list can leave out every tournament-owned session.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_PREFIX, AdminKeptSessionResponseSchema, AdminSessionListResponseSchema } from '../../../engine/contract/admin.js';
import { engineForFile, FIXTURES, MILLIONAIRE, play, spec } from './helpers.js';

const ctx = engineForFile();

const against = (fixture: string) =>
  spec({
    agents: [
      { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
      { manifest: path.join(FIXTURES, fixture, 'agent.yaml'), id: fixture },
    ],
    limits: { move_seconds: 20, game_seconds: 40 },
  });

/** The viewer's read of a session that may be gone: null, never a 404 (a 404 is a console error in the browser). */
async function keptSession(id: string) {
  const res = await fetch(`${ctx.engine.url}${ADMIN_PREFIX}/sessions/${id}/kept`, {
    headers: { authorization: `Bearer ${ctx.engine.token}` },
  });
  expect(res.status).toBe(200);
  return AdminKeptSessionResponseSchema.parse(await res.json()).kept;
}

async function listSessions(query: string) {
  const res = await fetch(`${ctx.engine.url}${ADMIN_PREFIX}/sessions?limit=500${query}`, {
    headers: { authorization: `Bearer ${ctx.engine.token}` },
  });
  expect(res.status).toBe(200);
  return AdminSessionListResponseSchema.parse(await res.json());
}

describe('sessions of tournament games', () => {
  it.each([
    ['crash-bot', 'agent_crash'],
    ['sleeper-bot', 'agent_timeout'],
  ])(
    'a game %s forfeits (%s) leaves no open session behind',
    async (fixture, termination) => {
      const r = await play(ctx.engine, against(fixture));
      expect(r.outcome.status).toBe('finished');
      expect(r.games).toHaveLength(2);
      for (const g of r.games) {
        expect(g.termination).toBe(termination);
        expect(g.sessionId).toMatch(/.+/);
        // Gone with both channels; the record keeps the transcript the match viewer shows.
        expect(ctx.engine.engine.session(g.sessionId as string)).toBeUndefined();
        expect(ctx.engine.engine.transcript(g.sessionId as string)).toEqual([]);
        expect(await keptSession(g.sessionId as string)).toBeNull();
        const strict = await fetch(`${ctx.engine.url}${ADMIN_PREFIX}/sessions/${g.sessionId}`, {
          headers: { authorization: `Bearer ${ctx.engine.token}` },
        });
        expect(strict.status).toBe(404);
      }
      const listed = await listSessions('');
      for (const g of r.games) expect(listed.sessions.some((s) => s.id === g.sessionId)).toBe(false);
    },
    120_000,
  );

  it('a completed game keeps its ended session, marked as its tournament’s; hiding leaves it and only it out', async () => {
    const r = await play(ctx.engine, spec({ games_per_pairing: 1 }));
    expect(r.outcome.status).toBe('finished');
    const [g] = r.games;
    expect(g?.termination).toBe('completed');
    const kept = ctx.engine.engine.session(g?.sessionId as string);
    expect(kept?.status).toBe('ended');
    expect((await keptSession(g?.sessionId as string))?.session.id).toBe(g?.sessionId);
    // Admin only, like every admin read.
    expect((await fetch(`${ctx.engine.url}${ADMIN_PREFIX}/sessions/${g?.sessionId}/kept`)).status).toBe(401);

    const own = ctx.engine.engine.createSession('psi', {}, {});
    const shown = await listSessions('&tournaments=show');
    expect(shown.sessions.map((s) => s.id)).toEqual(expect.arrayContaining([own.id, g?.sessionId]));
    expect(shown.tournaments?.[g?.sessionId as string]).toBe(r.id);
    expect(shown.tournaments?.[own.id]).toBeUndefined();
    const hidden = await listSessions('&tournaments=hide');
    expect(hidden.sessions.map((s) => s.id)).toEqual([own.id]);
    expect(hidden.total).toBe(1);
    // The default stays "show" for API callers.
    expect((await listSessions('')).total).toBe(shown.total);
    const bad = await fetch(`${ctx.engine.url}${ADMIN_PREFIX}/sessions?tournaments=maybe`, {
      headers: { authorization: `Bearer ${ctx.engine.token}` },
    });
    expect(bad.status).toBe(400);
  }, 120_000);
});
