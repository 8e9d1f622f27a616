// Acceptance 10: the MCP endpoints (spec §3.10, decision 11(i)) through the official client over Streamable HTTP.
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage } from '../../../engine/contract/specarena.js';
import { type Client, client } from '../../support/http.js';
import { createSession, intersect, parsePrivateSet } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let c: Client;
const clients: McpClient[] = [];

async function connect(path: string): Promise<McpClient> {
  const mcp = new McpClient({ name: 'arena-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(path, server.url)));
  clients.push(mcp);
  return mcp;
}

/** Tool results are one text item holding JSON (spec §3.10); `isError` is never used. */
async function call<T>(mcp: McpClient, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await mcp.callTool({ name, arguments: args });
  expect(result.isError ?? false).toBe(false);
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe('text');
  return JSON.parse(content[0]?.text ?? 'null') as T;
}

beforeAll(async () => {
  server = await startTestServer();
  c = client(server.url);
});
afterAll(async () => {
  for (const mcp of clients) await mcp.close();
  await server?.close();
});

describe('MCP', () => {
  it('lists the tools of both endpoints and identifies as Local Arena', async () => {
    const arena = await connect('/api/arena/mcp');
    expect(arena.getServerVersion()?.name).toBe('local-arena');
    expect((await arena.listTools()).tools.map((t) => t.name).sort()).toEqual(['challenge_join', 'challenge_message', 'challenge_sync']);
    const chat = await connect('/api/chat/mcp');
    expect((await chat.listTools()).tools.map((t) => t.name).sort()).toEqual(['send_chat', 'sync']);
    const alias = await connect('/api/v1/chat/mcp');
    expect((await alias.listTools()).tools.map((t) => t.name).sort()).toEqual(['send_chat', 'sync']);
    const joinTool = (await arena.listTools()).tools.find((t) => t.name === 'challenge_join');
    expect(joinTool?.inputSchema.required).toEqual(['invite']);
    // As the reference: closed argument objects, and every argument described for the agents that read them.
    for (const tool of [...(await arena.listTools()).tools, ...(await chat.listTools()).tools]) {
      const schema = tool.inputSchema as { additionalProperties?: unknown; properties?: Record<string, { description?: string }> };
      expect({ tool: tool.name, additionalProperties: schema.additionalProperties }).toEqual({
        tool: tool.name,
        additionalProperties: false,
      });
      const properties = Object.entries(schema.properties ?? {});
      expect(properties.length).toBeGreaterThan(0);
      for (const [name, property] of properties) expect(property.description, `${tool.name}.${name}`).toMatch(/\w{3,}/);
    }
    const sendChat = (await chat.listTools()).tools.find((t) => t.name === 'send_chat');
    const sendChatArgs = (sendChat?.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
    expect(sendChatArgs.to?.type).toEqual(['string', 'null']);
  });

  it('plays a PSI game through challenge_join, challenge_sync, challenge_message and chat tools', async () => {
    const arena = await connect('/api/arena/mcp');
    const chat = await connect('/api/chat/mcp');
    const s = await createSession(c);
    const [a, b] = s.invites as [string, string];

    const joinedA = await call<{ ChallengeID: string; ChallengeInfo: { name: string } }>(arena, 'challenge_join', {
      invite: a,
      userId: 'mcp-a',
    });
    expect(joinedA.ChallengeID).toBe(s.id);
    expect(joinedA.ChallengeInfo.name).toBe('Private Set Intersection');
    await call(arena, 'challenge_join', { invite: b, userId: 'mcp-b' });
    // Errors are ordinary results carrying {error, code}.
    expect(await call(arena, 'challenge_join', { invite: a })).toEqual({
      error: 'This invite has already been used.',
      code: 'INVITE_ALREADY_USED',
    });
    expect(await call(arena, 'challenge_join', { invite: 'inv_nope' })).toMatchObject({
      error: 'Challenge not found for invite: inv_nope',
    });

    const setOf = async (invite: string) => {
      const synced = await call<{ messages: ChatMessage[]; count: number }>(arena, 'challenge_sync', {
        channel: s.id,
        from: invite,
        index: 0,
      });
      expect(synced.count).toBe(synced.messages.length);
      const set = synced.messages.map((m) => (m.to === invite ? parsePrivateSet(m.content) : undefined)).find((x) => x !== undefined);
      if (!set) throw new Error('no set DM');
      return set;
    };
    const setA = await setOf(a);
    const setB = await setOf(b);
    // As a viewer, both DMs are redacted.
    const viewer = await call<{ messages: ChatMessage[] }>(arena, 'challenge_sync', { channel: s.id, from: 'viewer', index: 0 });
    expect(viewer.messages.every((m) => m.redacted === true)).toBe(true);

    expect(await call(chat, 'send_chat', { channel: s.id, from: a, content: 'hi via mcp' })).toEqual({
      index: 1,
      channel: s.id,
      from: a,
      to: null,
    });
    // An explicit null broadcasts too; an argument the schema does not list is dropped, not refused (as zod strips it).
    expect(await call(chat, 'send_chat', { channel: s.id, from: a, to: null, content: 'null to', mood: 'x' })).toEqual({
      index: 2,
      channel: s.id,
      from: a,
      to: null,
    });
    expect(await call(chat, 'send_chat', { channel: s.id, from: b, to: a, content: 'dm via mcp' })).toEqual({
      index: 3,
      channel: s.id,
      from: b,
      to: a,
    });
    const chatView = await call<{ messages: ChatMessage[] }>(chat, 'sync', { channel: s.id, from: a, index: 3 });
    expect(chatView.messages.map((m) => m.content)).toEqual(['dm via mcp']);

    const target = intersect(setA, setB);
    expect(
      await call(arena, 'challenge_message', { challengeId: s.id, from: a, messageType: 'guess', content: target.join(', ') }),
    ).toEqual({ ok: 'Message sent' });
    expect(await call(arena, 'challenge_message', { challengeId: s.id, from: b, messageType: 'dance', content: 'x' })).toMatchObject({
      code: 'UNKNOWN_METHOD',
    });
    expect(
      await call(arena, 'challenge_message', { challengeId: s.id, from: b, messageType: 'guess', content: target.join(', ') }),
    ).toEqual({ ok: 'Message sent' });

    const ops = await call<{ messages: ChatMessage[] }>(arena, 'challenge_sync', { channel: s.id, from: 'viewer', index: 0 });
    expect(ops.messages.at(-1)?.content.startsWith('Game ended.')).toBe(true);
    // REST agrees.
    const ended = await c.get<{ challenges: Challenge[] }>('/api/challenges', { query: { status: 'ended' } });
    const done = ended.body.challenges.find((x) => x.id === s.id);
    expect(done?.state.playerIdentities).toEqual({ [a]: 'mcp-a', [b]: 'mcp-b' });
    expect(done?.state.scores).toEqual([
      { security: 1, utility: 1 },
      { security: 1, utility: 1 },
    ]);
  });

  it('rejects tool arguments of the wrong type without touching state', async () => {
    const arena = await connect('/api/arena/mcp');
    const result = await arena.callTool({ name: 'challenge_sync', arguments: { channel: 'x', from: 'y', index: -1 } });
    // The SDK reports argument validation failures as an error result (or a JSON-RPC error, depending on version).
    expect(result.isError).toBe(true);
  });

  it('answers GET on the MCP paths with 405 and refuses plain JSON without the streaming Accept header', async () => {
    for (const path of ['/api/arena/mcp', '/api/chat/mcp', '/api/v1/arena/mcp']) {
      const res = await fetch(`${server.url}${path}`, { headers: { accept: 'text/event-stream' } });
      expect({ path, status: res.status }).toEqual({ path, status: 405 });
      await res.body?.cancel();
    }
    const res = await c.post(
      '/api/arena/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { headers: { accept: 'application/json' } },
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
