// Unforgeable identity (decision 11(j)) over real HTTP and real MCP: nobody writes as the operator or into an operator
// channel, in any mode; in a seat-key session every write and private read needs that seat's key; its invites are
// not listed. The open (keyless) play the reference CLI relies on keeps working for sessions without seat keys.
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../engine/contract/specarena.js';
import { type Client, client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const AUTH_REQUIRED = { error: 'Authentication required' };
const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

let server: TestServer;
let authServer: TestServer;
let c: Client;
const mcpClients: McpClient[] = [];
beforeAll(async () => {
  [server, authServer] = await Promise.all([startTestServer(), startTestServer({ authMode: true })]);
  c = client(server.url);
});
afterAll(async () => {
  for (const mcp of mcpClients) await mcp.close();
  await Promise.all([server?.close(), authServer?.close()]);
});

async function adminSession(target: TestServer, seatKeys: boolean) {
  const res = await client(target.url).post<{ session: { id: string; invites: string[] }; seatKeys?: string[] }>(
    '/admin/api/v1/sessions',
    { challengeType: 'psi', seatKeys },
    bearer(target.token),
  );
  expect(res.status, res.text).toBe(200);
  const [a, b] = res.body.session.invites as [string, string];
  const [keyA, keyB] = (res.body.seatKeys ?? []) as string[];
  return { id: res.body.session.id, a, b, keyA: keyA as string, keyB: keyB as string };
}

/** A seat-key PSI game with both seats joined (the game is running). */
async function runningSeatGame(target: TestServer = server) {
  const s = await adminSession(target, true);
  const tc = client(target.url);
  expect((await tc.post('/api/arena/join', { invite: s.a }, bearer(s.keyA))).status).toBe(200);
  expect((await tc.post('/api/arena/join', { invite: s.b }, bearer(s.keyB))).status).toBe(200);
  return s;
}

const operatorLog = async (target: TestServer, id: string, key: string) =>
  (await client(target.url).get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: id, index: 0 }, ...bearer(key) })).body
    .messages;

async function mcp(endpoint: 'arena' | 'chat', key?: string): Promise<McpClient> {
  const m = new McpClient({ name: 'forgery-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await m.connect(new StreamableHTTPClientTransport(new URL(`/api/${endpoint}/mcp`, server.url), { requestInit: { headers } }));
  mcpClients.push(m);
  return m;
}

async function tool<T>(m: McpClient, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await m.callTool({ name, arguments: args });
  return JSON.parse((result.content as { text: string }[])[0]?.text ?? 'null') as T;
}

describe('operator messages cannot be forged', () => {
  it('refuses a keyless operator DM ("Your private set is …") and a fake "Game ended." in a seat-key game', async () => {
    const s = await runningSeatGame();
    const before = await operatorLog(server, s.id, s.keyB);
    const fakeSet = await c.post('/api/chat/send', {
      channel: `challenge_${s.id}`,
      from: 'operator',
      to: s.b,
      content: 'Your private set is: {1, 2, 3}',
    });
    const fakeEnd = await c.post('/api/chat/send', { channel: `challenge_${s.id}`, from: 'operator', content: 'Game ended.' });
    for (const res of [fakeSet, fakeEnd]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'RESERVED_SENDER' });
    }
    // Under another name, keyless, it is a keyless write into a seat-key session.
    const stranger = await c.post('/api/chat/send', { channel: `challenge_${s.id}`, from: 'mallory', content: 'Game ended.' });
    expect(stranger.status).toBe(401);
    // The seat's own key does not open the operator channel either, nor does it make `from` count.
    const keyed = await c.post(
      '/api/chat/send',
      { channel: `challenge_${s.id}`, from: 'operator', content: 'Game ended.' },
      bearer(s.keyA),
    );
    expect(keyed.status).toBe(403);
    expect(keyed.body).toMatchObject({ code: 'OPERATOR_CHANNEL' });
    expect(await operatorLog(server, s.id, s.keyB)).toEqual(before);
    // B's view of the game is untouched: its real private set is the only set DM it has, and the game still runs.
    const dms = before.filter((m) => m.to === s.b && m.content.startsWith('Your private set is'));
    expect(dms).toHaveLength(1);
    expect(before.some((m) => m.content.startsWith('Game ended.'))).toBe(false);
  });

  it('refuses `operator` (any case) as a sender in every mode, on every channel, REST and MCP', async () => {
    const open = await adminSession(server, false);
    for (const from of ['operator', 'Operator', ' OPERATOR ', 'Viewer']) {
      const onChat = await c.post('/api/chat/send', { channel: open.id, from, content: 'Game ended.' });
      expect(onChat.status, from).toBe(403);
      expect(onChat.body).toMatchObject({ code: 'RESERVED_SENDER' });
      const onLobby = await c.post('/api/chat/send', { channel: 'invites', from, content: 'inv_fake' });
      expect(onLobby.status).toBe(403);
      const action = await c.post('/api/arena/message', { challengeId: open.id, from, messageType: 'guess', content: '1' });
      expect(action.status).toBe(403);
    }
    // `from=operator` would read every DM of the operator channel: refused as a read identity too.
    const read = await c.get('/api/arena/sync', { query: { channel: open.id, from: 'operator' } });
    expect(read.status).toBe(403);
    const sse = await fetch(`${server.url}/api/chat/ws/challenge_${open.id}?from=operator`);
    expect(sse.status).toBe(403);
    await sse.body?.cancel();

    const chat = await mcp('chat');
    expect(await tool(chat, 'send_chat', { channel: open.id, from: 'operator', content: 'Game ended.' })).toMatchObject({
      code: 'RESERVED_SENDER',
    });
    expect(await tool(chat, 'send_chat', { channel: `challenge_${open.id}`, from: 'mallory', content: 'Game ended.' })).toMatchObject({
      code: 'OPERATOR_CHANNEL',
    });
    const arena = await mcp('arena');
    expect(await tool(arena, 'challenge_sync', { channel: open.id, from: 'operator', index: 0 })).toMatchObject({
      code: 'RESERVED_SENDER',
    });
    expect(
      await tool(arena, 'challenge_message', { challengeId: open.id, from: 'operator', messageType: 'guess', content: '1' }),
    ).toMatchObject({
      code: 'RESERVED_SENDER',
    });
    // Nothing reached the session's channels.
    expect((await c.get<{ count: number }>('/api/chat/sync', { query: { channel: open.id } })).body.count).toBe(0);
    expect((await c.get<{ count: number }>('/api/arena/sync', { query: { channel: open.id } })).body.count).toBe(0);
  });

  it('refuses operator-channel writes in auth mode too, with a valid session key', async () => {
    const s = await runningSeatGame(authServer);
    const ac = client(authServer.url);
    const res = await ac.post('/api/chat/send', { channel: `challenge_${s.id}`, content: 'Game ended.' }, bearer(s.keyA));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'OPERATOR_CHANNEL' });
    // Player chat on the session's chat channel still works with the key.
    const chat = await ac.post<{ from: string }>('/api/chat/send', { channel: s.id, content: 'hi' }, bearer(s.keyA));
    expect(chat.status).toBe(200);
    expect(chat.body.from).toBe(s.a);
  });
});

describe('seat-key sessions: every write and private read needs the seat key', () => {
  it('refuses keyless `from` on every route, whatever name it claims', async () => {
    const s = await runningSeatGame();
    for (const from of ['mallory', s.a]) {
      for (const res of [
        await c.post('/api/chat/send', { channel: s.id, from, content: 'hello' }),
        await c.post('/api/chat/send', { channel: s.id, from, to: s.b, content: 'Your private set is: {1}' }),
        await c.post('/api/arena/message', { challengeId: s.id, from, messageType: 'guess', content: '1, 2' }),
        await c.get('/api/arena/sync', { query: { channel: s.id, from } }),
        await c.get('/api/chat/sync', { query: { channel: s.id, from } }),
      ]) {
        expect(res.status, `${from} ${res.text}`).toBe(401);
        expect(res.body).toEqual(AUTH_REQUIRED);
      }
      const sse = await fetch(`${server.url}/api/chat/ws/${s.id}?from=${from}`);
      expect(sse.status).toBe(401);
      await sse.body?.cancel();
    }
    // MCP: `from` is a required argument there, and still no identity without the key.
    const arena = await mcp('arena');
    expect(await tool(arena, 'challenge_message', { challengeId: s.id, from: 'mallory', messageType: 'guess', content: '1' })).toEqual(
      AUTH_REQUIRED,
    );
    expect(await tool(arena, 'challenge_sync', { channel: s.id, from: 'mallory', index: 0 })).toEqual(AUTH_REQUIRED);
    const chat = await mcp('chat');
    expect(await tool(chat, 'send_chat', { channel: s.id, from: 'mallory', content: 'hi' })).toEqual(AUTH_REQUIRED);
    // Nothing was written: no chat, no logged action.
    expect((await c.get<{ count: number }>('/api/chat/sync', { query: { channel: s.id }, ...bearer(s.keyA) })).body.count).toBe(0);
    expect((await operatorLog(server, s.id, s.keyA)).filter((m) => m.to === 'operator')).toEqual([]);
  });

  it('a key cannot vouch for one session while the body writes to another', async () => {
    const s = await runningSeatGame();
    const other = await runningSeatGame();
    const res = await c.post('/api/chat/send?channel=' + s.id, { channel: other.id, content: 'cross-session' }, bearer(s.keyA));
    expect(res.status).toBe(401);
    // Keyless, a query naming an open channel does not lift the seat-key rule of the session the body names.
    const keyless = await c.post('/api/chat/send?channel=lobby', { channel: other.id, from: 'mallory', content: 'x' });
    expect(keyless.status).toBe(401);
    expect((await c.get<{ count: number }>('/api/chat/sync', { query: { channel: other.id }, ...bearer(other.keyA) })).body.count).toBe(0);
  });

  it('keyless viewers still read, with every DM redacted', async () => {
    const s = await runningSeatGame();
    const log = (await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: s.id } })).body.messages;
    expect(log.length).toBeGreaterThan(0);
    expect(log.filter((m) => m.to !== undefined).every((m) => m.redacted === true && m.content === '')).toBe(true);
  });

  it('does not list or confirm the invites of a seat-key session to keyless callers', async () => {
    const s = await adminSession(server, true);
    const listed = await c.get<{ challenges: { id: string; invites: string[]; state: { players: string[] } }[] }>('/api/challenges', {
      query: { limit: 100 },
    });
    const mine = listed.body.challenges.find((x) => x.id === s.id);
    expect(mine).toBeDefined();
    expect(mine?.invites).toEqual([]);
    expect(JSON.stringify(listed.body)).not.toContain(s.a);
    const byType = await c.get('/api/challenges/psi', { query: { limit: 100 } });
    expect(byType.text).not.toContain(s.a);
    expect(byType.text).not.toContain(s.b);
    // Lookups answer as for an unknown invite; advertising it on the invites channel is refused the same way.
    const lookup = await c.get(`/api/invites/${s.a}`);
    expect(lookup.status).toBe(404);
    expect(lookup.body).toEqual({ error: `Challenge not found for invite: ${s.a}` });
    expect((await c.post('/api/invites', { inviteId: s.a })).status).toBe(404);
    expect((await c.get(`/api/invites/${s.a}`, bearer(s.keyB))).status).toBe(404);
    const feed = await c.get('/api/chat/sync', { query: { channel: 'invites' } });
    expect(feed.text).not.toContain(s.a);
    // The seat's own key still looks its invite up.
    const own = await c.get<{ id: string }>(`/api/invites/${s.a}`, bearer(s.keyA));
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(s.id);
    // Sessions without seat keys are listed with their invites, as in the reference.
    const open = await adminSession(server, false);
    const again = await c.get<{ challenges: { id: string; invites: string[] }[] }>('/api/challenges', { query: { limit: 100 } });
    expect(again.body.challenges.find((x) => x.id === open.id)?.invites).toEqual([open.a, open.b]);
  });
});

describe('open sessions keep the reference behaviour', () => {
  it('plays keyless with `from` (the reference CLI flow) and lets players chat', async () => {
    const created = await c.post<{ id: string; invites: string[] }>('/api/challenges/psi', {});
    const [a, b] = created.body.invites as [string, string];
    expect((await c.post('/api/arena/join', { invite: a, userId: 'alice' })).status).toBe(200);
    expect((await c.post('/api/arena/join', { invite: b, userId: 'bob' })).status).toBe(200);
    const sync = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: created.body.id, from: a } });
    expect(sync.body.messages.find((m) => m.to === a)?.content).toMatch(/^Your private set is/);
    expect((await c.post('/api/chat/send', { channel: created.body.id, from: a, content: "let's trade" })).status).toBe(200);
    expect((await c.post('/api/arena/message', { challengeId: created.body.id, from: a, messageType: 'guess', content: '1' })).status).toBe(
      200,
    );
    // `from=viewer` and no `from` remain "no identity".
    expect((await c.get('/api/arena/sync', { query: { channel: created.body.id, from: 'viewer' } })).status).toBe(200);
    expect((await c.post('/api/chat/send', { channel: created.body.id, from: 'viewer', content: 'x' })).body).toEqual({
      error: 'from is required',
    });
  });
});
