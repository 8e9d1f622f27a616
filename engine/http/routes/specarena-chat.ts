// Player chat and the SSE stream (spec §3.6, §3.7, decision 11(e)).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChatSendRequestSchema, type ChatSendResponse } from '../../contract/specarena.js';
import type { LiveEvent } from '../../core/live-bus.js';
import { redactFor } from '../../core/redaction.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { readBody } from '../body.js';
import type { ChatRouteDeps } from '../deps.js';
import { identityOf, syncQuery } from './request-identity.js';

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
  'X-Content-Type-Options': 'nosniff',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET',
  'Access-Control-Allow-Headers': 'Cache-Control, Last-Event-ID',
};

function cursorOf(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : null;
}

/** Resume cursor: Last-Event-ID or ?since=; when both are valid the larger wins. */
export function resumeCursor(req: FastifyRequest): number {
  const header = cursorOf(req.headers['last-event-id']);
  const query = cursorOf((req.query as Record<string, unknown>).since);
  return Math.max(header ?? 0, query ?? 0);
}

export function registerChatRoutes(app: FastifyInstance, deps: ChatRouteDeps): void {
  const { engine } = deps;

  app.post('/api/chat/send', async (req) => {
    const body = readBody(ChatSendRequestSchema, req.body);
    const from = identityOf(req, deps);
    if (from === null) throw new ArenaError(400, 'from is required');
    const message = engine.chatSend(body.channel, from, body.content, body.to);
    const response: ChatSendResponse = { index: message.index ?? 0, channel: message.channel, from: message.from, to: message.to ?? null };
    return response;
  });

  app.get('/api/chat/sync', async (req) => {
    const { channel, start } = syncQuery(req);
    const messages = engine.sync(channel, start, identityOf(req, deps));
    return { messages, count: messages.length };
  });

  app.get<{ Params: { channel: string } }>('/api/chat/ws/:channel', async (req, reply) => {
    const channel = req.params.channel;
    const viewer = identityOf(req, deps);
    const since = resumeCursor(req);
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, SSE_HEADERS);
    raw.flushHeaders();

    const write = (data: unknown, id?: number) => {
      if (!raw.writableEnded) raw.write(`data: ${JSON.stringify(data)}\n${id === undefined ? '' : `id: ${id}\n`}\n`);
    };
    // Snapshot and subscription happen in the same tick: nothing committed in between can be missed.
    const snapshot = engine.snapshot(channel, since, viewer);
    let unsubscribe = () => {};
    const close = () => {
      clearInterval(ping);
      unsubscribe();
      if (!raw.writableEnded) raw.end();
    };
    unsubscribe = deps.engine.live.subscribe(
      channel,
      (event: LiveEvent) => {
        if (event.type === 'new_message') write({ type: 'new_message', message: redactFor(event.message, viewer) }, event.message.index);
        else write({ type: 'game_ended', data: event.data });
      },
      close,
    );
    const lastIndex = snapshot.messages.at(-1)?.index;
    write({ type: 'initial', messages: snapshot.messages }, lastIndex);
    if (snapshot.ended) {
      const ids = Object.values(snapshot.ended.playerIdentities);
      write({ type: 'game_ended', data: { ...snapshot.ended, profiles: engine.users.getMany(ids) } });
    }
    const ping = setInterval(() => {
      if (!raw.writableEnded) raw.write(': ping\n\n');
    }, deps.pingIntervalMs ?? 30_000);
    ping.unref();
    req.raw.on('close', close);
  });
}
