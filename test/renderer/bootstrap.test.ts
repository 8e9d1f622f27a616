import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type BootstrapEnv,
  bootstrapConnection,
  exchangeLaunchCode,
  extractCodeFromHash,
  extractTokenFromHash,
  forgetToken,
  type KeyValueStore,
  RETURN_ROUTE_KEY,
  rememberReturnRoute,
  TOKEN_STORAGE_KEY,
} from '../../renderer/src/arena-client/bootstrap.js';
import { startTestServer, type TestServer } from '../support/server.js';

const TOKEN = 'IeSJVuB5lX9sTa4cwM6WG_AWsYqR8gA0XfoZriGC2E4';

function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => {
      data[k] = v;
    },
    removeItem: (k) => {
      delete data[k];
    },
  };
}

function browserEnv(hash: string, storage: KeyValueStore | null = memoryStore()) {
  const replaceState = vi.fn();
  const env: BootstrapEnv = {
    location: { origin: 'http://127.0.0.1:43121', pathname: '/', search: '', hash },
    history: { replaceState },
    storage,
  };
  return { env, replaceState };
}

describe('extractTokenFromHash', () => {
  it('reads the token from the link arena serve prints', () => {
    expect(extractTokenFromHash(`#token=${TOKEN}`)).toEqual({ token: TOKEN, rest: '' });
  });

  it('keeps a route that shares the fragment', () => {
    expect(extractTokenFromHash(`#/sessions/abc&token=${TOKEN}`)).toEqual({ token: TOKEN, rest: '/sessions/abc' });
    expect(extractTokenFromHash(`#token=${TOKEN}&/leaderboards`)).toEqual({ token: TOKEN, rest: '/leaderboards' });
  });

  it('decodes percent-escapes and trims', () => {
    expect(extractTokenFromHash('#token=abc%2Ddef%20')).toEqual({ token: 'abc-def', rest: '' });
  });

  it('treats an empty token as no token but still removes it', () => {
    expect(extractTokenFromHash('#token=')).toEqual({ token: null, rest: '' });
    expect(extractTokenFromHash('#/sessions')).toEqual({ token: null, rest: '/sessions' });
    expect(extractTokenFromHash('')).toEqual({ token: null, rest: '' });
  });

  it('survives a malformed escape', () => {
    expect(extractTokenFromHash('#token=%E0%A4%A')).toEqual({ token: '%E0%A4%A', rest: '' });
  });
});

describe('bootstrapConnection (browser)', () => {
  it('uses this origin and the fragment token, stores it per tab and removes it from the address bar', async () => {
    const storage = memoryStore();
    const { env, replaceState } = browserEnv(`#token=${TOKEN}`, storage);
    await expect(bootstrapConnection(env)).resolves.toEqual({
      ok: true,
      connection: { baseUrl: 'http://127.0.0.1:43121', token: TOKEN, mode: 'browser' },
    });
    expect(storage.data[TOKEN_STORAGE_KEY]).toBe(TOKEN);
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
  });

  it('keeps the route part of the fragment when removing the token', async () => {
    const { env, replaceState } = browserEnv(`#/sessions&token=${TOKEN}`);
    await bootstrapConnection(env);
    expect(replaceState).toHaveBeenCalledWith(null, '', '/#/sessions');
  });

  it('falls back to the token kept for this tab after a reload', async () => {
    const { env, replaceState } = browserEnv('#/leaderboards', memoryStore({ [TOKEN_STORAGE_KEY]: TOKEN }));
    await expect(bootstrapConnection(env)).resolves.toMatchObject({ ok: true, connection: { token: TOKEN } });
    expect(replaceState).not.toHaveBeenCalled();
  });

  it('prefers a new link over a stored token', async () => {
    const storage = memoryStore({ [TOKEN_STORAGE_KEY]: 'old-token' });
    const { env } = browserEnv('#token=new-token', storage);
    await expect(bootstrapConnection(env)).resolves.toMatchObject({ ok: true, connection: { token: 'new-token' } });
    expect(storage.data[TOKEN_STORAGE_KEY]).toBe('new-token');
  });

  it('without a token, tries the session cookie and keeps the explanation for when that fails', async () => {
    const { env } = browserEnv('');
    const result = await bootstrapConnection(env);
    expect(result).toMatchObject({ ok: true, connection: { token: null, mode: 'browser' }, unverified: { reason: 'no-token' } });
    expect(result.ok ? result.unverified?.message : '').toMatch(/Open the link printed by arena serve/);
  });

  it('sends a bare link pasted into a tab back to the page that tab asked for, once', async () => {
    const storage = memoryStore();
    rememberReturnRoute({ location: { origin: '', pathname: '/', search: '', hash: '#/tournaments/t-9' }, storage });
    rememberReturnRoute({ location: { origin: '', pathname: '/', search: '', hash: '' }, storage });
    expect(storage.data[RETURN_ROUTE_KEY]).toBe('#/tournaments/t-9');
    const { env, replaceState } = browserEnv(`#token=${TOKEN}`, storage);
    await bootstrapConnection(env);
    expect(replaceState).toHaveBeenCalledWith(null, '', '/#/tournaments/t-9');
    expect(storage.data[RETURN_ROUTE_KEY]).toBeUndefined();
    // A link that names its own route wins over the remembered one.
    storage.data[RETURN_ROUTE_KEY] = '#/agents';
    const second = browserEnv(`#/settings&token=${TOKEN}`, storage);
    await bootstrapConnection(second.env);
    expect(second.replaceState).toHaveBeenCalledWith(null, '', '/#/settings');
  });

  it('still works when web storage is unavailable', async () => {
    const throwing: KeyValueStore = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const { env } = browserEnv(`#token=${TOKEN}`, throwing);
    await expect(bootstrapConnection(env)).resolves.toMatchObject({ ok: true, connection: { token: TOKEN } });
    expect(() => forgetToken(throwing)).not.toThrow();
  });

  it('forgets a rejected token', () => {
    const storage = memoryStore({ [TOKEN_STORAGE_KEY]: TOKEN });
    forgetToken(storage);
    expect(storage.data).toEqual({});
  });
});

describe('launch codes (the link arena serve opens)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reads the code like the token, and drops both from the remaining fragment', () => {
    expect(extractCodeFromHash('#/tournaments/t-1&code=abc')).toEqual({ code: 'abc', rest: '/tournaments/t-1' });
    expect(extractTokenFromHash('#/x&code=abc')).toEqual({ token: null, rest: '/x' });
  });

  it('trades the code with the real engine once, after the fragment left the address bar, and keeps the deep link', async () => {
    const code = server.engine.issueLaunchCode();
    const order: string[] = [];
    const storage = memoryStore();
    const { env, replaceState } = browserEnv(`#/tournaments/t-1/games/0&code=${code}`, storage);
    replaceState.mockImplementation(() => order.push('address bar cleared'));
    const exchangeCode = async (c: string) => {
      order.push('exchange');
      return exchangeLaunchCode(server.url, c);
    };
    const result = await bootstrapConnection({ ...env, location: { ...env.location, origin: server.url }, exchangeCode });
    expect(result).toEqual({ ok: true, connection: { baseUrl: server.url, token: server.token, mode: 'browser' } });
    expect(order).toEqual(['address bar cleared', 'exchange']);
    expect(replaceState).toHaveBeenCalledWith(null, '', '/#/tournaments/t-1/games/0');
    expect(storage.data[TOKEN_STORAGE_KEY]).toBe(server.token);

    // The same link again (another tab, a pasted history entry): dead.
    const again = browserEnv(`#code=${code}`);
    const second = await bootstrapConnection({ ...again.env, exchangeCode: (c) => exchangeLaunchCode(server.url, c) });
    // Still worth a try with the session cookie an earlier trade may have left; else this is what the page says.
    expect(second).toMatchObject({
      ok: true,
      connection: { token: null },
      unverified: { reason: 'code-failed', message: 'This link was already used or has expired.' },
    });
  });

  it('keeps working on a reload of the same tab, whose code is already used', async () => {
    const code = server.engine.issueLaunchCode();
    expect(await exchangeLaunchCode(server.url, code)).toBe(server.token);
    const { env } = browserEnv(`#code=${code}`, memoryStore({ [TOKEN_STORAGE_KEY]: server.token }));
    const result = await bootstrapConnection({ ...env, exchangeCode: (c) => exchangeLaunchCode(server.url, c) });
    expect(result).toMatchObject({ ok: true, connection: { token: server.token } });
  });
});

describe('bootstrapConnection (desktop shell)', () => {
  it('asks the shell for the connection and ignores the fragment', async () => {
    const connection = vi.fn(async () => ({ baseUrl: 'http://127.0.0.1:5000', token: TOKEN }));
    const { env, replaceState } = browserEnv('#token=ignored');
    const result = await bootstrapConnection({ ...env, arena: { connection } });
    expect(result).toEqual({ ok: true, connection: { baseUrl: 'http://127.0.0.1:5000', token: TOKEN, mode: 'electron' } });
    expect(replaceState).not.toHaveBeenCalled();
  });

  it('reports a shell that cannot start its engine', async () => {
    const { env } = browserEnv('');
    const result = await bootstrapConnection({
      ...env,
      arena: {
        connection: async () => {
          throw new Error('The engine could not be started.');
        },
      },
    });
    expect(result).toEqual({ ok: false, reason: 'shell-failed', message: 'The engine could not be started.' });
  });
});
