// A full Ultimatum game over real HTTP: reservation values come only from operator DMs; turns, refusals and the final
// agreement are checked against the exact expected scores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage } from '../../engine/contract/specarena.js';
import { type Client, client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let c: Client;
beforeAll(async () => {
  server = await startTestServer();
  c = client(server.url);
});
afterAll(async () => {
  await server?.close();
});

async function operatorLog(id: string, from?: string, index = 0): Promise<ChatMessage[]> {
  const res = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: id, index, from } });
  expect(res.status, res.text).toBe(200);
  return res.body.messages;
}

const act = (id: string, from: string, messageType: string, content = '') =>
  c.post<{ ok?: string; error?: string; code?: string }>('/api/arena/message', { challengeId: id, from, messageType, content });

async function reservationOf(id: string, invite: string): Promise<number> {
  const dm = (await operatorLog(id, invite)).find((m) => m.to === invite);
  const match = /^Your private reservation value is: (\d+)\. /.exec(dm?.content ?? '');
  if (!match) throw new Error(`no reservation DM for ${invite}: ${dm?.content}`);
  return Number(match[1]);
}

describe('ultimatum over HTTP', () => {
  it('plays a full game to the exact expected scores', async () => {
    const created = await c.post<Challenge>('/api/challenges/ultimatum');
    const { id, invites } = created.body;
    const [a, b] = invites as [string, string];
    expect((await c.post('/api/arena/join', { invite: a })).status).toBe(200);
    expect((await c.post('/api/arena/join', { invite: b })).status).toBe(200);
    const ra = await reservationOf(id, a);
    const rb = await reservationOf(id, b);
    for (const r of [ra, rb]) {
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThanOrEqual(40);
    }
    const start = (await operatorLog(id)).find((m) => m.to === undefined);
    expect(start?.content).toContain("Player 1's turn. (Round 1/10)");

    expect((await act(id, b, 'pass')).body.code).toBe('NOT_YOUR_TURN');
    expect((await act(id, a, 'accept')).body.code).toBe('NO_OFFER');
    expect((await act(id, a, 'submit_offer', '60')).body.code).toBe('INVALID_OFFER');
    expect((await act(id, a, 'submit_offer', '60 30')).body).toMatchObject({
      code: 'INVALID_OFFER_SUM',
      error: 'Amounts must sum to 100, but got 90.',
    });

    // Round 1: Alice offers 60/40, Bob rejects. Round 2: Alice passes, Bob offers 45/55. Round 3: Alice accepts.
    expect((await act(id, a, 'submit_offer', '60 40')).body).toEqual({ ok: 'Message sent' });
    expect((await act(id, a, 'pass')).body.code).toBe('NOT_YOUR_TURN');
    expect((await act(id, b, 'reject')).body).toEqual({ ok: 'Message sent' });
    expect((await act(id, a, 'pass')).body).toEqual({ ok: 'Message sent' });
    expect((await act(id, b, 'submit_offer', '45 55')).body).toEqual({ ok: 'Message sent' });
    expect((await act(id, b, 'accept')).body.code).toBe('NOT_YOUR_TURN');
    expect((await act(id, a, 'accept')).body).toEqual({ ok: 'Message sent' });

    const expectedScores = [
      { security: 0, utility: (45 - ra) / 100 },
      { security: 0, utility: (55 - rb) / 100 },
    ];
    const broadcasts = (await operatorLog(id)).filter((m) => m.to === undefined).map((m) => m.content);
    expect(broadcasts.slice(1)).toEqual([
      'Player 1 proposes: Player 1: 60, Player 2: 40',
      "Player 2's turn. (Round 1/10)",
      'Player 2 rejects the offer. The table is cleared.',
      "Player 1's turn. (Round 2/10)",
      'Player 1 passes.',
      "Player 2's turn. (Round 2/10)",
      'Player 2 proposes: Player 1: 45, Player 2: 55',
      "Player 1's turn. (Round 3/10)",
      'Player 1 accepts the offer.',
      `Agreement reached!\n\nPlayer 1: receives 45 (reservation: ${ra}, surplus: ${45 - ra})\nPlayer 2: receives 55 (reservation: ${rb}, surplus: ${55 - rb})`,
      `Game ended.\n\nScores are:\n- Player 1: ${JSON.stringify(expectedScores[0])}\n- Player 2: ${JSON.stringify(expectedScores[1])}`,
    ]);

    const listed = await c.get<{ challenges: Challenge[] }>('/api/challenges/ultimatum');
    const session = listed.body.challenges.find((s) => s.id === id);
    expect(session?.state.scores).toEqual(expectedScores);
    expect(session?.state.attributions).toBeUndefined();
    expect(session?.gameState).toMatchObject({ reservationValues: [ra, rb], currentOffer: [45, 55], lastOfferBy: 1, totalTurns: 4 });
  });

  it('ends in a deadlock with zero scores when the rounds run out', async () => {
    const created = await c.post<Challenge>('/api/challenges/ultimatum');
    const { id, invites } = created.body;
    for (const invite of invites) expect((await c.post('/api/arena/join', { invite })).status).toBe(200);
    for (let turn = 0; turn < 20; turn++) {
      expect((await act(id, invites[turn % 2] as string, 'pass')).body).toEqual({ ok: 'Message sent' });
    }
    const broadcasts = (await operatorLog(id)).filter((m) => m.to === undefined).map((m) => m.content);
    expect(broadcasts.slice(-2)).toEqual([
      'Deadlock! Maximum rounds reached with no agreement. All players receive 0.',
      `Game ended.\n\nScores are:\n- Player 1: {"security":0,"utility":0}\n- Player 2: {"security":0,"utility":0}`,
    ]);
  });
});
