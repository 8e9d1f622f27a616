// Player chat and the SSE stream (spec §3.6, §3.7, decision 11(e)).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChatSendRequestSchema, type ChatSendResponse } from '../../contract/specarena.js';
import type { LiveEvent } from '../../core/live-bus.js';
import { redactFor } from '../../core/redaction.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import { readBody } from '../body.js';
import type { ChatRouteDeps } from '../deps.js';
import { openSse } from '../sse.js';
import { identityOf, syncQuery } from './request-identity.js';

/** The SpecArena stream is public (spec §3.7): any origin may read it. */
const PUBLIC_STREAM_HEADERS = {
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

  app.post('/api/chat/send', (req) => {
    const body = readBody(ChatSendRequestSchema, req.body);
    const from = identityOf(req, deps);
    if (from === null) throw new ArenaError(400, 'from is required');
    const message = engine.chatSend(body.channel, from, body.content, body.to);
    const response: ChatSendResponse = { index: message.index ?? 0, channel: message.channel, from: message.from, to: message.to ?? null };
    return response;
  });

  app.get('/api/chat/sync', (req) => {
    const { channel, start } = syncQuery(req);
    const messages = engine.sync(channel, start, identityOf(req, deps));
    return { messages, count: messages.length };
  });

  app.get<{ Params: { channel: string } }>('/api/chat/ws/:channel', async (req, reply) => {
    const channel = req.params.channel;
    const viewer = identityOf(req, deps);
    const since = resumeCursor(req);
    // `?until=ended` (a Local Arena extension): the stream ends once it has sent game_ended, so a player's
    // connection goes back to its keep-alive pool instead of being torn down. Without it the stream stays open (spec).
    const untilEnded = (req.query as Record<string, unknown>).until === 'ended';
    const stream = openSse(req, reply, { pingMs: deps.pingIntervalMs ?? 30_000, headers: PUBLIC_STREAM_HEADERS });
    // Snapshot and subscription happen in the same tick: nothing committed in between can be missed.
    const snapshot = engine.snapshot(channel, since, viewer);
    const unsubscribe = deps.engine.live.subscribe(
      channel,
      (event: LiveEvent) => {
        if (event.type === 'new_message')
          stream.send({ type: 'new_message', message: redactFor(event.message, viewer) }, { id: event.message.index });
        else {
          stream.send({ type: 'game_ended', data: event.data });
          if (untilEnded) stream.close();
        }
      },
      stream.close,
    );
    stream.onClose(unsubscribe);
    stream.send({ type: 'initial', messages: snapshot.messages }, { id: snapshot.messages.at(-1)?.index });
    if (snapshot.ended) {
      const ids = Object.values(snapshot.ended.playerIdentities);
      stream.send({ type: 'game_ended', data: { ...snapshot.ended, profiles: engine.users.getMany(ids) } });
      if (untilEnded) stream.close();
    }
  });
}
