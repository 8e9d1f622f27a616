// Seat keys hold on every surface: MCP tools (where `from` is a plain argument) and auth-mode joins.
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../engine/contract/specarena.js';
import { type Client, client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const servers: TestServer[] = [];
const clients: McpClient[] = [];
afterAll(async () => {
  for (const mcp of clients) await mcp.close();
  for (const s of servers) await s.close();
});

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

async function seatSession(c: Client, token: string) {
  const res = await c.post<{ session: { id: string; invites: string[] }; seatKeys: string[] }>(
    '/admin/api/v1/sessions',
    { challengeType: 'psi', seatKeys: true },
    bearer(token),
  );
  expect(res.status, res.text).toBe(200);
  const [a, b] = res.body.session.invites as [string, string];
  const [keyA, keyB] = res.body.seatKeys as [string, string];
  return { id: res.body.session.id, a, b, keyA, keyB };
}

async function mcpAs(server: TestServer, key?: string): Promise<McpClient> {
  const mcp = new McpClient({ name: 'seat-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await mcp.connect(new StreamableHTTPClientTransport(new URL('/api/arena/mcp', server.url), { requestInit: { headers } }));
  clients.push(mcp);
  return mcp;
}

async function tool<T>(mcp: McpClient, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await mcp.callTool({ name, arguments: args });
  return JSON.parse((result.content as { text: string }[])[0]?.text ?? 'null') as T;
}

describe('seat keys over MCP', () => {
  let server: TestServer;
  let c: Client;
  beforeAll(async () => {
    server = await startTestServer();
    servers.push(server);
    c = client(server.url);
  });

  it('refuses keyless joins and claims of a seat-key session, and acts as the key holder whatever `from` says', async () => {
    const s = await seatSession(c, server.token);
    const anonymous = await mcpAs(server);
    expect(await tool(anonymous, 'challenge_join', { invite: s.a })).toEqual({ error: 'Authentication required' });

    const asA = await mcpAs(server, s.keyA);
    expect(await tool(asA, 'challenge_join', { invite: s.a })).toMatchObject({ ChallengeID: s.id });
    // Key A cannot take seat B.
    expect(await tool(asA, 'challenge_join', { invite: s.b })).toEqual({ error: 'Authentication required' });
    expect(await tool(await mcpAs(server, s.keyB), 'challenge_join', { invite: s.b })).toMatchObject({ ChallengeID: s.id });

    // A plain claim of seat B without its key is refused; with key A, `from: B` acts as A.
    expect(await tool(anonymous, 'challenge_message', { challengeId: s.id, from: s.b, messageType: 'guess', content: '100' })).toEqual({
      error: 'Authentication required',
    });
    expect(await tool(asA, 'challenge_message', { challengeId: s.id, from: s.b, messageType: 'guess', content: '100' })).toEqual({
      ok: 'Message sent',
    });
    const log = await tool<{ messages: ChatMessage[] }>(asA, 'challenge_sync', { channel: s.id, from: s.b, index: 0 });
    expect(log.messages.find((m) => m.to === 'operator' && m.content === '(guess) 100')?.from).toBe(s.a);
    // Seat B's private set stays redacted to A even though A claimed to be B.
    expect(log.messages.find((m) => m.to === s.b && m.from === 'operator')).toMatchObject({ content: '', redacted: true });
  });
});

describe('seat keys in auth mode', () => {
  it('lets a seat-key holder join without a signature and refuses a keyless join of a seat-key invite', async () => {
    const server = await startTestServer({ authMode: true });
    servers.push(server);
    const c = client(server.url);
    const s = await seatSession(c, server.token);
    const keyless = await c.post('/api/arena/join', { invite: s.a });
    expect(keyless.status).toBe(401);
    expect(keyless.body).toEqual({ error: 'Authentication required' });
    const joined = await c.post<{ ChallengeID: string }>('/api/arena/join', { invite: s.a }, bearer(s.keyA));
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.ChallengeID).toBe(s.id);
    const wrongSeat = await c.post('/api/arena/join', { invite: s.b }, bearer(s.keyA));
    expect(wrongSeat.status).toBe(401);
    const sync = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: s.id, index: 0 }, ...bearer(s.keyA) });
    expect(sync.body.messages.find((m) => m.to === s.a)?.content).toMatch(/^Your private set is/);
  });
});
