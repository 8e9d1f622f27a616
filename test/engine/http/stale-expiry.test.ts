// Acceptance 11: inactivity expiry (decision 11(c)) driven by a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage } from '../../../engine/contract/specarena.js';
import { createManualClock } from '../../../engine/core/clock.js';
import { type Client, client } from '../../support/http.js';
import { createSession, guess, intersect, join, privateSet } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { SseStream } from '../../support/sse.js';

const STALE = 60_000;
const clock = createManualClock(Date.now());
let server: TestServer;
let c: Client;

async function listedIds(cl: Client): Promise<string[]> {
  return (await cl.get<{ challenges: Challenge[] }>('/api/challenges', { query: { limit: 100 } })).body.challenges.map((x) => x.id);
}

async function endedGame(cl: Client) {
  const s = await createSession(cl);
  const [a, b] = s.invites as [string, string];
  await join(cl, a, 'ua');
  await join(cl, b, 'ub');
  const target = intersect(await privateSet(cl, s.id, a), await privateSet(cl, s.id, b));
  await guess(cl, s.id, a, target);
  await guess(cl, s.id, b, target);
  return s;
}

beforeAll(async () => {
  // The background sweep runs every STALE/2 of real time (30 s): never during these tests.
  server = await startTestServer({ clock, staleAfterMs: STALE });
  c = client(server.url);
});
afterAll(async () => server?.close());

describe('stale expiry on lookup', () => {
  it('a session inactive for longer than staleAfter is not found on join and is deleted', async () => {
    const s = await createSession(c);
    await c.post('/api/chat/send', { channel: s.id, from: 'someone', content: 'hello' });
    // Exactly staleAfter is not yet stale.
    clock.advance(STALE);
    expect((await c.get(`/api/invites/${s.invites[0]}`)).status).toBe(200);
    clock.advance(1);
    const res = await c.post('/api/arena/join', { invite: s.invites[0], userId: 'late' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `Challenge not found for invite: ${s.invites[0]}` });
    // Deleted by that lookup, with its channels, not merely hidden.
    expect(await listedIds(c)).not.toContain(s.id);
    expect((await c.get<{ count: number }>('/api/chat/sync', { query: { channel: s.id } })).body.count).toBe(0);
    const other = await c.get(`/api/invites/${s.invites[1]}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: `Challenge not found for invite: ${s.invites[1]}` });
  });

  it('a stale session is not found on message; both channels are gone', async () => {
    const s = await createSession(c);
    const [a, b] = s.invites as [string, string];
    await join(c, a);
    await join(c, b);
    clock.advance(STALE + 1);
    const res = await c.post('/api/arena/message', { challengeId: s.id, from: a, messageType: 'guess', content: '1 2 3' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Challenge not found' });
    expect(await listedIds(c)).not.toContain(s.id);
    expect((await c.get<{ count: number }>('/api/arena/sync', { query: { channel: s.id } })).body.count).toBe(0);
    // Invite lookups agree.
    expect((await c.post('/api/invites', { inviteId: a })).status).toBe(404);
  });

  it('an SSE subscriber of a stale session gets neither its history nor a replay', async () => {
    const s = await createSession(c);
    // Player chat (the operator channel is the arena's own, decision 11(j)); both channels go with the session.
    expect((await c.post('/api/chat/send', { channel: s.id, from: 'x', content: 'old news' })).status).toBe(200);
    clock.advance(STALE + 1);
    const stream = await SseStream.open(`${server.url}/api/chat/ws/${s.id}`);
    expect((await stream.next()).json).toEqual({ type: 'initial', messages: [] });
    expect(await stream.quietFor(100)).toBe(true);
    stream.close();
    expect(await listedIds(c)).not.toContain(s.id);
  });

  it('activity on either channel, including rejected actions, keeps a session alive', async () => {
    const s = await createSession(c);
    const [a, b] = s.invites as [string, string];
    clock.advance(40_000);
    await c.post('/api/chat/send', { channel: s.id, from: 'x', content: 'ping' });
    clock.advance(40_000);
    await join(c, a);
    clock.advance(50_000);
    // Logged and rejected (non-player while open is a 200 + DM; while active it is PLAYER_NOT_FOUND below).
    expect((await c.post('/api/arena/message', { challengeId: s.id, from: 'stranger', messageType: 'guess', content: '1' })).status).toBe(
      200,
    );
    clock.advance(50_000);
    await join(c, b);
    clock.advance(50_000);
    const rejected = await c.post('/api/arena/message', { challengeId: s.id, from: 'stranger', messageType: 'guess', content: '1' });
    expect(rejected.body).toMatchObject({ code: 'PLAYER_NOT_FOUND' });
    clock.advance(50_000);
    // 250 s after creation, but never 60 s idle: still there (a player's unknown method is refused, not "not found").
    const dance = { challengeId: s.id, from: a, messageType: 'dance', content: '' };
    expect((await c.post('/api/arena/message', dance)).body).toMatchObject({ code: 'UNKNOWN_METHOD' });
    clock.advance(STALE + 1);
    expect((await c.post('/api/arena/message', dance)).body).toEqual({ error: 'Challenge not found' });
    const ops = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: s.id } });
    expect(ops.body.messages).toEqual([]);
  });

  it('ended sessions never expire', async () => {
    const s = await endedGame(c);
    clock.advance(STALE * 10);
    expect(server.engine.engine.sweepStale()).toBe(0);
    expect(await listedIds(c)).toContain(s.id);
    const late = await SseStream.open(`${server.url}/api/chat/ws/challenge_${s.id}`);
    await late.nextOfType('initial');
    expect((await late.next()).json?.type).toBe('game_ended');
    late.close();
    // Acting on it still answers as an ended game, not as a missing one.
    const res = await guess(c, s.id, s.invites[0] as string, [1]);
    expect(res.status).toBe(200);
  });
});

describe('background sweep', () => {
  let swept: TestServer;
  const sweepClock = createManualClock(Date.now());

  beforeAll(async () => {
    // staleAfter 2 s → a sweep every second of real time, judged by the manual clock.
    swept = await startTestServer({ clock: sweepClock, staleAfterMs: 2000 });
  });
  afterAll(async () => swept?.close());

  it('removes stale sessions from the lists without any lookup; ended ones stay', async () => {
    const sc = client(swept.url);
    const idle = await createSession(sc);
    const done = await endedGame(sc);
    const busy = await createSession(sc);
    expect(await listedIds(sc)).toEqual(expect.arrayContaining([idle.id, done.id, busy.id]));
    sweepClock.advance(1500);
    expect((await sc.post('/api/chat/send', { channel: busy.id, from: 'x', content: 'still here' })).status).toBe(200);
    sweepClock.advance(1000);
    const deadline = Date.now() + 4000;
    while ((await listedIds(sc)).includes(idle.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const ids = await listedIds(sc);
    expect(ids).not.toContain(idle.id);
    expect(ids).toContain(done.id);
    expect(ids).toContain(busy.id);
  });
});
