// Acceptance 7: bad input on every route is a 4xx JSON error with the reference's exact wording, never a 5xx,
// and leaves the arena exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage } from '../../../engine/contract/specarena.js';
import { type Client, client, type HttpResult } from '../../support/http.js';
import { type CreatedSession, createSession, guess, intersect, join, privateSet } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let c: Client;
/** open: one invite used, one free. active: both joined. ended: played out. */
let open: CreatedSession;
let active: CreatedSession;
let ended: CreatedSession;

const NOT_FOUND = { error: 'Not Found', code: 'NOT_FOUND' };
const ERR_DM = 'ERR_GAME_NOT_RUNNING: Game not running.';

/** Everything a client can observe: lists, every channel as every party, users, scores, stats. */
async function snapshot(): Promise<unknown> {
  const get = async (path: string, query?: Record<string, string>) => (await c.get(path, { query })).body;
  const ids = [open.id, active.id, ended.id];
  const parties = ['viewer', ...open.invites, ...active.invites, ...ended.invites];
  const channels: unknown[] = [];
  for (const id of ids) {
    for (const from of parties) {
      channels.push(await get('/api/arena/sync', { channel: id, from }), await get('/api/chat/sync', { channel: id, from }));
    }
  }
  return {
    list: await get('/api/challenges', { limit: '100' }),
    ended: await get('/api/challenges', { status: 'ended' }),
    channels,
    invites: await get('/api/chat/sync', { channel: 'invites' }),
    users: await get('/api/users'),
    scoring: await get('/api/scoring'),
    psi: await get('/api/scoring/psi'),
    stats: await get('/api/stats'),
  };
}

function expectJsonError(res: HttpResult, status: number, body: unknown, label: unknown): void {
  expect({ label, status: res.status, body: res.body }).toEqual({ label, status, body });
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
}

beforeAll(async () => {
  server = await startTestServer();
  c = client(server.url);
  await c.post('/api/users', { userId: 'u1', username: 'One' });
  open = await createSession(c);
  await join(c, open.invites[0] as string, 'u1');
  active = await createSession(c);
  await join(c, active.invites[0] as string, 'u1');
  await join(c, active.invites[1] as string, 'u2');
  ended = await createSession(c);
  const [a, b] = ended.invites as [string, string];
  await join(c, a, 'u1');
  await join(c, b, 'u3');
  const target = intersect(await privateSet(c, ended.id, a), await privateSet(c, ended.id, b));
  await guess(c, ended.id, a, target);
  await guess(c, ended.id, b, target);
  await c.post('/api/chat/send', { channel: active.id, from: active.invites[0], to: active.invites[1], content: 'dm' });
});
afterAll(async () => server?.close());

describe('bad input leaves state unchanged', () => {
  it('answers every malformed request with the exact 4xx JSON error', async () => {
    const usedInvite = open.invites[0] as string;
    const freeInvite = open.invites[1] as string;
    const player = active.invites[0] as string;
    const before = await snapshot();

    type Case = [method: string, path: string, body: unknown, status: number, error: unknown];
    const invalidJson = { error: 'Invalid JSON in request body' };
    const bodyRoutes = ['/api/arena/join', '/api/arena/message', '/api/chat/send', '/api/invites', '/api/users', '/api/v1/chat/send'];
    const cases: Case[] = [];
    for (const path of bodyRoutes) {
      // '' is the empty body; the rest are not JSON.
      for (const raw of ['', '{', 'not json', '{"a":1,}', "{'a':1}", '\u0000']) cases.push(['POST', path, raw, 400, invalidJson]);
    }
    const e = (error: string) => ({ error });
    cases.push(
      // join
      ['POST', '/api/arena/join', {}, 400, e('Required')],
      ['POST', '/api/arena/join', { invite: 5 }, 400, e('Expected string, received number')],
      ['POST', '/api/arena/join', { invite: null }, 400, e('Expected string, received null')],
      ['POST', '/api/arena/join', { invite: true }, 400, e('Expected string, received boolean')],
      ['POST', '/api/arena/join', { invite: freeInvite, userId: 7 }, 400, e('Expected string, received number')],
      ['POST', '/api/arena/join', { invite: [freeInvite] }, 400, e('Expected string, received array')],
      ['POST', '/api/arena/join', [], 400, e('Expected object, received array')],
      ['POST', '/api/arena/join', 'null', 400, e('Expected object, received null')],
      ['POST', '/api/arena/join', '"inv"', 400, e('Expected object, received string')],
      ['POST', '/api/arena/join', '42', 400, e('Expected object, received number')],
      ['POST', '/api/arena/join', { invite: 'inv_nope' }, 400, e('Challenge not found for invite: inv_nope')],
      [
        'POST',
        '/api/arena/join',
        { invite: usedInvite },
        400,
        { error: 'This invite has already been used.', code: 'INVITE_ALREADY_USED' },
      ],
      // arena message: validation, then identity, then the session
      ['POST', '/api/arena/message', {}, 400, e('Required')],
      ['POST', '/api/arena/message', { challengeId: active.id, from: player }, 400, e('Required')],
      ['POST', '/api/arena/message', { challengeId: active.id, content: 5, from: player }, 400, e('Expected string, received number')],
      ['POST', '/api/arena/message', { challengeId: 5, content: 'x', from: player }, 400, e('Expected string, received number')],
      [
        'POST',
        '/api/arena/message',
        { challengeId: active.id, content: 'x', messageType: 1, from: player },
        400,
        e('Expected string, received number'),
      ],
      ['POST', '/api/arena/message', { challengeId: active.id, content: 'x', from: 5 }, 400, e('Expected string, received number')],
      ['POST', '/api/arena/message', { challengeId: active.id, content: 'x' }, 400, e('from is required')],
      ['POST', '/api/arena/message', { challengeId: active.id, content: 'x', from: 'viewer' }, 400, e('from is required')],
      ['POST', '/api/arena/message', { challengeId: active.id, content: 'x', from: '' }, 400, e('from is required')],
      ['POST', '/api/arena/message', { challengeId: 'nope', content: 'x', from: player }, 400, e('Challenge not found')],
      // chat send
      ['POST', '/api/chat/send', {}, 400, e('Required')],
      ['POST', '/api/chat/send', { channel: active.id, content: 1, from: player }, 400, e('Expected string, received number')],
      ['POST', '/api/chat/send', { channel: [active.id], content: 'x', from: player }, 400, e('Expected string, received array')],
      ['POST', '/api/chat/send', { channel: active.id, content: 'x', to: 5, from: player }, 400, e('Expected string, received number')],
      ['POST', '/api/chat/send', { channel: active.id, content: 'x', to: {}, from: player }, 400, e('Expected string, received object')],
      // As the reference: a broadcast omits `to`; null is refused (MCP's send_chat accepts null).
      ['POST', '/api/chat/send', { channel: active.id, content: 'x', to: null, from: player }, 400, e('Expected string, received null')],
      ['POST', '/api/chat/send', { channel: active.id, content: 'x' }, 400, e('from is required')],
      ['POST', '/api/chat/send', { channel: active.id, content: 'x', from: 'viewer' }, 400, e('from is required')],
      // invites
      ['POST', '/api/invites', {}, 400, e('inviteId is required')],
      ['POST', '/api/invites', { inviteId: '' }, 400, e('inviteId is required')],
      ['POST', '/api/invites', { inviteId: null }, 400, e('inviteId is required')],
      ['POST', '/api/invites', { inviteId: 5 }, 400, e('Expected string, received number')],
      ['POST', '/api/invites', { inviteId: ['a'] }, 400, e('Expected string, received array')],
      ['POST', '/api/invites', { inviteId: 'inv_nope' }, 404, e('Challenge not found for invite: inv_nope')],
      ['POST', '/api/invites', { inviteId: usedInvite }, 409, e(`Invite already used: ${usedInvite}`)],
      ['GET', '/api/invites/inv_nope', undefined, 404, e('Challenge not found for invite: inv_nope')],
      ['GET', `/api/invites/${usedInvite}`, undefined, 409, e(`Invite already used: ${usedInvite}`)],
      // users
      ['POST', '/api/users', {}, 400, e('userId is required')],
      ['POST', '/api/users', { userId: '' }, 400, e('userId is required')],
      ['POST', '/api/users', { username: 'x', from: 'viewer' }, 400, e('userId is required')],
      ['POST', '/api/users', { userId: 5 }, 400, e('Expected string, received number')],
      ['POST', '/api/users', { userId: 'u1', username: 5 }, 400, e('Expected string, received number')],
      ['POST', '/api/users', { userId: 'u1', model: false }, 400, e('Expected string, received boolean')],
      ['GET', '/api/users/batch', undefined, 400, e('ids query parameter is required')],
      ['GET', '/api/users/nobody', undefined, 404, e('User not found')],
      // sync
      ['GET', '/api/arena/sync', undefined, 400, e('Required')],
      ['GET', '/api/chat/sync?index=1', undefined, 400, e('Required')],
      ['GET', '/api/v1/chat/sync?channel=a&channel=b', undefined, 400, e('Expected string, received array')],
      // types, metadata, scoring
      ['POST', '/api/challenges/nope', undefined, 400, e('Unknown challenge type: nope')],
      ['POST', '/api/challenges/__proto__', {}, 400, e('Unknown challenge type: __proto__')],
      ['GET', '/api/metadata/nope', undefined, 404, e('Challenge not found')],
      ['GET', '/api/metadata/constructor', undefined, 404, e('Challenge not found')],
      ['GET', '/api/scoring/nope', undefined, 404, e('Unknown challenge type')],
      ['GET', '/api/scoring/toString', undefined, 404, e('Unknown challenge type')],
    );
    // Unknown routes, including paths that exist only in the reference or another case.
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/nope'],
      ['GET', '/api'],
      ['GET', '/api/v1'],
      ['GET', '/api/nope'],
      ['GET', '/api/v1/health'],
      ['GET', '/api/v1/skill.md'],
      ['GET', '/SKILL.md'],
      ['GET', '/Health'],
      ['GET', '/api/arena/sse'],
      ['GET', '/api/chat/sse'],
      ['GET', '/api/arena/message'],
      ['GET', '/api/chat/message'],
      ['POST', '/api/v1/arena/sse'],
      ['POST', '/__test__/reset'],
      ['DELETE', `/api/challenges/${open.id}`],
      ['PUT', '/api/users'],
      ['GET', '/api/arena/join'],
      ['POST', '/health'],
      ['GET', `/api/challenges/psi/${open.id}`],
      ['GET', '/api/chat/ws'],
    ]) {
      cases.push([method as string, path as string, undefined, 404, NOT_FOUND]);
    }

    for (const [method, path, body, status, error] of cases) {
      const res = await c.request(method, path, body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } });
      expectJsonError(res, status, error, `${method} ${path} ${JSON.stringify(body)}`);
    }

    // 1 MB bodies: 413 with a code, on every route that takes a body.
    const huge = JSON.stringify({
      content: 'x'.repeat(1024 * 1024),
      channel: active.id,
      from: player,
      challengeId: active.id,
      invite: freeInvite,
    });
    for (const path of [...bodyRoutes, '/api/challenges/psi', '/api/arena/mcp']) {
      const res = await c.post<{ error: string; code: string }>(path, huge);
      expect({ path, status: res.status, code: res.body?.code }).toEqual({ path, status: 413, code: 'PAYLOAD_TOO_LARGE' });
      expect(res.body.error).toMatch(/too large/i);
    }

    expect(await snapshot()).toEqual(before);
  });

  it('keeps the reference quirks that are not errors', async () => {
    const before = await snapshot();
    // index is Number(...): non-numeric → empty list; negative or fractional → from the start.
    expect((await c.get('/api/arena/sync', { query: { channel: active.id, index: 'abc' } })).body).toEqual({ messages: [], count: 0 });
    expect((await c.get<{ count: number }>('/api/arena/sync', { query: { channel: active.id, index: '-3' } })).body.count).toBe(2);
    expect((await c.get<{ count: number }>('/api/arena/sync', { query: { channel: active.id, index: '1.9' } })).body.count).toBe(2);
    expect((await c.get<{ count: number }>('/api/arena/sync', { query: { channel: active.id, index: '1e400' } })).body.count).toBe(0);
    // Unknown channels are empty, not errors.
    expect((await c.get('/api/chat/sync', { query: { channel: 'never-used' } })).body).toEqual({ messages: [], count: 0 });
    // Absurd paging values are clamped, never a storage error.
    for (const query of [{ offset: '99999999999999999999' }, { limit: '99999999999999999999', offset: '1e30' }, { offset: '-1' }]) {
      const res = await c.get<{ challenges: Challenge[] }>('/api/challenges', { query });
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
    }
    const mine = await c.get<{ limit: number; total: number }>('/api/users/u1/challenges', {
      query: { limit: '99999999999999999999', offset: '99999999999999999999' },
    });
    expect(mine.status).toBe(200);
    expect(mine.body.total).toBe(1);
    expect((await c.get<{ limit: number }>('/api/users/u1/challenges', { query: { limit: '500' } })).body.limit).toBe(500);
    expect(await snapshot()).toEqual(before);
  });
});

describe('actions the operator refuses or ignores', () => {
  const opsOf = async (id: string) =>
    (await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: id, from: 'x' } })).body.messages;
  const listed = async (id: string) =>
    (await c.get<{ challenges: Challenge[] }>('/api/challenges', { query: { limit: '100' } })).body.challenges.find((x) => x.id === id);

  it('actions on ended or not-yet-started games: 200 and an ERR_GAME_NOT_RUNNING DM, even for strangers', async () => {
    for (const [session, from] of [
      [ended, ended.invites[0]],
      [ended, 'mallory'],
      [open, open.invites[0]],
      [open, 'mallory'],
    ] as const) {
      const state = await listed(session.id);
      const before = (await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: session.id } })).body.messages.length;
      const res = await c.post('/api/arena/message', { challengeId: session.id, from, messageType: 'guess', content: '100 200' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: 'Message sent' });
      const after = (
        await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: session.id, from } })
      ).body.messages.slice(before);
      expect(after.map((m) => [m.from, m.to, m.content])).toEqual([
        [from, 'operator', '(guess) 100 200'],
        ['operator', from, ERR_DM],
      ]);
      expect(await listed(session.id)).toEqual(state);
    }
  });

  it('refused actions are logged but change nothing else', async () => {
    const player = active.invites[0] as string;
    const cases: [from: string, messageType: string | undefined, content: string, code: string][] = [
      ['mallory', 'guess', '100', 'PLAYER_NOT_FOUND'],
      [player, undefined, '100', 'UNKNOWN_METHOD'],
      [player, '', '100', 'UNKNOWN_METHOD'],
      [player, 'dance', '100', 'UNKNOWN_METHOD'],
      [player, 'guess', 'no digits here', 'INVALID_GUESS'],
      [player, 'guess', Array.from({ length: 20 }, (_, i) => 100 + i).join(' '), 'GUESS_TOO_LARGE'],
    ];
    for (const [from, messageType, content, code] of cases) {
      const state = await listed(active.id);
      const before = (await opsOf(active.id)).length;
      const res = await c.post<{ error: string; code: string }>('/api/arena/message', {
        challengeId: active.id,
        from,
        messageType,
        content,
      });
      expect({ from, messageType, status: res.status, code: res.body.code }).toEqual({ from, messageType, status: 400, code });
      expect(res.body.error.length).toBeGreaterThan(0);
      const log = (await opsOf(active.id)).slice(before);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ from, to: 'operator' });
      expect(await listed(active.id)).toEqual(state);
    }
    const unknown = await c.post('/api/arena/message', { challengeId: active.id, from: player, content: 'x' });
    expect(unknown.body).toEqual({ error: 'Unknown challenge method: ', code: 'UNKNOWN_METHOD' });
  });

  it('a duplicate guess is refused and keeps the first one', async () => {
    const s = await createSession(c);
    const [a, b] = s.invites as [string, string];
    await join(c, a);
    await join(c, b);
    const setB = await privateSet(c, s.id, b);
    expect((await guess(c, s.id, a, setB.slice(0, 2))).status).toBe(200);
    const dup = await guess(c, s.id, a, setB.slice(0, 3));
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ code: 'DUPLICATE_GUESS' });
    expect((await listed(s.id))?.state.status).toBe('active');
  });

  it('create ignores its body, even when it is not JSON', async () => {
    for (const body of ['{', '', '[1,2]']) {
      const res = await c.post<Challenge>('/api/challenges/millionaire', body);
      expect(res.status).toBe(200);
      expect(res.body.challengeType).toBe('millionaire');
      expect(res.body).not.toHaveProperty('gameState');
    }
  });
});
