// MCP tools over Streamable HTTP (spec §3.10, decision 11(i)); standalone mode only, stateless (one server per request).

import type { IncomingHttpHeaders } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { operatorChannel } from '../../core/redaction.js';
import type { ArenaEngine } from '../../protocols/specarena/arena-engine.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { type IdentityConfig, resolveIdentity } from '../../protocols/specarena/identity.js';
import { INVALID_JSON } from '../body.js';
import type { McpRouteDeps } from '../deps.js';

type ToolResult = { content: [{ type: 'text'; text: string }] };

/** Every result is one text item holding the engine's JSON; errors are ordinary results `{error, code}`. */
function run(fn: () => unknown): ToolResult {
  let value: unknown;
  try {
    value = fn();
  } catch (error) {
    if (!(error instanceof ArenaError)) throw error;
    value = { error: error.message, code: error.code };
  }
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/**
 * MCP's `from` is a plain argument, so tool calls go through the same identity rules as REST: a seat key in the
 * Authorization header decides the identity, and a seat-key session refuses keyless claims of its seats.
 */
type ToolIdentity = (args: Record<string, unknown>) => string | null;

function toolIdentity(engine: ArenaEngine, config: IdentityConfig, headers: IncomingHttpHeaders): ToolIdentity {
  return (args) => resolveIdentity(engine, config, { authorization: headers.authorization, query: {}, body: args, params: {} });
}

function arenaServer(engine: ArenaEngine, version: string, who: ToolIdentity): McpServer {
  const server = new McpServer({ name: 'local-arena', version }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool(
    'challenge_join',
    { description: 'Join a challenge session with an invite code.', inputSchema: { invite: z.string(), userId: z.string().optional() } },
    async ({ invite, userId }) =>
      run(() => {
        who({ invite });
        const joined = engine.join(invite, userId);
        return { ChallengeID: joined.session.id, ChallengeInfo: joined.metadata };
      }),
  );
  server.registerTool(
    'challenge_message',
    {
      description: 'Send an action (one of the challenge methods) to the challenge operator.',
      inputSchema: { challengeId: z.string(), from: z.string(), messageType: z.string(), content: z.string() },
    },
    async ({ challengeId, from, messageType, content }) =>
      run(() => {
        const sender = who({ from, challengeId });
        if (sender === null) throw new ArenaError(400, 'from is required');
        engine.message(challengeId, sender, messageType, content);
        return { ok: 'Message sent' };
      }),
  );
  server.registerTool(
    'challenge_sync',
    {
      description: 'Read operator messages of a session from an index on (channel is the bare session id).',
      inputSchema: { channel: z.string(), from: z.string(), index: z.number().int().min(0) },
    },
    async ({ channel, from, index }) =>
      run(() => {
        const messages = engine.sync(operatorChannel(channel), index, who({ from, channel }));
        return { messages, count: messages.length };
      }),
  );
  return server;
}

function chatServer(engine: ArenaEngine, version: string, who: ToolIdentity): McpServer {
  const server = new McpServer({ name: 'local-arena', version }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool(
    'send_chat',
    {
      description: 'Send a chat message to a channel; set `to` for a private message.',
      inputSchema: { channel: z.string(), from: z.string(), to: z.string().nullable().optional(), content: z.string() },
    },
    async ({ channel, from, to, content }) =>
      run(() => {
        const sender = who({ from, channel });
        if (sender === null) throw new ArenaError(400, 'from is required');
        const message = engine.chatSend(channel, sender, content, to);
        return { index: message.index, channel: message.channel, from: message.from, to: message.to ?? null };
      }),
  );
  server.registerTool(
    'sync',
    {
      description: 'Read chat messages of a channel from an index on.',
      inputSchema: { channel: z.string(), from: z.string(), index: z.number().int().min(0) },
    },
    async ({ channel, from, index }) =>
      run(() => {
        const messages = engine.sync(channel, index, who({ from, channel }));
        return { messages, count: messages.length };
      }),
  );
  return server;
}

export async function registerMcpRoutes(app: FastifyInstance, deps: McpRouteDeps): Promise<void> {
  const endpoint = (build: (who: ToolIdentity) => McpServer) => async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method !== 'POST') {
      return reply
        .code(405)
        .header('Allow', 'POST')
        .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
    }
    const server = build(toolIdentity(deps.engine, deps.identity, req.headers));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body === INVALID_JSON ? undefined : req.body);
  };
  app.all(
    '/api/arena/mcp',
    endpoint((who) => arenaServer(deps.engine, deps.version, who)),
  );
  app.all(
    '/api/chat/mcp',
    endpoint((who) => chatServer(deps.engine, deps.version, who)),
  );
}
