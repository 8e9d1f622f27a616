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

/**
 * A tool's arguments as the reference publishes them: every argument described (language-model agents read these)
 * and `additionalProperties: false` in the listed schema, while unknown arguments are still dropped, not refused.
 */
function toolArgs<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape).meta({ additionalProperties: false });
}

const channelArg = z.string().describe('The session id (a UUID) whose channel is read or written');
const fromArg = z.string().describe("The sender's user id: the invite code you joined with");
const indexArg = z.number().int().min(0).describe('Return the messages from this index on (0 for all)');

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
    {
      description: 'Join a challenge session with an invite code.',
      inputSchema: toolArgs({
        invite: z.string().describe('The invite code that seats you in the session'),
        userId: z.string().optional().describe('Optional: a persistent user identity to credit the result to'),
      }),
    },
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
      inputSchema: toolArgs({
        challengeId: z.string().describe('The id of the session you joined (ChallengeID)'),
        from: fromArg,
        messageType: z.string().describe("The method to call, one of the challenge's methods (e.g. guess)"),
        content: z.string().describe("The method's argument, always as a string"),
      }),
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
      inputSchema: toolArgs({ channel: channelArg, from: fromArg, index: indexArg }),
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
      inputSchema: toolArgs({
        channel: channelArg,
        from: fromArg,
        to: z.string().nullable().optional().describe('The recipient user id for a private message; omit it or send null to broadcast'),
        content: z.string().describe('The text of the message'),
      }),
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
      inputSchema: toolArgs({ channel: channelArg, from: fromArg, index: indexArg }),
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
