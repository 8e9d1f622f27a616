// `/ws/watcher/`: the ClawArena watcher's WebSocket (CLAWARENA_TRANSPORT=ws). The upgrade passes the same loopback
// Host check as every route (and, on the main listener, the same Origin check); the first frame must be
// `{"type":"auth","token":"<connection token>"}` within 10 s. Frames are JSON text; see watcher-feed.ts for what the
// server pushes. Client frames: `ping` (answered `pong`), `wake_ack` (noted), anything else an `error` frame.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import type { ClawArenaService } from '../protocols/clawarena/service.js';
import { isAllowedOrigin, isLoopbackHost } from './guards.js';

export const WATCHER_PATHS = new Set(['/ws/watcher/', '/ws/watcher']);
const AUTH_TIMEOUT_MS = 10_000;
/** A watcher frame is a few hundred bytes; anything larger is refused by the ws package (close 1009). */
const MAX_FRAME_BYTES = 16 * 1024;

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const body = JSON.stringify({ status: 'error', code: status === 403 ? 'forbidden' : 'not_found', message: reason });
  socket.end(
    `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function parseFrame(data: WebSocket.RawData): Record<string, unknown> | null {
  try {
    const value = JSON.parse(data.toString());
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export function attachWatcherSocket(app: FastifyInstance, service: ClawArenaService, options: { checkOrigin: boolean }): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (!WATCHER_PATHS.has(path)) return refuseUpgrade(socket, 404, 'no WebSocket at this path');
    if (!isLoopbackHost(req.headers.host)) return refuseUpgrade(socket, 403, 'Host header must name a loopback address');
    // Browsers open WebSockets cross-origin without CORS, so the Origin check matters even more here.
    if (options.checkOrigin && !isAllowedOrigin(req.headers.origin, req.headers.host)) {
      return refuseUpgrade(socket, 403, 'Cross-origin requests are not allowed');
    }
    if (!options.checkOrigin && req.headers.origin !== undefined && !isLoopbackOrigin(req.headers.origin)) {
      return refuseUpgrade(socket, 403, 'Cross-origin requests are not allowed');
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, req));
  });

  function serve(ws: WebSocket, req: IncomingMessage): void {
    const abort = new AbortController();
    const send = (frame: Record<string, unknown>) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
    };
    let auth: ReturnType<ClawArenaService['authenticate']> = null;
    const authTimer = setTimeout(() => {
      send({ type: 'error', code: 'unauthorized', message: 'not authenticated: send {"type":"auth","token":…} first' });
      ws.close(4401, 'unauthorized');
    }, AUTH_TIMEOUT_MS);
    ws.on('close', () => {
      clearTimeout(authTimer);
      abort.abort();
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      const frame = parseFrame(data);
      if (!frame) return send({ type: 'error', code: 'invalid_payload', message: 'frames are JSON objects' });
      if (!auth) {
        // A bearer header on the upgrade works too (BYO clients); the public watcher sends an auth frame.
        const token = typeof frame.token === 'string' ? `Bearer ${frame.token}` : req.headers.authorization;
        auth = frame.type === 'auth' ? service.authenticate(token) : null;
        if (!auth) {
          send({ type: 'error', code: 'unauthorized', message: 'invalid token' });
          ws.close(4401, 'unauthorized');
          return;
        }
        clearTimeout(authTimer);
        send(service.watcherFeed.hello(auth));
        service.watcherFeed.run(auth, send, abort.signal).catch(() => ws.terminate());
        return;
      }
      service.watcherFeed.touch(auth);
      if (frame.type === 'ping') return send({ type: 'pong' });
      if (frame.type === 'wake_ack' || frame.type === 'auth') return;
      send({ type: 'error', code: 'invalid_payload', message: `unknown frame type ${String(frame.type)}` });
    });
  }

  app.addHook('onClose', async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.host);
  } catch {
    return false;
  }
}
