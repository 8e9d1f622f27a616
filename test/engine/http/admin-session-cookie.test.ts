// The browser session a launch-code exchange opens (admin-sessions.ts), over real HTTP on 127.0.0.1:0: the cookie's
// flags, admin routes accepting it in place of the token, expiry and rotation on the engine's clock, writes from a
// foreign or missing Origin refused, and agent routes (seat keys, joins) never treating it as any credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PREFIX, ADMIN_SESSION_PATH, LAUNCH_CODE_PATH } from '../../../engine/contract/admin.js';
import { createManualClock } from '../../../engine/core/clock.js';
import {
  ADMIN_SESSION_IDLE_MS,
  ADMIN_SESSION_MAX_MS,
  ADMIN_SESSION_ROTATE_MS,
  adminCookieName,
} from '../../../engine/http/admin-sessions.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const clock = createManualClock(1_800_000_000_000);
let server: TestServer;
let origin: string;
let host: string;

beforeAll(async () => {
  server = await startTestServer({ clock });
  origin = server.url;
  host = new URL(server.url).host;
});
afterAll(async () => server?.close());

/** Trades a fresh launch code the way the page does; returns the Set-Cookie header and the `name=value` pair. */
async function exchange(): Promise<{ setCookie: string; pair: string }> {
  const res = await fetch(`${server.url}${LAUNCH_CODE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ code: server.engine.issueLaunchCode() }),
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { setCookie, pair: setCookie.split(';')[0] as string };
}

const overview = (headers: Record<string, string>) => fetch(`${server.url}${ADMIN_PREFIX}/overview`, { headers });

describe('the launch-code exchange', () => {
  it('sets an HttpOnly, SameSite=Strict cookie scoped to the admin API and named for this engine’s port', async () => {
    const { setCookie, pair } = await exchange();
    const attributes = setCookie.split(';').map((a) => a.trim());
    const [name, value] = pair.split('=') as [string, string];
    expect(name).toBe(adminCookieName(host));
    expect(name).toBe(`arena_admin_${new URL(server.url).port}`);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(value).not.toBe(server.token);
    expect(attributes).toEqual(
      expect.arrayContaining(['HttpOnly', 'SameSite=Strict', `Path=${ADMIN_PREFIX}`, `Max-Age=${ADMIN_SESSION_IDLE_MS / 1000}`]),
    );
    // Host-only (no Domain), so no other name of this machine gets it.
    expect(attributes.some((a) => a.toLowerCase().startsWith('domain='))).toBe(false);
  });

  it('sets no cookie for a dead code', async () => {
    const res = await fetch(`${server.url}${LAUNCH_CODE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'made-up-code' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('admin routes with the cookie', () => {
  it('accept it in place of the bearer token for reads and same-origin writes', async () => {
    const { pair } = await exchange();
    expect((await overview({})).status).toBe(401);
    const read = await overview({ cookie: pair });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { version: string }).version).toBeTruthy();
    const write = await fetch(`${server.url}${ADMIN_PREFIX}/sessions`, {
      method: 'POST',
      headers: { cookie: pair, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ challengeType: 'psi' }),
    });
    expect(write.status, await write.clone().text()).toBe(200);
    expect(((await write.json()) as { session: { id: string } }).session.id).toBeTruthy();
  });

  it('refuse a write with the cookie but a foreign Origin, or none, and create nothing', async () => {
    const { pair } = await exchange();
    const count = async () =>
      ((await (await fetch(`${server.url}${ADMIN_PREFIX}/sessions`, { headers: { cookie: pair } })).json()) as { total: number }).total;
    const before = await count();
    for (const foreign of ['http://evil.example', `http://localhost:${new URL(server.url).port}`, 'null', undefined]) {
      const res = await fetch(`${server.url}${ADMIN_PREFIX}/sessions`, {
        method: 'POST',
        headers: { cookie: pair, 'content-type': 'application/json', ...(foreign ? { origin: foreign } : {}) },
        body: JSON.stringify({ challengeType: 'psi' }),
      });
      expect({ foreign, status: res.status }).toEqual({ foreign, status: 403 });
    }
    // A read from a foreign page is refused by the server-wide Origin check as well.
    expect((await overview({ cookie: pair, origin: 'http://evil.example' })).status).toBe(403);
    expect(await count()).toBe(before);
  });

  it('refuse a made-up value, a value under another port’s name, and the cookie value used as a bearer token', async () => {
    const { pair } = await exchange();
    const value = pair.split('=')[1] as string;
    // The made-up value differs from the real one in its first character, whatever that character is.
    const madeUp = `${value.startsWith('x') ? 'y' : 'x'}${value.slice(1)}`;
    expect((await overview({ cookie: `${adminCookieName(host)}=${madeUp}` })).status).toBe(401);
    expect((await overview({ cookie: `arena_admin_1=${value}` })).status).toBe(401);
    expect((await overview({ authorization: `Bearer ${value}` })).status).toBe(401);
  });

  it('refuse an expired session: after an hour idle, and after twelve hours however busy', async () => {
    const idle = (await exchange()).pair;
    clock.advance(ADMIN_SESSION_IDLE_MS + 1);
    expect((await overview({ cookie: idle })).status).toBe(401);

    let { pair } = await exchange();
    // Used every few minutes: it rotates (a new value in Set-Cookie, the old one dies after a short grace).
    let rotated = 0;
    let ended = false;
    for (let t = 0; t < ADMIN_SESSION_MAX_MS; t += ADMIN_SESSION_ROTATE_MS / 2) {
      clock.advance(ADMIN_SESSION_ROTATE_MS / 2);
      const res = await overview({ cookie: pair });
      if (t + ADMIN_SESSION_ROTATE_MS / 2 >= ADMIN_SESSION_MAX_MS) {
        expect(res.status).toBe(401);
        ended = true;
        break;
      }
      expect(res.status).toBe(200);
      const next = res.headers.get('set-cookie');
      if (next) {
        const old = pair;
        pair = next.split(';')[0] as string;
        expect(pair).not.toBe(old);
        expect(next).toContain('HttpOnly');
        rotated++;
        clock.advance(60_000);
        expect((await overview({ cookie: old })).status).toBe(401);
        clock.advance(-60_000);
      }
    }
    expect(ended).toBe(true);
    expect(rotated).toBeGreaterThan(10);
  });
});

describe('the session probe', () => {
  it('says whether the cookie is live, with a 200 either way (a page without access logs no error)', async () => {
    const probe = async (headers: Record<string, string>) => {
      const res = await fetch(`${server.url}${ADMIN_SESSION_PATH}`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return ((await res.json()) as { signed_in: boolean }).signed_in;
    };
    const { pair } = await exchange();
    expect(await probe({})).toBe(false);
    expect(await probe({ cookie: pair })).toBe(true);
    expect(await probe({ cookie: `${adminCookieName(host)}=nope` })).toBe(false);
    clock.advance(ADMIN_SESSION_IDLE_MS + 1);
    expect(await probe({ cookie: pair })).toBe(false);
  });
});

describe('agent routes with the cookie', () => {
  it('never treat it as admin access or as a seat key', async () => {
    const { pair } = await exchange();
    const value = pair.split('=')[1] as string;
    const created = await fetch(`${server.url}${ADMIN_PREFIX}/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ challengeType: 'psi', seatKeys: true }),
    });
    const { session } = (await created.json()) as { session: { invites: string[] } };
    const invite = session.invites[0] as string;
    const attempts: Array<Record<string, string>> = [
      { cookie: pair },
      { authorization: `Bearer ${value}` },
      { cookie: pair, authorization: `Bearer ${value}` },
    ];
    for (const headers of attempts) {
      const join = await fetch(`${server.url}/api/arena/join`, {
        method: 'POST',
        headers: { ...headers, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ invite }),
      });
      expect(join.status).toBe(401);
    }
    // The test-only reset hook and other non-admin paths stay token-only.
    const reset = await fetch(`${server.url}/__test__/reset`, { method: 'POST', headers: { cookie: pair, origin } });
    expect([401, 404]).toContain(reset.status);
  });
});
