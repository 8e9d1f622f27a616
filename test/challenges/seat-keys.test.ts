// Seat keys: a session created by the admin route with seatKeys:true is playable only with its keys. A key for seat A
// acts as A whatever `from` says, cannot read B's DMs, and is worthless for any other session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../engine/contract/specarena.js';
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

const AUTH_REQUIRED = { error: 'Authentication required' };
const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

interface SeatSession {
  id: string;
  invites: string[];
  keys: string[];
}

async function seatKeySession(challengeType = 'psi', seatKeys = true): Promise<SeatSession> {
  const res = await c.post<{ session: { id: string; invites: string[] }; seatKeys?: string[] }>(
    '/admin/api/v1/sessions',
    { challengeType, seatKeys },
    bearer(server.token),
  );
  expect(res.status, res.text).toBe(200);
  return { id: res.body.session.id, invites: res.body.session.invites, keys: res.body.seatKeys ?? [] };
}

async function joinedSession(): Promise<SeatSession & { a: string; b: string; keyA: string; keyB: string }> {
  const s = await seatKeySession();
  const [a, b] = s.invites as [string, string];
  const [keyA, keyB] = s.keys as [string, string];
  expect((await c.post('/api/arena/join', { invite: a }, bearer(keyA))).status).toBe(200);
  expect((await c.post('/api/arena/join', { invite: b }, bearer(keyB))).status).toBe(200);
  return { ...s, a, b, keyA, keyB };
}

const operatorSync = (id: string, options: Parameters<Client['get']>[1] = {}) =>
  c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { ...options, query: { channel: id, index: 0, ...options.query } });

describe('seat-key sessions', () => {
  it('issues one key per invite', async () => {
    const s = await seatKeySession();
    expect(s.keys).toHaveLength(2);
    expect(new Set(s.keys).size).toBe(2);
  });

  it('refuses a join without the seat key, with the wrong seat key or with a plain from claim', async () => {
    const s = await seatKeySession();
    const [a] = s.invites as [string];
    const [keyA, keyB] = s.keys as [string, string];
    for (const res of [
      await c.post('/api/arena/join', { invite: a }),
      await c.post('/api/arena/join', { invite: a, from: a }),
      await c.post('/api/arena/join', { invite: a }, bearer(keyB)),
      // A forged key: the last hex digit changed (to a different digit, so this never equals the real key).
      await c.post('/api/arena/join', { invite: a }, bearer(`${keyA.slice(0, -1)}${keyA.endsWith('0') ? '1' : '0'}`)),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(AUTH_REQUIRED);
    }
    const joined = await c.post<{ ChallengeID: string }>('/api/arena/join', { invite: a }, bearer(keyA));
    expect(joined.status).toBe(200);
    expect(joined.body.ChallengeID).toBe(s.id);
  });

  it('acts as seat A with key A whatever `from` says', async () => {
    const s = await joinedSession();
    const res = await c.post(
      '/api/arena/message',
      { challengeId: s.id, from: s.b, messageType: 'guess', content: '100, 200' },
      bearer(s.keyA),
    );
    expect(res.status, res.text).toBe(200);
    const log = (await operatorSync(s.id, bearer(s.keyA))).body.messages;
    // The action is logged as A's, and the outcome DM goes to A.
    expect(log.find((m) => m.to === 'operator')).toMatchObject({ from: s.a, content: '(guess) 100, 200' });
    expect(log.some((m) => m.content === `Player ${s.a} sent a guess`)).toBe(true);
    expect(log.find((m) => m.from === 'operator' && m.to === s.a && m.content.startsWith('Player 2 outcome:'))).toBeDefined();
    // B has not guessed: B can still guess once.
    const asB = await c.post('/api/arena/message', { challengeId: s.id, messageType: 'guess', content: '300' }, bearer(s.keyB));
    expect(asB.status, asB.text).toBe(200);

    const chat = await c.post<{ from: string }>('/api/chat/send', { channel: s.id, from: s.b, content: 'hello' }, bearer(s.keyA));
    expect(chat.body.from).toBe(s.a);
  });

  it('refuses a key of another session', async () => {
    const s = await joinedSession();
    const other = await seatKeySession();
    for (const res of [
      await c.post('/api/arena/message', { challengeId: s.id, messageType: 'guess', content: '100' }, bearer(other.keys[0] as string)),
      await operatorSync(s.id, bearer(other.keys[0] as string)),
      await c.post('/api/chat/send', { channel: s.id, content: 'hi' }, bearer(other.keys[0] as string)),
      // Key A names its own session only: another channel is refused too.
      await c.post('/api/chat/send', { channel: 'lobby', content: 'hi' }, bearer(s.keyA)),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(AUTH_REQUIRED);
    }
  });

  it('refuses plain `from` claims that name a seat of the session', async () => {
    const s = await joinedSession();
    for (const res of [
      await c.post('/api/arena/message', { challengeId: s.id, from: s.b, messageType: 'guess', content: '100' }),
      await c.post('/api/chat/send', { channel: s.id, from: s.b, content: 'I am B' }),
      await operatorSync(s.id, { query: { from: s.b } }),
      await c.get('/api/chat/sync', { query: { channel: s.id, from: s.b } }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(AUTH_REQUIRED);
    }
    // Nothing was logged for B.
    const log = (await operatorSync(s.id, bearer(s.keyB))).body.messages;
    expect(log.filter((m) => m.to === 'operator')).toEqual([]);
  });

  it("shows seat B's DMs redacted to key A", async () => {
    const s = await joinedSession();
    const log = (await operatorSync(s.id, { ...bearer(s.keyA), query: { from: s.b } })).body.messages;
    const toA = log.find((m) => m.to === s.a);
    const toB = log.find((m) => m.to === s.b);
    expect(toA?.content).toMatch(/^Your private set is: \{/);
    expect(toB).toMatchObject({ from: 'operator', to: s.b, content: '', redacted: true });
    // A viewer without identity sees both redacted.
    const anonymous = (await operatorSync(s.id)).body.messages;
    expect(anonymous.filter((m) => m.to !== undefined).every((m) => m.redacted === true)).toBe(true);
    // DMs on the player chat stay private too.
    await c.post('/api/chat/send', { channel: s.id, content: 'secret for B', to: s.b }, bearer(s.keyB));
    const chat = await c.get<{ messages: ChatMessage[] }>('/api/chat/sync', { query: { channel: s.id }, ...bearer(s.keyA) });
    expect(chat.body.messages.at(-1)).toMatchObject({ to: s.b, content: '', redacted: true });
  });

  it('keeps plain `from` play for sessions created without seat keys', async () => {
    const s = await seatKeySession('psi', false);
    expect(s.keys).toEqual([]);
    const [a, b] = s.invites as [string, string];
    expect((await c.post('/api/arena/join', { invite: a })).status).toBe(200);
    expect((await c.post('/api/arena/join', { invite: b })).status).toBe(200);
    const res = await c.post('/api/arena/message', { challengeId: s.id, from: b, messageType: 'guess', content: '100' });
    expect(res.status, res.text).toBe(200);
    const pub = await c.post<{ id: string; invites: string[] }>('/api/challenges/psi');
    expect((await c.post('/api/arena/join', { invite: pub.body.invites[0] })).status).toBe(200);
  });
});
