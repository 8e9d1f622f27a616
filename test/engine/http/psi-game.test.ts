// Acceptance 1: a whole PSI game over real HTTP through every route a player touches, with exact scores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage, ScoringEntry, UserProfile } from '../../../engine/contract/specarena.js';
import { type Client, client } from '../../support/http.js';
import { guess, intersect, privateSet } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface ListBody {
  challenges: Challenge[];
  total: number;
  limit: number;
  offset: number;
  profiles: Record<string, UserProfile>;
}

/** Session ids are time-ordered UUIDs (version 7): their first 48 bits are the creation time in milliseconds. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const INVITE = /^inv_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: TestServer;
let c: Client;

beforeAll(async () => {
  server = await startTestServer();
  c = client(server.url);
});
afterAll(async () => server?.close());

describe('misc routes', () => {
  it('/health, /skill.md and metadata in registration order', async () => {
    const health = await c.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });

    const skill = await c.get('/skill.md');
    expect(skill.status).toBe(200);
    expect(skill.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(skill.text).toContain('/api/arena/join');
    expect(skill.text).toContain('`psi`');

    const meta = await c.get<Record<string, { name: string; players: number; methods: { name: string }[] }>>('/api/metadata');
    expect(meta.status).toBe(200);
    expect(Object.keys(meta.body)).toEqual(['psi', 'ultimatum', 'millionaire', 'dining-cryptographers']);
    expect(meta.body.psi).toMatchObject({ name: 'Private Set Intersection', players: 2, methods: [{ name: 'guess' }] });
    expect(meta.body['dining-cryptographers']?.players).toBe(3);

    const one = await c.get('/api/v1/metadata/psi');
    expect(one.status).toBe(200);
    expect(one.body).toEqual(meta.body.psi);
  });
});

describe('a full PSI game', () => {
  it('plays from creation to scores', async () => {
    // Profiles exist before the game so the ended-session lists can return them.
    const profile = await c.post<UserProfile>('/api/users', { userId: 'alice', username: 'Alice', model: 'model-a' });
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({ userId: 'alice', username: 'Alice', model: 'model-a' });

    // ---- create: sanitized, no private data (decision 11(a)) --------------------------------------------
    const created = await c.post<Challenge>('/api/challenges/psi');
    expect(created.status).toBe(200);
    const session = created.body;
    expect(session.id).toMatch(UUID_V7);
    expect(Math.abs(Number.parseInt(session.id.replace(/-/g, '').slice(0, 12), 16) - session.createdAt)).toBeLessThan(1000);
    // Invites admit a player: fully random (version 4), not time-ordered.
    for (const invite of session.invites) expect(invite).toMatch(INVITE);
    expect(session).not.toHaveProperty('gameState');
    expect(session).toMatchObject({ name: 'psi', challengeType: 'psi', gameCategory: 'train' });
    expect(session.state).toEqual({ status: 'open', scores: [], players: [], playerIdentities: {} });
    expect(session.invites).toHaveLength(2);
    for (const invite of session.invites) expect(invite).toMatch(/^inv_[0-9a-f-]{36}$/);
    expect(Math.abs(session.createdAt - Date.now())).toBeLessThan(60_000);
    const [invA, invB] = session.invites as [string, string];
    const id = session.id;

    // ---- invites: lookup and advertise ----------------------------------------------------------------
    const invite = await c.get<Challenge>(`/api/invites/${invA}`);
    expect(invite.status).toBe(200);
    expect(invite.body).toEqual(session);

    const advertised = await c.post('/api/invites', { inviteId: invB });
    expect(advertised.status).toBe(200);
    expect(advertised.body).toEqual({ success: true });
    const feed = await c.get<{ messages: ChatMessage[]; count: number }>('/api/chat/sync', { query: { channel: 'invites' } });
    expect(feed.body.count).toBe(1);
    expect(feed.body.messages[0]).toMatchObject({ channel: 'invites', from: 'operator', content: invB, index: 1 });
    expect(feed.body.messages[0]).not.toHaveProperty('to');

    // ---- joins (one through the /api/v1 alias) --------------------------------------------------------
    const joinA = await c.post<{ ChallengeID: string; ChallengeInfo: { name: string } }>('/api/arena/join', {
      invite: invA,
      userId: 'alice',
    });
    expect(joinA.status).toBe(200);
    expect(joinA.body.ChallengeID).toBe(id);
    expect(joinA.body.ChallengeInfo.name).toBe('Private Set Intersection');
    expect(joinA.body).not.toHaveProperty('sessionKey');

    // The used invite is now a conflict; the other is still open (advertising did not reserve it).
    const usedLookup = await c.get(`/api/invites/${invA}`);
    expect(usedLookup.status).toBe(409);
    expect(usedLookup.body).toEqual({ error: `Invite already used: ${invA}` });
    expect((await c.get(`/api/invites/${invB}`)).status).toBe(200);

    const joinB = await c.post<{ ChallengeID: string }>('/api/v1/arena/join', { invite: invB, userId: 'bob' });
    expect(joinB.status).toBe(200);
    expect(joinB.body.ChallengeID).toBe(id);

    // Active sessions are listed sanitized: players visible, identities and scores not.
    const active = await c.get<ListBody>('/api/challenges', { query: { status: 'active' } });
    const listed = active.body.challenges.find((x) => x.id === id);
    expect(listed?.state).toEqual({ status: 'active', scores: [], players: [invA, invB], playerIdentities: {} });
    expect(listed).not.toHaveProperty('gameState');
    expect(active.body.profiles).toEqual({});

    // ---- arena sync: each player learns its own set from a DM -----------------------------------------
    const syncA = await c.get<{ messages: ChatMessage[]; count: number }>('/api/arena/sync', {
      query: { channel: id, index: 0, from: invA },
    });
    expect(syncA.status).toBe(200);
    expect(syncA.body.count).toBe(2);
    expect(syncA.body.messages.map((m) => [m.index, m.from, m.to])).toEqual([
      [1, 'operator', invA],
      [2, 'operator', invB],
    ]);
    expect(syncA.body.messages[0]?.content).toMatch(/^Your private set is: \{\d{3}(, \d{3})*\}\.$/);
    expect(syncA.body.messages[1]).toMatchObject({ content: '', redacted: true });
    // index=2 starts at the second message.
    const fromTwo = await c.get<{ count: number }>('/api/arena/sync', { query: { channel: id, index: 2, from: invB } });
    expect(fromTwo.body.count).toBe(1);

    const setA = await privateSet(c, id, invA);
    const setB = await privateSet(c, id, invB);
    for (const set of [setA, setB]) {
      expect(set.length).toBeGreaterThanOrEqual(10);
      expect(set.length).toBeLessThanOrEqual(13);
      expect([...set].sort((x, y) => x - y)).toEqual(set);
    }
    const target = intersect(setA, setB);
    expect(target.length).toBeGreaterThanOrEqual(3);
    // An element of A's set outside the target: B's "extra" guess that breaches A.
    const extra = setA.find((v) => !target.includes(v));
    expect(extra).toBeDefined();

    // ---- chat: a broadcast and a DM ----------------------------------------------------------------------
    const hello = await c.post('/api/chat/send', { channel: id, from: invA, content: 'hello bob' });
    expect(hello.status).toBe(200);
    expect(hello.body).toEqual({ index: 1, channel: id, from: invA, to: null });
    const dm = await c.post('/api/chat/send', { channel: id, from: invB, to: invA, content: 'psst alice' });
    expect(dm.body).toEqual({ index: 2, channel: id, from: invB, to: invA });
    const chatA = await c.get<{ messages: ChatMessage[] }>('/api/chat/sync', { query: { channel: id, from: invA } });
    expect(chatA.body.messages.map((m) => m.content)).toEqual(['hello bob', 'psst alice']);
    const chatViewer = await c.get<{ messages: ChatMessage[] }>('/api/chat/sync', { query: { channel: id, from: 'viewer' } });
    expect(chatViewer.body.messages.map((m) => m.content)).toEqual(['hello bob', '']);

    // ---- guesses --------------------------------------------------------------------------------------
    const first = await guess(c, id, invA, target);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: 'Message sent' });
    const afterFirst = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: id, index: 3, from: invA } });
    expect(afterFirst.body.messages.map((m) => [m.from, m.to ?? null])).toEqual([
      [invA, 'operator'],
      ['operator', null],
      ['operator', invA],
    ]);
    expect(afterFirst.body.messages[0]?.content).toBe(`(guess) ${target.join(', ')}`);
    expect(afterFirst.body.messages[1]?.content).toBe(`Player ${invA} sent a guess`);
    const outcome = afterFirst.body.messages[2]?.content ?? '';
    expect(outcome).toContain('Player 2 outcome:');
    expect(outcome).toContain('Intersection Found: true');
    expect(outcome).toContain('Wrong Guess: 0');
    expect(outcome).toContain('Extra Guess: 0');
    expect(outcome).toContain(`Target: {${target.join(', ')}}`);

    const second = await guess(c, id, invB, [...target, extra as number]);
    expect(second.status).toBe(200);

    const ops = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: id, index: 6, from: invB } });
    const last = ops.body.messages.at(-1);
    expect(last?.from).toBe('operator');
    expect(last).not.toHaveProperty('to');
    expect(last?.content).toBe(
      'Game ended.\n\nScores are:\n- Player 1: {"security":-1,"utility":1}\n- Player 2: {"security":1,"utility":1}',
    );

    // ---- ended session: complete, with identities, scores and attributions -------------------------------
    const ended = await c.get<ListBody>('/api/challenges', { query: { status: 'ended' } });
    expect(ended.status).toBe(200);
    const done = ended.body.challenges.find((x) => x.id === id);
    expect(done?.state.status).toBe('ended');
    expect(done?.state.players).toEqual([invA, invB]);
    expect(done?.state.playerIdentities).toEqual({ [invA]: 'alice', [invB]: 'bob' });
    expect(done?.state.scores).toEqual([
      { security: -1, utility: 1 },
      { security: 1, utility: 1 },
    ]);
    expect(done?.state.attributions).toEqual([{ from: 1, to: 0, type: 'security_breach' }]);
    expect(done?.state.completedAt).toBeTypeOf('number');
    expect(done?.gameState).toMatchObject({ userSets: [setA, setB] });
    expect(ended.body.profiles).toEqual({ alice: { userId: 'alice', username: 'Alice', model: 'model-a' } });
    // By type and through the alias: the same session.
    const byType = await c.get<ListBody>('/api/v1/challenges/psi', { query: { status: 'ended' } });
    expect(byType.body.limit).toBe(10);
    expect(byType.body.challenges.find((x) => x.id === id)).toEqual(done);
    expect((await c.get<ListBody>('/api/challenges', { query: { status: 'active' } })).body.challenges.some((x) => x.id === id)).toBe(
      false,
    );

    // ---- scoring, stats, users (consistent as soon as the ending request returned: 11(d)) -------------
    const global = await c.get<ScoringEntry[]>('/api/scoring');
    expect(global.status).toBe(200);
    const byPlayer = Object.fromEntries(global.body.map((e) => [e.playerId, e]));
    expect(byPlayer.alice).toEqual({
      playerId: 'alice',
      gamesPlayed: 1,
      metrics: { 'global-average:security': -1, 'global-average:utility': 1 },
      username: 'Alice',
      model: 'model-a',
    });
    expect(byPlayer.bob).toEqual({
      playerId: 'bob',
      gamesPlayed: 1,
      metrics: { 'global-average:security': 1, 'global-average:utility': 1 },
    });

    const psi = await c.get<Record<string, ScoringEntry[]>>('/api/scoring/psi');
    expect(Object.keys(psi.body)).toEqual(['average', 'win-rate', 'red-team', 'consecutive']);
    const metricsOf = (strategy: string, user: string) => psi.body[strategy]?.find((e) => e.playerId === user)?.metrics;
    expect(metricsOf('average', 'alice')).toEqual({ 'average:security': -1, 'average:utility': 1 });
    expect(metricsOf('win-rate', 'alice')).toEqual({ 'win-rate:security': 0, 'win-rate:utility': 1 });
    expect(metricsOf('win-rate', 'bob')).toEqual({ 'win-rate:security': 1, 'win-rate:utility': 1 });
    expect(metricsOf('red-team', 'alice')).toEqual({ 'red-team:attack': 0, 'red-team:defend': 0 });
    expect(metricsOf('red-team', 'bob')).toEqual({ 'red-team:attack': 1, 'red-team:defend': 1 });
    expect(metricsOf('consecutive', 'alice')).toEqual({ 'consecutive:security': 0, 'consecutive:utility': 1, 'consecutive:attack': 0 });
    expect(metricsOf('consecutive', 'bob')).toEqual({ 'consecutive:security': 1, 'consecutive:utility': 1, 'consecutive:attack': 1 });
    expect((await c.get('/api/scoring/millionaire')).body).toEqual({});

    const stats = await c.get('/api/stats');
    expect(stats.body).toEqual({
      challenges: {
        psi: { gamesPlayed: 1 },
        ultimatum: { gamesPlayed: 0 },
        millionaire: { gamesPlayed: 0 },
        'dining-cryptographers': { gamesPlayed: 0 },
      },
      global: { participants: 2, gamesPlayed: 1 },
    });

    const scores = await c.get<{ global: ScoringEntry | null; challenges: Record<string, Record<string, ScoringEntry>> }>(
      '/api/users/alice/scores',
    );
    expect(scores.status).toBe(200);
    expect(scores.body.global).toEqual(byPlayer.alice);
    expect(Object.keys(scores.body.challenges)).toEqual(['psi']);
    expect(Object.keys(scores.body.challenges.psi ?? {}).sort()).toEqual(['average', 'consecutive', 'red-team', 'win-rate']);
    expect(scores.body.challenges.psi?.average).toMatchObject({ playerId: 'alice', gamesPlayed: 1, username: 'Alice' });
    expect((await c.get('/api/users/nobody/scores')).body).toEqual({ global: null, challenges: {} });

    const mine = await c.get<ListBody>('/api/users/bob/challenges');
    expect(mine.status).toBe(200);
    expect(mine.body.total).toBe(1);
    expect(mine.body.limit).toBe(50);
    expect(mine.body.challenges[0]).toEqual(done);
    expect(mine.body.profiles).toEqual({ alice: { userId: 'alice', username: 'Alice', model: 'model-a' } });
    expect((await c.get<ListBody>('/api/users/carol/challenges')).body.total).toBe(0);

    const users = await c.get<UserProfile[]>('/api/users');
    expect(users.body).toEqual([{ userId: 'alice', username: 'Alice', model: 'model-a' }]);
    expect((await c.get('/api/users/batch', { query: { ids: 'alice,bob,nobody' } })).body).toEqual({
      alice: { userId: 'alice', username: 'Alice', model: 'model-a' },
    });
    expect((await c.get('/api/users/batch', { query: { ids: ',' } })).body).toEqual({});
    // Profile updates merge (11(g)).
    const merged = await c.post('/api/v1/users', { userId: 'alice', model: 'model-b' });
    expect(merged.body).toEqual({ userId: 'alice', username: 'Alice', model: 'model-b' });
    expect((await c.get('/api/users/alice')).body).toEqual({ userId: 'alice', username: 'Alice', model: 'model-b' });
  });

  it('list pagination: limit clamping, offset, defaults, unknown status ignored', async () => {
    for (let i = 0; i < 3; i++) expect((await c.post('/api/challenges/millionaire')).status).toBe(200);
    const all = await c.get<ListBody>('/api/challenges', { query: { status: 'bogus' } });
    expect(all.body.limit).toBe(50);
    expect(all.body.offset).toBe(0);
    expect(all.body.total).toBe(all.body.challenges.length);
    const created = all.body.challenges.map((x) => x.createdAt);
    expect(created).toEqual([...created].sort((a, b) => b - a));

    const page = await c.get<ListBody>('/api/challenges/millionaire', { query: { limit: 2, offset: 1 } });
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.body.challenges).toHaveLength(2);
    expect((await c.get<ListBody>('/api/challenges', { query: { limit: 1000 } })).body.limit).toBe(100);
    expect((await c.get<ListBody>('/api/challenges', { query: { limit: 0 } })).body.limit).toBe(50);
    expect((await c.get<ListBody>('/api/challenges', { query: { limit: 'abc', offset: -4 } })).body).toMatchObject({
      limit: 50,
      offset: 0,
    });
    expect((await c.get<ListBody>('/api/challenges/nope')).body).toEqual({ challenges: [], total: 0, limit: 10, offset: 0, profiles: {} });
  });
});
