// Start-up in a browser tab without a token: the session probe decides before any admin call (so nothing 401s in the
// console), the tab remembers the route it asked for, and a cookie that died between the probe and the first call
// still ends on "No admin token" rather than a refused token. Against a real engine on 127.0.0.1:0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BootstrapEnv, type KeyValueStore, RETURN_ROUTE_KEY } from '../../renderer/src/arena-client/bootstrap.js';
import { boot } from '../../renderer/src/boot.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

function env(
  origin: string,
  hash: string,
  probe: boolean,
  data: Record<string, string> = {},
): BootstrapEnv & { data: Record<string, string> } {
  const storage: KeyValueStore = {
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => {
      data[k] = v;
    },
    removeItem: (k) => {
      delete data[k];
    },
  };
  return {
    data,
    location: { origin, pathname: '/', search: '', hash },
    history: { replaceState: () => {} },
    storage,
    probeSession: async () => probe,
    exchangeCode: async () => {
      throw new Error('This link was already used or has expired.');
    },
  };
}

describe('boot without a token', () => {
  it('asks the probe first: no live cookie means "No admin token" without calling the engine, and the route is kept', async () => {
    // Nothing listens on port 9: had boot called the admin API, this would be "not reachable".
    const e = env('http://127.0.0.1:9', '#/agents', false);
    const state = await boot(e);
    expect(state).toMatchObject({ phase: 'error', kind: 'no-token', title: 'No admin token' });
    expect(e.data[RETURN_ROUTE_KEY]).toBe('#/agents');
  });

  it('says the link is dead when its code was refused and no cookie is live', async () => {
    const state = await boot(env('http://127.0.0.1:9', '#code=used', false));
    expect(state).toMatchObject({ phase: 'error', kind: 'no-token', title: 'This link no longer works' });
  });

  it('a probe that said yes, then a 401 from the engine (the cookie ended meanwhile): still "No admin token"', async () => {
    const e = env(server.url, '#/settings', true);
    const state = await boot(e);
    expect(state).toMatchObject({ phase: 'error', kind: 'no-token', title: 'No admin token' });
    expect(e.data[RETURN_ROUTE_KEY]).toBe('#/settings');
  });

  it('with the token, loads', async () => {
    const state = await boot(env(server.url, `#token=${server.token}`, false));
    expect(state.phase).toBe('loaded');
  });
});
