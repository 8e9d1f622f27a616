// Bad input refused up front on the public API (issue 42 item 7), over real HTTP on a real engine: sessions opened
// per client per minute are capped (429 with Retry-After; another local user keeps its own budget; the engine's own
// sessions are not capped), and a keyless POST /api/users cannot rename the profile of an agent that plays in
// seat-key sessions, while its own seat key and profiles of keyless players still work.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCapFromEnv } from '../../../engine/http/session-cap.js';
import { client } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const run = promisify(execFile);
const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
const CAP = 5;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ sessionsPerMinute: CAP });
});
afterAll(async () => {
  await server?.close();
});

describe('sessions opened per client per minute', () => {
  it('answers 429 with Retry-After past the cap, names the limit, and leaves the engine and other users their own', async () => {
    const c = client(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < CAP; i++) statuses.push((await c.post('/api/challenges/psi', {})).status);
    expect(statuses).toEqual(Array(CAP).fill(200));
    const refused = await c.post<{ error: string; code: string }>('/api/challenges/psi', {});
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_SESSIONS');
    expect(refused.body.error).toMatch(/at most 5 a minute/);
    // One session more every 12 s at 5 a minute.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(12);
    // The engine's own session creation (admin API, which tournaments use through the engine) is not capped.
    const admin = await c.post('/admin/api/v1/sessions', { challengeType: 'psi' }, bearer(server.token));
    expect(admin.status).toBe(200);
    if (process.getuid?.() !== 0) return;
    // Another local user is another client: its budget is whole.
    const script = `fetch(${JSON.stringify(`${server.url}/api/challenges/psi`)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => console.log(r.status))`;
    const other = await run('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, '-e', script]);
    expect(other.stdout.trim()).toBe('200');
    expect((await c.post('/api/challenges/psi', {})).status).toBe(429);
  });

  it('takes its cap from ARENA_SESSIONS_PER_MINUTE, refusing a value that is not a count', () => {
    expect(sessionCapFromEnv({})).toBe(600);
    expect(sessionCapFromEnv({ ARENA_SESSIONS_PER_MINUTE: '0' })).toBe(0);
    expect(() => sessionCapFromEnv({ ARENA_SESSIONS_PER_MINUTE: 'lots' })).toThrow(/ARENA_SESSIONS_PER_MINUTE must be a whole number/);
  });
});

describe("a seat-key agent's profile", () => {
  it('refuses a keyless rename, and keeps keyless profiles writable', async () => {
    const c = client(server.url);
    const res = await c.post<{ session: { id: string; invites: string[] }; seatKeys: string[] }>(
      '/admin/api/v1/sessions',
      { challengeType: 'psi', seatKeys: true },
      bearer(server.token),
    );
    const [a, b] = res.body.session.invites as [string, string];
    const [keyA, keyB] = res.body.seatKeys as [string, string];
    expect((await c.post('/api/arena/join', { invite: a, userId: 'honest-agent' }, bearer(keyA))).status).toBe(200);
    expect((await c.post('/api/arena/join', { invite: b, userId: 'other-agent' }, bearer(keyB))).status).toBe(200);
    const before = (await c.get<{ username?: string }>('/api/users/honest-agent')).body;

    const rename = await c.post<{ code: string; error: string }>('/api/users', { userId: 'honest-agent', username: 'pwned' });
    expect(rename.status).toBe(403);
    expect(rename.body.code).toBe('SEAT_KEY_REQUIRED');
    expect(rename.body.error).toMatch(/honest-agent.*only that seat's key/);
    // The other seat's key is not this profile's.
    const withOthersKey = await c.post(
      '/api/users',
      { userId: 'honest-agent', username: 'pwned', challengeId: res.body.session.id },
      bearer(keyB),
    );
    expect(withOthersKey.status).not.toBe(200);
    expect((await c.get<{ username?: string }>('/api/users/honest-agent')).body).toEqual(before);

    // A profile no seat-key session knows stays the reference's open profile.
    const open = await c.post<{ username: string }>('/api/users', { userId: 'keyless-player', username: 'Alice' });
    expect(open.status).toBe(200);
    expect(open.body.username).toBe('Alice');
  });
});
