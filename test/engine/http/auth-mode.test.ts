// Acceptance 4: auth mode (spec §4, decision 11(f)) on a second engine with a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage } from '../../../engine/contract/specarena.js';
import { createManualClock } from '../../../engine/core/clock.js';
import { newIdentity, signedJoin, signedUserUpdate, type TestIdentity } from '../../support/ed25519.js';
import { type Client, client } from '../../support/http.js';
import { createSession, intersect, parsePrivateSet } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { SseStream } from '../../support/sse.js';

const clock = createManualClock(Date.now());
let server: TestServer;
let c: Client;
const alice = newIdentity();
const bob = newIdentity();

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

interface Joined {
  ChallengeID: string;
  ChallengeInfo: { name: string };
  sessionKey: string;
}

/** One session both identities have joined; keys are set in the first test. */
const game = { id: '', invA: '', invB: '', keyA: '', keyB: '' };
/** A session still open (one seat taken), set in the join-error test. */
const pending = { id: '', invite: '', key: '' };

async function ownSet(key: string, invite: string): Promise<number[]> {
  const res = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: game.id }, ...bearer(key) });
  const dm = res.body.messages.find((m) => m.to === invite && !m.redacted);
  const set = dm && parsePrivateSet(dm.content);
  if (!set) throw new Error(`no set for ${invite}`);
  return set;
}

beforeAll(async () => {
  // Expiry off, so moving the clock a day ahead tests key expiry alone.
  server = await startTestServer({ authMode: true, clock, staleAfterMs: 0 });
  c = client(server.url);
});
afterAll(async () => server?.close());

describe('auth mode', () => {
  it('signed joins return session keys; identities are hashes of the lower-cased public key', async () => {
    const s = await createSession(c);
    [game.invA, game.invB] = s.invites as [string, string];
    game.id = s.id;

    // Exactly at the edge of the 300 s window is still accepted.
    const joinA = await c.post<Joined>('/api/arena/join', signedJoin(alice, game.invA, clock.now() - 300_000));
    expect(joinA.status).toBe(200);
    expect(joinA.body.ChallengeID).toBe(game.id);
    expect(joinA.body.ChallengeInfo.name).toBe('Private Set Intersection');
    const expected = Math.floor((clock.now() + 24 * 3600 * 1000) / 1000);
    expect(joinA.body.sessionKey).toMatch(new RegExp(`^s_0\\.${expected}\\.[a-f0-9]{64}$`));
    game.keyA = joinA.body.sessionKey;

    // Upper-case hex of the same kind of key: the identity must not depend on the case (11(f)).
    const ts = clock.now() + 299_000;
    const upper = { ...signedJoin(bob, game.invB, ts), publicKey: bob.publicKeyHex.toUpperCase() };
    const joinB = await c.post<Joined>('/api/v1/arena/join', upper);
    expect(joinB.status).toBe(200);
    expect(joinB.body.sessionKey).toMatch(/^s_1\.\d+\.[a-f0-9]{64}$/);
    game.keyB = joinB.body.sessionKey;

    // Each key reads its own DM in full and the other's redacted; `from` is ignored in auth mode.
    const setA = await ownSet(game.keyA, game.invA);
    const setB = await ownSet(game.keyB, game.invB);
    const asViewer = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: game.id, from: game.invA } });
    expect(asViewer.body.messages.every((m) => m.redacted === true)).toBe(true);

    // Play with keys only (header for A, ?key= for B).
    const target = intersect(setA, setB);
    const g1 = await c.post(
      '/api/arena/message',
      { challengeId: game.id, messageType: 'guess', content: target.join(' ') },
      bearer(game.keyA),
    );
    expect(g1.body).toEqual({ ok: 'Message sent' });
    const g2 = await c.post(
      '/api/arena/message',
      { challengeId: game.id, messageType: 'guess', content: target.join(' ') },
      { query: { key: game.keyB } },
    );
    expect(g2.body).toEqual({ ok: 'Message sent' });

    const ended = await c.get<{ challenges: Challenge[] }>('/api/challenges', { query: { status: 'ended' } });
    const done = ended.body.challenges.find((x) => x.id === game.id);
    expect(done?.state.playerIdentities).toEqual({ [game.invA]: alice.userId, [game.invB]: bob.userId });
    expect(done?.state.scores).toEqual([
      { security: 1, utility: 1 },
      { security: 1, utility: 1 },
    ]);
  });

  it('rejects bad joins with the exact errors and leaves the invite unused', async () => {
    const s = await createSession(c);
    const inv = s.invites[0] as string;
    const now = clock.now();
    const cases: [unknown, number, string][] = [
      [{}, 400, 'invite is required'],
      [{ invite: 5 }, 400, 'invite is required'],
      [{ invite: inv }, 400, 'publicKey, signature, and timestamp are required'],
      [{ ...signedJoin(alice, inv, now), signature: undefined }, 400, 'publicKey, signature, and timestamp are required'],
      [{ ...signedJoin(alice, inv, now), publicKey: '' }, 400, 'publicKey, signature, and timestamp are required'],
      // timestamp 0 is "missing" (a falsiness test, §4.2).
      [signedJoin(alice, inv, 0), 400, 'publicKey, signature, and timestamp are required'],
      [{ ...signedJoin(alice, inv, now), timestamp: String(now) }, 400, 'timestamp must be a number'],
      [signedJoin(alice, inv, now - 300_001), 401, 'Timestamp expired'],
      [signedJoin(alice, inv, now + 300_001), 401, 'Timestamp expired'],
      // The window is checked before the signature.
      [{ ...signedJoin(alice, inv, now - 400_000), signature: 'ab'.repeat(64) }, 401, 'Timestamp expired'],
      [{ ...signedJoin(alice, inv, now), signature: 'ab'.repeat(64) }, 401, 'Invalid signature'],
      [{ ...signedJoin(alice, 'inv_other', now), invite: inv }, 401, 'Invalid signature'],
      [{ ...signedJoin(alice, inv, now), publicKey: bob.publicKeyHex }, 401, 'Invalid signature'],
      [{ ...signedJoin(alice, inv, now), publicKey: 'zz-not-hex' }, 401, 'Invalid signature'],
      [{ ...signedJoin(alice, inv, now), signature: 12345 }, 401, 'Invalid signature'],
    ];
    for (const [body, status, error] of cases) {
      const res = await c.post('/api/arena/join', body);
      expect({ body, status: res.status, error: res.body }).toEqual({ body, status, error: { error } });
    }
    for (const raw of ['', '{', 'null']) {
      const res = await c.post('/api/arena/join', raw);
      expect(res.status).toBe(400);
      expect(res.body).toHaveProperty('error');
    }
    expect((await c.get(`/api/invites/${inv}`)).status).toBe(200);

    const unknown = await c.post('/api/arena/join', signedJoin(alice, 'inv_unknown', now));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'Challenge not found for invite: inv_unknown' });

    const joined = await c.post<Joined>('/api/arena/join', signedJoin(alice, inv, now));
    expect(joined.status).toBe(200);
    Object.assign(pending, { id: s.id, invite: inv, key: joined.body.sessionKey });
    const again = await c.post('/api/arena/join', signedJoin(bob, inv, now));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'This invite has already been used.', code: 'INVITE_ALREADY_USED' });
  });

  it('a key is valid only for its own session; tampered and forged keys are 401', async () => {
    const send = (channel: string, key: string) =>
      c.post<{ from?: string; error?: string }>('/api/chat/send', { channel, content: 'x' }, bearer(key));
    const ok = await send(game.id, game.keyA);
    expect(ok.status).toBe(200);
    expect(ok.body.from).toBe(game.invA);
    // The operator-channel name resolves to the same session: B reads its own DMs there in full. Writing there is
    // the arena's alone (decision 11(j)), key or not.
    const asB = await c.get<{ messages: ChatMessage[] }>('/api/chat/sync', {
      query: { channel: `challenge_${game.id}` },
      ...bearer(game.keyB),
    });
    expect(asB.body.messages.find((m) => m.to === game.invB)?.redacted).toBeUndefined();
    expect(asB.body.messages.find((m) => m.to === game.invB)?.content).toMatch(/^Your private set is/);
    const onOperatorChannel = await send(`challenge_${game.id}`, game.keyB);
    expect(onOperatorChannel.status).toBe(403);
    expect(onOperatorChannel.body).toMatchObject({ code: 'OPERATOR_CHANNEL' });

    const other = await createSession(c);
    const unauthorized = { error: 'Authentication required' };
    for (const [channel, key] of [
      [other.id, game.keyA],
      ['lobby', game.keyA],
      [game.id, game.keyA.replace(/^s_0\./, 's_1.')],
      [game.id, `s_0.${game.keyA.split('.')[2]}`],
      [game.id, game.keyA.replace(/.$/, (ch) => (ch === '0' ? '1' : '0'))],
      [game.id, 'not-a-key'],
    ] as const) {
      const res = await send(channel, key);
      expect({ channel, key, status: res.status, body: res.body }).toEqual({ channel, key, status: 401, body: unauthorized });
    }
    const msg = await c.post('/api/arena/message', { challengeId: other.id, messageType: 'guess', content: '1' }, bearer(game.keyA));
    expect(msg.status).toBe(401);
    const syncOther = await c.get('/api/arena/sync', { query: { channel: other.id, key: game.keyA } });
    expect(syncOther.status).toBe(401);

    // No key: `from` is ignored, writes need an identity, reads are redacted.
    const noKey = await c.post('/api/chat/send', { channel: game.id, from: game.invA, content: 'x' });
    expect(noKey.status).toBe(400);
    expect(noKey.body).toEqual({ error: 'from is required' });
    // The prefix is case-sensitive: `bearer` is no key at all.
    const lower = await c.post('/api/chat/send', { channel: game.id, content: 'x' }, { headers: { authorization: `bearer ${game.keyA}` } });
    expect(lower.body).toEqual({ error: 'from is required' });
    // A key on a route naming no session: a plain viewer.
    expect((await c.get('/api/challenges', bearer(game.keyA))).status).toBe(200);
  });

  it('SSE with ?key= authenticates from the path alone (11(f))', async () => {
    const open = async (path: string) => {
      const stream = await SseStream.open(`${server.url}${path}`);
      const initial = await stream.nextOfType('initial');
      stream.close();
      return (initial.json?.messages ?? []) as ChatMessage[];
    };
    // Index 1 is A's set DM, index 2 B's. The game has ended, but the operator channel's *initial* is revealed,
    // so use the player chat channel, which never is: a DM to A.
    await c.post('/api/chat/send', { channel: game.id, to: game.invA, content: 'for A' }, bearer(game.keyB));
    const forA = (messages: ChatMessage[]) => messages.find((m) => m.to === game.invA && m.from === game.invB);
    expect(forA(await open(`/api/chat/ws/${game.id}?key=${game.keyA}`))?.content).toBe('for A');
    expect(forA(await open(`/api/chat/ws/${game.id}`))?.redacted).toBe(true);
    expect(forA(await open(`/api/chat/ws/${game.id}?from=${game.invA}`))?.redacted).toBe(true);
    // The operator channel of a running game: the key alone (no &channel=) unlocks the player's own DM.
    const ownDm = (messages: ChatMessage[]) => messages.find((m) => m.to === pending.invite);
    expect(ownDm(await open(`/api/chat/ws/challenge_${pending.id}?key=${pending.key}`))?.content).toMatch(/^Your private set is:/);
    expect(ownDm(await open(`/api/chat/ws/challenge_${pending.id}`))?.redacted).toBe(true);
    expect((await fetch(`${server.url}/api/chat/ws/challenge_${pending.id}?key=${game.keyA}`)).status).toBe(401);
    const bad = await fetch(`${server.url}/api/chat/ws/${game.id}?key=${game.keyA.replace(/^s_0\./, 's_1.')}`);
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'Authentication required' });
  });

  it('MCP is disabled: its routes are unknown', async () => {
    for (const path of ['/api/arena/mcp', '/api/chat/mcp', '/api/v1/arena/mcp']) {
      const res = await c.post(
        path,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { headers: { accept: 'application/json, text/event-stream' } },
      );
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Not Found', code: 'NOT_FOUND' });
    }
  });

  it('POST /api/users needs a signed body and merges fields into the key-derived user', async () => {
    const carol: TestIdentity = newIdentity();
    const now = clock.now();
    const first = await c.post('/api/users', { ...signedUserUpdate(carol, now, { username: 'Carol' }), userId: 'spoofed' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ userId: carol.userId, username: 'Carol' });
    expect((await c.get('/api/users/spoofed')).status).toBe(404);
    const second = await c.post('/api/users', signedUserUpdate(carol, now + 1, { model: 'm-1' }));
    expect(second.body).toEqual({ userId: carol.userId, username: 'Carol', model: 'm-1' });

    const cases: [unknown, number, string][] = [
      [{ username: 'x' }, 400, 'publicKey, signature, and timestamp are required'],
      [{ ...signedUserUpdate(carol, now), timestamp: 'soon' }, 400, 'timestamp must be a number'],
      [signedUserUpdate(carol, now - 300_001), 401, 'Timestamp expired'],
      [{ ...signedUserUpdate(carol, now), publicKey: alice.publicKeyHex }, 401, 'Invalid signature'],
      [{ ...signedUserUpdate(carol, now), username: 5 }, 400, 'Expected string, received number'],
    ];
    for (const [body, status, error] of cases) {
      const res = await c.post('/api/users', body);
      expect({ body, status: res.status, error: res.body }).toEqual({ body, status, error: { error } });
    }
    expect((await c.get(`/api/users/${carol.userId}`)).body).toEqual({ userId: carol.userId, username: 'Carol', model: 'm-1' });
  });

  it('session keys expire after 24 hours', async () => {
    const exp = Number(game.keyA.split('.')[1]);
    const send = () => c.post('/api/chat/send', { channel: game.id, content: 'tick' }, bearer(game.keyA));
    clock.set(exp * 1000 - 1000);
    expect((await send()).status).toBe(200);
    clock.set(exp * 1000);
    const expired = await send();
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: 'Authentication required' });
  });
});
