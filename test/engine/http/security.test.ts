// Acceptance 9: DNS-rebinding and cross-origin defence, the admin token, and the test-only reset hook (11(h)).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, rawRequest } from '../../support/http.js';
import { createSession, join } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { SseStream } from '../../support/sse.js';

let server: TestServer;
let c: Client;

beforeAll(async () => {
  server = await startTestServer();
  c = client(server.url);
});
afterAll(async () => server?.close());

describe('Host and Origin checks', () => {
  it('refuses any Host that is not a loopback name', async () => {
    const port = new URL(server.url).port;
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      '10.0.0.1',
      '0.0.0.0',
      '[::2]',
    ]) {
      const res = await rawRequest(`${server.url}/health`, { headers: { host } });
      expect({ host, status: res.status }).toEqual({ host, status: 403 });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.text)).toMatchObject({ code: 'FORBIDDEN_HOST' });
    }
    // Rebinding defence covers writes too: nothing is created.
    const before = (await c.get<{ total: number }>('/api/challenges')).body.total;
    const write = await rawRequest(`${server.url}/api/challenges/psi`, { method: 'POST', headers: { host: 'attacker.example' } });
    expect(write.status).toBe(403);
    expect((await c.get<{ total: number }>('/api/challenges')).body.total).toBe(before);

    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`, `app.localhost:${port}`, '127.1.2.3']) {
      const res = await rawRequest(`${server.url}/health`, { headers: { host } });
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
    }
  });

  it('refuses foreign Origins and accepts the engine’s own origin and the desktop shell', async () => {
    const port = new URL(server.url).port;
    for (const origin of [
      'http://evil.example',
      'https://evil.example',
      'null',
      `http://localhost:${Number(port) + 1}`,
      `ftp://127.0.0.1:${port}`,
      'not a url',
    ]) {
      const res = await rawRequest(`${server.url}/api/challenges/psi`, { method: 'POST', headers: { origin } });
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
      expect(JSON.parse(res.text)).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
    }
    for (const origin of [`http://127.0.0.1:${port}`, 'app://arena']) {
      const res = await rawRequest(`${server.url}/health`, { headers: { origin } });
      expect({ origin, status: res.status }).toEqual({ origin, status: 200 });
    }
  });
});

describe('admin API', () => {
  it('needs the bearer token', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `bearer ${server.token}` },
      { authorization: server.token },
      { authorization: `Bearer ${server.token}x` },
    ];
    for (const headers of attempts) {
      const res = await c.get('/admin/api/v1/overview', { headers });
      expect({ headers, status: res.status }).toEqual({ headers, status: 401 });
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const ok = await c.get<{ authMode: boolean; challenges: object; stats: object; staleAfterMs: number }>('/admin/api/v1/overview', {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.authMode).toBe(false);
    expect(ok.body.staleAfterMs).toBe(30 * 60 * 1000);
    expect(Object.keys(ok.body.challenges)).toEqual(['psi', 'ultimatum', 'millionaire', 'dining-cryptographers']);
    // The session key of an agent is not an admin token.
    expect((await c.get('/admin/api/v1/sessions', { headers: { authorization: 'Bearer s_0.1.abc' } })).status).toBe(401);
  });

  it('has no reset hook unless test hooks are on', async () => {
    const res = await c.post('/__test__/reset', undefined, { headers: { authorization: `Bearer ${server.token}` } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not Found', code: 'NOT_FOUND' });
  });
});

describe('reset hook with testHooks', () => {
  let hooked: TestServer;
  beforeAll(async () => {
    hooked = await startTestServer({ testHooks: true });
  });
  afterAll(async () => hooked?.close());

  it('requires the admin token, then clears all state and closes streams', async () => {
    const h = client(hooked.url);
    await h.post('/api/users', { userId: 'zed', username: 'Zed' });
    const s = await createSession(h);
    await join(h, s.invites[0] as string, 'zed');
    await h.post('/api/chat/send', { channel: s.id, from: 'zed', content: 'x' });
    const stream = await SseStream.open(`${hooked.url}/api/chat/ws/${s.id}`);
    await stream.next();

    for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const denied = await h.post('/__test__/reset', undefined, { headers });
      expect(denied.status).toBe(401);
      expect(denied.body).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    expect((await h.get<{ total: number }>('/api/challenges')).body.total).toBe(1);

    const reset = await h.post('/__test__/reset', undefined, { headers: { authorization: `Bearer ${hooked.token}` } });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ok: true });
    await stream.waitEnd();

    expect((await h.get('/api/challenges')).body).toEqual({ challenges: [], total: 0, limit: 50, offset: 0, profiles: {} });
    expect((await h.get('/api/users')).body).toEqual([]);
    expect((await h.get('/api/chat/sync', { query: { channel: s.id } })).body).toEqual({ messages: [], count: 0 });
    expect((await h.get(`/api/invites/${s.invites[1]}`)).status).toBe(404);
    // Chat indices restart at 1 on a cleared channel.
    expect((await h.post('/api/chat/send', { channel: s.id, from: 'zed', content: 'again' })).body).toMatchObject({ index: 1 });
  });
});

describe('the desktop shell origin', () => {
  it('answers pre-flights and admin calls from app://arena, and only from there', async () => {
    const preflight = await rawRequest(`${server.url}/admin/api/v1/overview`, {
      method: 'OPTIONS',
      headers: { origin: 'app://arena', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('app://arena');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Authorization');

    const admin = await rawRequest(`${server.url}/admin/api/v1/overview`, {
      headers: { origin: 'app://arena', authorization: `Bearer ${server.token}` },
    });
    expect(admin.status).toBe(200);
    expect(admin.headers['access-control-allow-origin']).toBe('app://arena');
    const scoring = await rawRequest(`${server.url}/api/scoring`, { headers: { origin: 'app://arena' } });
    expect(scoring.headers['access-control-allow-origin']).toBe('app://arena');

    // Without the token the shell origin gets no further than anyone else.
    const noToken = await rawRequest(`${server.url}/admin/api/v1/overview`, { headers: { origin: 'app://arena' } });
    expect(noToken.status).toBe(401);
    const foreign = await rawRequest(`${server.url}/admin/api/v1/overview`, { method: 'OPTIONS', headers: { origin: 'app://evil' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});
