import { describe, expect, it, vi } from 'vitest';
import { createArenaClient, type FetchFn, sessionListPath } from '../../renderer/src/arena-client/client.js';
import { ApiError, ContractError, EngineUnreachableError, UnauthorizedError } from '../../renderer/src/arena-client/errors.js';

const TOKEN = 't'.repeat(43);
const session = {
  id: 's1',
  name: 'psi-1',
  createdAt: 1,
  challengeType: 'psi',
  invites: ['inv_a', 'inv_b'],
  state: { status: 'open', scores: [], players: [], playerIdentities: {} },
  gameCategory: 'train',
};

function jsonFetch(status: number, body: unknown) {
  return vi.fn<FetchFn>(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

describe('sessionListPath', () => {
  it('leaves out empty filters', () => {
    expect(sessionListPath({})).toBe('/admin/api/v1/sessions');
    expect(sessionListPath({ status: 'ended', type: 'psi', limit: 25, offset: 0 })).toBe(
      '/admin/api/v1/sessions?type=psi&status=ended&limit=25',
    );
    expect(sessionListPath({ type: 'a&b', offset: 50 })).toBe('/admin/api/v1/sessions?type=a%26b&offset=50');
  });
});

describe('createArenaClient', () => {
  it('sends the admin token to admin routes and parses the answer', async () => {
    const fetchImpl = jsonFetch(200, { sessions: [session], total: 1 });
    const client = createArenaClient({ baseUrl: 'http://127.0.0.1:4000/', token: TOKEN }, fetchImpl);
    await expect(client.listSessions({ status: 'open' })).resolves.toEqual({ sessions: [session], total: 1 });
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('http://127.0.0.1:4000/admin/api/v1/sessions?status=open');
    expect(new Headers(init?.headers).get('authorization')).toBe(`Bearer ${TOKEN}`);
    // Same-origin only: the engine's session cookie, never to another origin.
    expect(init?.credentials).toBe('same-origin');
  });

  it('in a tab without a token, sends no Authorization header and relies on the session cookie', async () => {
    const fetchImpl = jsonFetch(200, { sessions: [], total: 0 });
    const client = createArenaClient({ baseUrl: 'http://127.0.0.1:4000', token: null }, fetchImpl);
    await client.listSessions({});
    await client.globalScoring().catch(() => {});
    const [admin, scoring] = fetchImpl.mock.calls;
    expect(new Headers(admin?.[1]?.headers).has('authorization')).toBe(false);
    expect(admin?.[1]?.credentials).toBe('same-origin');
    expect(scoring?.[1]?.credentials).toBe('omit');
  });

  it('never sends the admin token to the public scoring routes', async () => {
    const fetchImpl = jsonFetch(200, []);
    const client = createArenaClient({ baseUrl: 'http://127.0.0.1:4000', token: TOKEN }, fetchImpl);
    await client.globalScoring();
    await client.scoringByType('psi').catch(() => {});
    for (const [, init] of fetchImpl.mock.calls) expect(new Headers(init?.headers).has('authorization')).toBe(false);
    expect(fetchImpl.mock.calls[1]?.[0]).toBe('http://127.0.0.1:4000/api/scoring/psi');
  });

  it('posts JSON when creating a session', async () => {
    const fetchImpl = jsonFetch(200, { session });
    const client = createArenaClient({ baseUrl: 'http://127.0.0.1:4000', token: TOKEN }, fetchImpl);
    await client.createSession({ challengeType: 'psi', seatKeys: true });
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('http://127.0.0.1:4000/admin/api/v1/sessions');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ challengeType: 'psi', seatKeys: true });
  });

  it('maps 401 to UnauthorizedError', async () => {
    const client = createArenaClient(
      { baseUrl: 'http://127.0.0.1:4000', token: 'wrong' },
      jsonFetch(401, { error: 'Admin token required', code: 'UNAUTHORIZED' }),
    );
    await expect(client.overview()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('maps other failures to ApiError with the engine message and code', async () => {
    const client = createArenaClient(
      { baseUrl: 'http://127.0.0.1:4000', token: TOKEN },
      jsonFetch(400, { error: 'Unknown challenge type: x', code: 'X' }),
    );
    await expect(client.createSession({ challengeType: 'x' })).rejects.toMatchObject({
      name: 'ApiError',
      status: 400,
      message: 'Unknown challenge type: x',
      code: 'X',
    });
    const plain = createArenaClient(
      { baseUrl: 'http://127.0.0.1:4000', token: TOKEN },
      async () => new Response('oops', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(plain.overview()).rejects.toEqual(new ApiError(502, 'HTTP 502 Bad Gateway'));
  });

  it('maps network failures to EngineUnreachableError', async () => {
    const client = createArenaClient({ baseUrl: 'http://127.0.0.1:4000', token: TOKEN }, async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.overview()).rejects.toBeInstanceOf(EngineUnreachableError);
    await expect(client.overview()).rejects.toThrow('Cannot reach the engine at http://127.0.0.1:4000.');
  });

  it('rejects answers that do not match the contract', async () => {
    const client = createArenaClient({ baseUrl: 'http://127.0.0.1:4000', token: TOKEN }, jsonFetch(200, { sessions: 'nope' }));
    await expect(client.listSessions({})).rejects.toBeInstanceOf(ContractError);
  });
});
