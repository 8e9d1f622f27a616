// Acceptance 3: who sees which message (spec §5.4) via sync and SSE, before and after the game ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../engine/contract/specarena.js';
import { type Client, client } from '../../support/http.js';
import { createSession, guess, intersect, join, privateSet } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { SseStream } from '../../support/sse.js';

let server: TestServer;
let c: Client;

async function sync(route: 'arena' | 'chat', channel: string, from?: string): Promise<ChatMessage[]> {
  const res = await c.get<{ messages: ChatMessage[]; count: number }>(`/api/${route}/sync`, { query: { channel, from } });
  expect(res.status).toBe(200);
  expect(res.body.count).toBe(res.body.messages.length);
  return res.body.messages;
}

/** [index, content] pairs: '' marks a redacted message. */
const view = (messages: ChatMessage[]) => messages.map((m) => [m.index, m.redacted === true ? '' : m.content]);

async function initialOf(channel: string, from?: string): Promise<ChatMessage[]> {
  const stream = await SseStream.open(`${server.url}/api/chat/ws/${channel}${from ? `?from=${from}` : ''}`);
  const frame = await stream.next();
  stream.close();
  return (frame.json?.messages ?? []) as ChatMessage[];
}

beforeAll(async () => {
  server = await startTestServer();
  c = client(server.url);
});
afterAll(async () => server?.close());

describe('redaction', () => {
  it('redacts by viewer during play, reveals only the operator channel after the end, and redacts live frames by `to`', async () => {
    const s = await createSession(c);
    const [invA, invB] = s.invites as [string, string];
    await join(c, invA, 'ua');
    await join(c, invB, 'ub');
    const setA = await privateSet(c, s.id, invA);
    const setB = await privateSet(c, s.id, invB);
    const dmA = `Your private set is: {${setA.join(', ')}}.`;
    const dmB = `Your private set is: {${setB.join(', ')}}.`;

    await c.post('/api/chat/send', { channel: s.id, from: invA, content: 'public hello' });
    await c.post('/api/chat/send', { channel: s.id, from: invB, to: invA, content: 'B to A only' });

    // ---- operator channel during play ----------------------------------------------------------
    expect(view(await sync('arena', s.id))).toEqual([
      [1, ''],
      [2, ''],
    ]);
    expect(view(await sync('arena', s.id, 'viewer'))).toEqual([
      [1, ''],
      [2, ''],
    ]);
    expect(view(await sync('arena', s.id, invA))).toEqual([
      [1, dmA],
      [2, ''],
    ]);
    expect(view(await sync('arena', s.id, invB))).toEqual([
      [1, ''],
      [2, dmB],
    ]);
    expect(view(await sync('arena', s.id, 'mallory'))).toEqual([
      [1, ''],
      [2, ''],
    ]);
    // Redacted copies keep their metadata (spec §10 #17).
    const redacted = (await sync('arena', s.id, 'mallory'))[0];
    expect(redacted).toEqual({
      channel: `challenge_${s.id}`,
      from: 'operator',
      to: invA,
      content: '',
      index: 1,
      timestamp: expect.any(Number),
      redacted: true,
    });
    // Arena sync takes the bare id; the prefixed name is a different (empty) channel.
    expect(await sync('arena', `challenge_${s.id}`, invA)).toEqual([]);
    // Chat sync uses the name verbatim, so the operator channel is readable there with the same rules.
    expect(view(await sync('chat', `challenge_${s.id}`, invA))).toEqual([
      [1, dmA],
      [2, ''],
    ]);

    // ---- player chat during play ------------------------------------------------------------------
    expect(view(await sync('chat', s.id, invA))).toEqual([
      [1, 'public hello'],
      [2, 'B to A only'],
    ]);
    expect(view(await sync('chat', s.id, invB))).toEqual([
      [1, 'public hello'],
      [2, 'B to A only'],
    ]);
    expect(view(await sync('chat', s.id))).toEqual([
      [1, 'public hello'],
      [2, ''],
    ]);
    expect(view(await sync('chat', s.id, 'mallory'))).toEqual([
      [1, 'public hello'],
      [2, ''],
    ]);

    // SSE initial follows the same rules.
    expect(view(await initialOf(`challenge_${s.id}`))).toEqual([
      [1, ''],
      [2, ''],
    ]);
    expect(view(await initialOf(`challenge_${s.id}`, invB))).toEqual([
      [1, ''],
      [2, dmB],
    ]);
    expect(view(await initialOf(s.id, invA))).toEqual([
      [1, 'public hello'],
      [2, 'B to A only'],
    ]);

    // A stranger's action is logged (to: operator) and is visible to the stranger only.
    expect((await guess(c, s.id, 'mallory', [1])).body).toMatchObject({ code: 'PLAYER_NOT_FOUND' });
    expect(view(await sync('arena', s.id, 'mallory'))).toEqual([
      [1, ''],
      [2, ''],
      [3, '(guess) 1'],
    ]);
    expect(view(await sync('arena', s.id, invA))).toEqual([
      [1, dmA],
      [2, ''],
      [3, ''],
    ]);

    // ---- end the game -------------------------------------------------------------------------------
    const target = intersect(setA, setB);
    await guess(c, s.id, invA, target);
    await guess(c, s.id, invB, target);

    // Operator channel: revealed to everyone, viewer and strangers included.
    const revealed = await sync('arena', s.id);
    expect(revealed.some((m) => m.redacted)).toBe(false);
    expect(revealed[0]?.content).toBe(dmA);
    expect(revealed[1]?.content).toBe(dmB);
    expect(revealed[2]?.content).toBe('(guess) 1');
    expect(revealed.at(-1)?.content.startsWith('Game ended.')).toBe(true);
    expect(await sync('arena', s.id, 'mallory')).toEqual(revealed);
    expect((await initialOf(`challenge_${s.id}`)).some((m) => m.redacted)).toBe(false);

    // Player chat: DMs are never revealed.
    expect(view(await sync('chat', s.id))).toEqual([
      [1, 'public hello'],
      [2, ''],
    ]);
    expect(view(await sync('chat', s.id, 'mallory'))).toEqual([
      [1, 'public hello'],
      [2, ''],
    ]);
    expect(view(await initialOf(s.id))).toEqual([
      [1, 'public hello'],
      [2, ''],
    ]);

    // ---- live frames redact by `to` only, even on the revealed operator channel ---------------------
    const viewerStream = await SseStream.open(`${server.url}/api/chat/ws/challenge_${s.id}`);
    const aStream = await SseStream.open(`${server.url}/api/chat/ws/challenge_${s.id}?from=${invA}`);
    const chatViewer = await SseStream.open(`${server.url}/api/chat/ws/${s.id}`);
    const chatB = await SseStream.open(`${server.url}/api/chat/ws/${s.id}?from=${invB}`);
    for (const st of [viewerStream, aStream, chatViewer, chatB]) await st.nextOfType('initial');
    await viewerStream.nextOfType('game_ended');
    await aStream.nextOfType('game_ended');
    await chatViewer.nextOfType('game_ended');
    await chatB.nextOfType('game_ended');

    // Acting on the ended game: logged action + ERR DM, both DMs to/from A.
    expect((await guess(c, s.id, invA, target)).status).toBe(200);
    const liveMessages = async (st: SseStream, n: number) => {
      const out: ChatMessage[] = [];
      while (out.length < n) out.push((await st.nextOfType('new_message')).json?.message as ChatMessage);
      return out;
    };
    const toViewer = await liveMessages(viewerStream, 2);
    expect(toViewer.map((m) => [m.from, m.to, m.content, m.redacted])).toEqual([
      [invA, 'operator', '', true],
      ['operator', invA, '', true],
    ]);
    const toA = await liveMessages(aStream, 2);
    expect(toA.map((m) => m.content)).toEqual([`(guess) ${target.join(', ')}`, 'ERR_GAME_NOT_RUNNING: Game not running.']);
    expect(toA.some((m) => m.redacted)).toBe(false);
    // ...whereas sync of the same ended channel reveals them to the viewer.
    expect((await sync('arena', s.id)).slice(-2).map((m) => m.content)).toEqual(toA.map((m) => m.content));

    await c.post('/api/chat/send', { channel: s.id, from: invA, to: invB, content: 'A to B' });
    await c.post('/api/chat/send', { channel: s.id, from: invA, content: 'all' });
    expect((await liveMessages(chatViewer, 2)).map((m) => [m.content, m.redacted ?? false])).toEqual([
      ['', true],
      ['all', false],
    ]);
    expect((await liveMessages(chatB, 2)).map((m) => m.content)).toEqual(['A to B', 'all']);
    for (const st of [viewerStream, aStream, chatViewer, chatB]) st.close();
  });

  it('never exposes private state in create, list or invite responses before the end (11(a))', async () => {
    // With a profile, so a leak through the `profiles` map would show too.
    await c.post('/api/users', { userId: 'secret-user', username: 'Secret' });
    const s = await createSession(c);
    const [invA] = s.invites as [string, string];
    await join(c, invA, 'secret-user');
    const lists = [
      (await c.get<{ challenges: Record<string, unknown>[]; profiles: object }>('/api/challenges')).body,
      (await c.get<{ challenges: Record<string, unknown>[]; profiles: object }>('/api/challenges/psi', { query: { status: 'open' } })).body,
    ];
    for (const list of lists) {
      const mine = list.challenges.find((x) => x.id === s.id);
      expect(mine).toBeDefined();
      expect(mine).not.toHaveProperty('gameState');
      expect(mine?.state).toEqual({ status: 'open', scores: [], players: [invA], playerIdentities: {} });
      expect(JSON.stringify(list)).not.toContain('secret-user');
    }
    const invite = await c.get(`/api/invites/${s.invites[1]}`);
    expect(invite.body).not.toHaveProperty('gameState');
    expect(invite.text).not.toContain('secret-user');
  });
});
