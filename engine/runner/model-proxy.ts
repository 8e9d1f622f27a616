// The forward of a plain-http model server speaks HTTP rather than piping bytes: each request the sandboxed agent
// sends waits for a slot of the server's gate (model-gate.ts), goes out on the engine's own connection, and frees the
// slot when its response has ended or either side gave up. Requests are the unit a server's capacity counts; a kept-alive
// connection can carry many, and an idle one must not hold a slot.
import http from 'node:http';
import type { ModelGate } from './model-gate.js';

/** Bytes of one request body the proxy accepts from an agent (a chat request is a few hundred KB at most). */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

const upstreamAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 64 });

export function modelProxyServer(target: { host: string; port: number }, gate: ModelGate): http.Server {
  const server = http.createServer((req, res) => {
    void forward(req, res, target, gate);
  });
  // A model can think for minutes; the agent's own timeouts end a request, not the proxy's.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  return server;
}

async function forward(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: { host: string; port: number },
  gate: ModelGate,
): Promise<void> {
  // The body is read before a slot is taken: a slow or stalled sender must not hold the server's capacity.
  const body = await readBody(req);
  if (body === null) {
    if (!res.headersSent) res.writeHead(413, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `request body over ${MAX_REQUEST_BYTES} bytes` } }));
    return;
  }
  if (res.destroyed) return;
  const { release } = await gate.acquire();
  if (res.destroyed) {
    release();
    return;
  }
  const headers = { ...req.headers, host: `${target.host}:${target.port}`, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  const upstream = http.request({ host: target.host, port: target.port, method: req.method, path: req.url, headers, agent: upstreamAgent });
  const fail = (): void => {
    release();
    upstream.destroy();
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'the model server closed the connection' } }));
    } else res.destroy();
  };
  upstream.on('error', fail);
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
    answer.on('end', release);
    answer.on('error', fail);
  });
  // The agent gave up (its request timeout, or it exited): the server's slot is freed with it.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
    release();
  });
  upstream.end(body);
}

function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_REQUEST_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', () => resolve(null));
  });
}
