// Acceptance 2: the SSE stream /api/chat/ws/:channel (spec §3.7, decision 11(e)) read as raw frames over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../engine/contract/specarena.js';
import { type Client, client } from '../../support/http.js';
import { createSession, guess, intersect, join, privateSet } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { type SseFrame, SseStream } from '../../support/sse.js';

let server: TestServer;
let c: Client;
const open: SseStream[] = [];

async function subscribe(channel: string, query: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<SseStream> {
  const qs = new URLSearchParams(query).toString();
  const stream = await SseStream.open(`${server.url}/api/chat/ws/${encodeURIComponent(channel)}${qs ? `?${qs}` : ''}`, headers);
  open.push(stream);
  return stream;
}

const messagesOf = (frame: SseFrame) => (frame.json?.messages ?? []) as ChatMessage[];

async function activeGame() {
  const s = await createSession(c);
  const [invA, invB] = s.invites as [string, string];
  await join(c, invA, 'alice');
  await join(c, invB, 'bob');
  const target = intersect(await privateSet(c, s.id, invA), await privateSet(c, s.id, invB));
  return { id: s.id, invA, invB, target };
}

beforeAll(async () => {
  server = await startTestServer({ pingIntervalMs: 100 });
  c = client(server.url);
  await c.post('/api/users', { userId: 'alice', username: 'Alice' });
});
afterAll(async () => {
  for (const s of open) s.close();
  await server?.close();
});

describe('SSE /api/chat/ws/:channel', () => {
  it('sends the spec headers and an initial frame whose id is the highest index, data line first', async () => {
    const g = await activeGame();
    const stream = await subscribe(`challenge_${g.id}`, { from: g.invA });
    expect(stream.status).toBe(200);
    expect(
      Object.fromEntries(
        [
          'content-type',
          'cache-control',
          'connection',
          'x-accel-buffering',
          'x-content-type-options',
          'access-control-allow-origin',
          'access-control-allow-methods',
          'access-control-allow-headers',
        ].map((h) => [h, stream.headers.get(h)]),
      ),
    ).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'Cache-Control, Last-Event-ID',
    });
    const initial = await stream.next();
    expect(initial.json?.type).toBe('initial');
    expect(initial.lines).toHaveLength(2);
    expect(initial.lines[0]?.startsWith('data: {"type":"initial"')).toBe(true);
    expect(initial.lines[1]).toBe('id: 2');
    const messages = messagesOf(initial);
    expect(messages.map((m) => m.index)).toEqual([1, 2]);
    // The viewer (?from=invA) sees its own DM in full and the other one redacted.
    expect(messages[0]?.content).toMatch(/^Your private set is:/);
    expect(messages[1]).toMatchObject({ to: g.invB, content: '', redacted: true });

    // An empty channel: an initial frame without an id line.
    const empty = await subscribe(g.id);
    const first = await empty.next();
    expect(first.json).toEqual({ type: 'initial', messages: [] });
    expect(first.lines).toEqual(['data: {"type":"initial","messages":[]}']);
  });

  it('streams new_message, then game_ended to both channels after "Game ended.", and stays open', async () => {
    const g = await activeGame();
    const ops = await subscribe(`challenge_${g.id}`);
    const chat = await subscribe(g.id);
    expect((await ops.next()).json?.type).toBe('initial');
    expect((await chat.next()).json?.type).toBe('initial');

    const sent = await c.post<{ index: number }>('/api/chat/send', { channel: g.id, from: g.invA, content: 'hi' });
    const live = await chat.next();
    expect(live.json).toEqual({
      type: 'new_message',
      message: expect.objectContaining({ channel: g.id, from: g.invA, content: 'hi', index: 1 }),
    });
    expect(live.id).toBe(String(sent.body.index));
    expect(live.lines[0]?.startsWith('data: ')).toBe(true);

    await guess(c, g.id, g.invA, g.target);
    await guess(c, g.id, g.invB, g.target);

    // Operator channel: the logged actions and operator messages in index order, "Game ended." last, then game_ended.
    const seen: SseFrame[] = [];
    for (;;) {
      const frame = await ops.next();
      seen.push(frame);
      if (frame.json?.type === 'game_ended') break;
    }
    const newMessages = seen.slice(0, -1);
    expect(newMessages.every((f) => f.json?.type === 'new_message')).toBe(true);
    expect(newMessages.map((f) => Number(f.id))).toEqual([3, 4, 5, 6, 7, 8, 9]);
    const lastMessage = newMessages.at(-1)?.json?.message as ChatMessage;
    expect(lastMessage.content.startsWith('Game ended.')).toBe(true);
    const ended = seen.at(-1) as SseFrame;
    expect(ended.id).toBeUndefined();
    expect(ended.lines).toHaveLength(1);
    const data = ended.json?.data as Record<string, unknown>;
    expect(data).not.toHaveProperty('profiles');
    expect(data).toMatchObject({
      status: 'ended',
      players: [g.invA, g.invB],
      playerIdentities: { [g.invA]: 'alice', [g.invB]: 'bob' },
      scores: [
        { security: 1, utility: 1 },
        { security: 1, utility: 1 },
      ],
    });

    // The chat channel gets the same game_ended (it carried no operator messages).
    const chatEnded = await chat.next();
    expect(chatEnded.json?.type).toBe('game_ended');
    expect(chatEnded.json?.data).toEqual(data);

    // Both streams stay open.
    await c.post('/api/chat/send', { channel: g.id, from: g.invB, content: 'gg' });
    expect((await chat.next()).json?.message).toMatchObject({ content: 'gg', index: 2 });
    expect(chat.closed).toBe(false);
    expect(ops.closed).toBe(false);

    // Keep-alive comments carry no id line.
    const ping = await ops.next(2000, true);
    expect(ping.lines).toEqual([': ping']);
    expect(ping.id).toBeUndefined();
  });

  it('replays game_ended with profiles right after initial to a late subscriber of either channel', async () => {
    const g = await activeGame();
    await guess(c, g.id, g.invA, g.target);
    await guess(c, g.id, g.invB, g.target);
    for (const channel of [g.id, `challenge_${g.id}`]) {
      const late = await subscribe(channel);
      const initial = await late.next();
      expect(initial.json?.type).toBe('initial');
      const replay = await late.next();
      expect(replay.json?.type).toBe('game_ended');
      expect(replay.id).toBeUndefined();
      expect(replay.json?.data).toMatchObject({
        status: 'ended',
        playerIdentities: { [g.invA]: 'alice', [g.invB]: 'bob' },
        profiles: { alice: { userId: 'alice', username: 'Alice' } },
      });
      expect(Object.keys((replay.json?.data as { profiles?: object } | undefined)?.profiles ?? {})).toEqual(['alice']);
    }
    // With a cursor past the end: an empty initial, still followed by the replay.
    const resumed = await subscribe(`challenge_${g.id}`, { since: '1000' });
    expect((await resumed.next()).json).toEqual({ type: 'initial', messages: [] });
    expect((await resumed.next()).json?.type).toBe('game_ended');
  });

  it('resumes after Last-Event-ID or ?since= (the larger wins; invalid values ignored)', async () => {
    const s = await createSession(c);
    const channel = s.id;
    for (let i = 1; i <= 5; i++) await c.post('/api/chat/send', { channel, from: 'p', content: `m${i}` });
    const indicesOf = async (query: Record<string, string>, headers: Record<string, string> = {}) => {
      const stream = await subscribe(channel, query, headers);
      const initial = await stream.next();
      stream.close();
      return { indices: messagesOf(initial).map((m) => m.index), id: initial.id };
    };
    expect(await indicesOf({}, { 'last-event-id': '3' })).toEqual({ indices: [4, 5], id: '5' });
    expect(await indicesOf({ since: '2' })).toEqual({ indices: [3, 4, 5], id: '5' });
    expect(await indicesOf({ since: '2' }, { 'last-event-id': '4' })).toEqual({ indices: [5], id: '5' });
    expect(await indicesOf({ since: '4' }, { 'last-event-id': '2' })).toEqual({ indices: [5], id: '5' });
    expect(await indicesOf({ since: 'abc' }, { 'last-event-id': '-1' })).toEqual({ indices: [1, 2, 3, 4, 5], id: '5' });
    expect(await indicesOf({ since: '1.5' })).toEqual({ indices: [1, 2, 3, 4, 5], id: '5' });
    expect(await indicesOf({ since: '5' })).toEqual({ indices: [], id: undefined });

    // Live frames after a resume continue the same index sequence.
    const stream = await subscribe(channel, {}, { 'last-event-id': '5' });
    expect(messagesOf(await stream.next())).toEqual([]);
    await c.post('/api/chat/send', { channel, from: 'p', content: 'm6' });
    const next = await stream.next();
    expect(next.id).toBe('6');
    expect(next.json?.message).toMatchObject({ content: 'm6', index: 6 });
  });

  it('unsubscribes a client that disconnects', async () => {
    const live = server.engine.engine.live;
    const before = live.subscriberCount();
    const s = await createSession(c);
    const streams = await Promise.all([subscribe(s.id), subscribe(`challenge_${s.id}`), subscribe(s.id)]);
    for (const stream of streams) await stream.next();
    expect(live.subscriberCount()).toBe(before + 3);
    for (const stream of streams) stream.close();
    const deadline = Date.now() + 3000;
    while (live.subscriberCount() !== before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(live.subscriberCount()).toBe(before);
  });
});
