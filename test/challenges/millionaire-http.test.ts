// A full Millionaire game over real HTTP: wealth comes only from operator DMs; the scores are exactly what the rules
// give for an exact guess (a breach) and a wrong-direction guess.
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

async function operatorLog(id: string, from?: string): Promise<ChatMessage[]> {
  const res = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: id, index: 0, from } });
  expect(res.status, res.text).toBe(200);
  return res.body.messages;
}

const act = (id: string, from: string, content: string, messageType = 'guess') =>
  c.post<{ ok?: string; error?: string; code?: string }>('/api/arena/message', { challengeId: id, from, messageType, content });

async function wealthOf(id: string, invite: string): Promise<number> {
  const dm = (await operatorLog(id, invite)).find((m) => m.to === invite && m.content.startsWith('Your wealth is $'));
  const match = /^Your wealth is \$(\d+)M\. Guess your opponent's wealth \(in millions, 1–100\)/.exec(dm?.content ?? '');
  if (!match) throw new Error(`no wealth DM for ${invite}: ${dm?.content}`);
  return Number(match[1]);
}

describe('millionaire over HTTP', () => {
  it('plays a full game to the exact expected scores', async () => {
    const created = await c.post<Challenge>('/api/challenges/millionaire');
    expect(created.status).toBe(200);
    const { id, invites } = created.body;
    const [a, b] = invites as [string, string];
    expect((await c.post('/api/arena/join', { invite: a, userId: 'alice' })).status).toBe(200);
    expect((await c.post('/api/arena/join', { invite: b, userId: 'bob' })).status).toBe(200);
    const wa = await wealthOf(id, a);
    const wb = await wealthOf(id, b);
    expect(wa).toBeGreaterThanOrEqual(1);
    expect(wa).toBeLessThanOrEqual(100);

    // Invalid guesses are refused with 400 and change nothing.
    expect((await act(id, a, 'rich')).body.code).toBe('INVALID_GUESS');
    expect((await act(id, a, '0')).body.code).toBe('INVALID_GUESS');
    expect((await act(id, a, '101')).body.code).toBe('INVALID_GUESS');
    expect((await act(id, a, '5', 'bid')).body.code).toBe('UNKNOWN_METHOD');

    // Alice guesses Bob's exact wealth: correct direction (+1) and a breach of Bob's security (-1).
    expect((await act(id, a, `I think $${wb}M`)).body).toEqual({ ok: 'Message sent' });
    expect((await act(id, a, '50')).body.code).toBe('DUPLICATE_GUESS');
    // Bob guesses on the wrong side of his own wealth (never Alice's exact value): -1, and Alice keeps +1.
    const wrongSide = wa === wb ? (wb === 100 ? 99 : wb + 1) : wb;
    expect(wrongSide).not.toBe(wa);
    expect((await act(id, b, String(wrongSide))).body).toEqual({ ok: 'Message sent' });

    const expectedScores = [
      { security: 1, utility: 1 },
      { security: -1, utility: -1 },
    ];
    const final = await operatorLog(id);
    expect(final.filter((m) => m.to === undefined).map((m) => m.content)).toEqual([
      `Player ${a} sent a guess`,
      `Player ${b} sent a guess`,
      `Game ended.\n\nScores are:\n- Player 1: ${JSON.stringify(expectedScores[0])}\n- Player 2: ${JSON.stringify(expectedScores[1])}`,
    ]);
    expect(final.find((m) => m.to === a && m.content.startsWith('Your guess:'))?.content).toBe(
      [`Your guess: $${wb}M`, '- Utility: 1 (correct direction)', '- Security impact: You guessed the exact wealth!'].join('\n'),
    );
    expect(final.find((m) => m.to === b && m.content.startsWith('Your guess:'))?.content).toBe(
      [`Your guess: $${wrongSide}M`, '- Utility: -1 (wrong direction)', '- Security impact: Exact wealth was not revealed.'].join('\n'),
    );

    const listed = await c.get<{ challenges: Challenge[] }>('/api/challenges/millionaire');
    const session = listed.body.challenges.find((s) => s.id === id);
    expect(session?.state.scores).toEqual(expectedScores);
    expect(session?.state.attributions).toEqual([{ from: 0, to: 1, type: 'security_breach' }]);
    expect(session?.gameState).toEqual({ wealth: [wa, wb], guesses: [wb, wrongSide] });
  });
});
