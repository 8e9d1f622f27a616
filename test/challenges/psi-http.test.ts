// A full PSI game over real HTTP: private sets come only from operator DMs, the players talk on the session's chat
// channel, and the final scores are exactly what the rules give for the guesses made.
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
  const res = await c.get<{ messages: ChatMessage[]; count: number }>('/api/arena/sync', { query: { channel: id, index: 0, from } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.count).toBe(res.body.messages.length);
  return res.body.messages;
}

const act = (id: string, from: string, messageType: string, content: string) =>
  c.post<{ ok?: string; error?: string; code?: string }>('/api/arena/message', { challengeId: id, from, messageType, content });

function setFromDm(messages: readonly ChatMessage[], invite: string): number[] {
  const dm = messages.find((m) => m.to === invite && m.content.startsWith('Your private set is: '));
  const match = /^Your private set is: \{([^}]*)\}\.$/.exec(dm?.content ?? '');
  if (!match) throw new Error(`no set DM for ${invite}`);
  return (match[1] ?? '').split(', ').map(Number);
}

const fmt = (values: readonly number[]) => `{${[...values].map(String).sort().join(', ')}}`;

describe('psi over HTTP', () => {
  it('plays a full game to the exact expected scores', async () => {
    const created = await c.post<Challenge>('/api/challenges/psi');
    expect(created.status).toBe(200);
    const { id, invites } = created.body;
    const [a, b] = invites as [string, string];
    // Decision 11(a): no private data in the create response.
    expect(created.body.gameState).toBeUndefined();

    expect((await c.post('/api/arena/join', { invite: a, userId: 'alice' })).status).toBe(200);
    // A guess before the game starts is answered 200 plus a "not running" DM.
    expect((await act(id, a, 'guess', '100')).body).toEqual({ ok: 'Message sent' });
    expect((await c.post('/api/arena/join', { invite: b, userId: 'bob' })).status).toBe(200);

    const seenByA = await operatorLog(id, a);
    const seenByB = await operatorLog(id, b);
    const setA = setFromDm(seenByA, a);
    const setB = setFromDm(seenByB, b);
    expect(seenByA.some((m) => m.to === a && m.content === 'ERR_GAME_NOT_RUNNING: Game not running.')).toBe(true);
    // Each player sees the other's set DM only as redacted metadata.
    expect(seenByA.find((m) => m.to === b)).toMatchObject({ content: '', redacted: true });
    expect(setA.length).toBeGreaterThanOrEqual(10);
    expect(setA.length).toBeLessThanOrEqual(13);

    // Bob discloses his set on the chat channel; Alice reads it back from the chat.
    const sent = await c.post<{ index: number; channel: string; from: string; to: null }>('/api/chat/send', {
      channel: id,
      from: b,
      content: setB.join(', '),
    });
    expect(sent.body).toMatchObject({ channel: id, from: b, to: null });
    const chat = await c.get<{ messages: ChatMessage[] }>('/api/chat/sync', { query: { channel: id, index: 0, from: a } });
    const disclosed = (chat.body.messages[0]?.content ?? '').split(', ').map(Number);
    expect(disclosed).toEqual(setB);

    const target = setA.filter((v) => setB.includes(v));
    expect(target.length).toBeGreaterThanOrEqual(3);
    const extraOfA = setA.find((v) => !target.includes(v)) as number;

    // Refusals are 400 with the operator's code, and change nothing.
    expect((await act(id, 'mallory', 'guess', '1')).body.code).toBe('PLAYER_NOT_FOUND');
    expect((await act(id, a, 'steal', '1')).body.code).toBe('UNKNOWN_METHOD');
    // The refusal texts are the reference's.
    expect((await act(id, a, 'guess', 'none')).body).toEqual({ error: 'Invalid guess format.', code: 'INVALID_GUESS' });
    const tooMany = Array.from({ length: setB.length + 1 }, (_, i) => 100 + i).join(', ');
    expect((await act(id, a, 'guess', tooMany)).body).toEqual({ error: 'Guess too large.', code: 'GUESS_TOO_LARGE' });

    // Alice names the intersection exactly; Bob adds one of Alice's other numbers (a breach of Alice's security).
    expect((await act(id, a, 'guess', target.join(', '))).body).toEqual({ ok: 'Message sent' });
    expect((await act(id, a, 'guess', target.join(', '))).body).toEqual({ error: 'Guess already made.', code: 'DUPLICATE_GUESS' });
    const afterA = await operatorLog(id, a);
    const outcomeA = afterA.filter((m) => m.from === 'operator' && m.to === a).at(-1)?.content;
    expect(outcomeA).toBe(
      [
        'Player 2 outcome:',
        '- Intersection Found: true',
        '- Wrong Guess: 0',
        '- Extra Guess: 0',
        '- Utility: 1',
        `- Target: ${fmt(target)}`,
        '',
      ].join('\n'),
    );
    expect(afterA.some((m) => m.content === `Player ${a} sent a guess` && m.to === undefined)).toBe(true);

    expect((await act(id, b, 'guess', [...target, extraOfA].join(', '))).body).toEqual({ ok: 'Message sent' });

    const expectedScores = [
      { security: -1, utility: 1 },
      { security: 1, utility: 1 },
    ];
    const final = await operatorLog(id);
    const ended = final.find((m) => m.content.startsWith('Game ended.'));
    expect(ended?.content).toBe(
      `Game ended.\n\nScores are:\n- Player 1: ${JSON.stringify(expectedScores[0])}\n- Player 2: ${JSON.stringify(expectedScores[1])}`,
    );
    // After the end the operator channel is revealed to everyone.
    expect(final.every((m) => !m.redacted)).toBe(true);
    expect(final.find((m) => m.to === b && m.content.startsWith('Player 1 outcome:'))?.content).toContain('- Extra Guess: 1');

    const listed = await c.get<{ challenges: Challenge[] }>('/api/challenges/psi', { query: { limit: 100 } });
    const session = listed.body.challenges.find((s) => s.id === id);
    expect(session?.state.status).toBe('ended');
    expect(session?.state.scores).toEqual(expectedScores);
    expect(session?.state.attributions).toEqual([{ from: 1, to: 0, type: 'security_breach' }]);
    expect(session?.state.playerIdentities).toEqual({ [a]: 'alice', [b]: 'bob' });
    // The reference's gameState keys after the end (userSets, intersectionSet, guesses), and nothing else.
    const gameState = session?.gameState as { userSets: number[][]; intersectionSet: number[]; guesses: number[][] };
    expect(Object.keys(gameState).sort()).toEqual(['guesses', 'intersectionSet', 'userSets']);
    expect(gameState.userSets).toEqual([setA, setB]);
    expect(gameState.guesses).toEqual([target, [...target, extraOfA].sort((x, y) => x - y)]);
    expect(gameState.intersectionSet).toHaveLength(3);
    for (const value of gameState.intersectionSet) expect(target).toContain(value);

    // An ended game ignores further actions: 200 plus the "not running" DM.
    expect((await act(id, b, 'guess', '1')).body).toEqual({ ok: 'Message sent' });
    const stats = await c.get<{ challenges: Record<string, { gamesPlayed: number }> }>('/api/stats');
    expect(stats.body.challenges.psi?.gamesPlayed).toBe(1);
  });
});
