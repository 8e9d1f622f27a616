// The forward of a plain-http model server speaks HTTP rather than piping bytes: each request the sandboxed agent
// sends waits for a slot of the server's gate (model-gate.ts), goes out on the engine's own connection, and frees the
// slot when its response has ended or either side gave up. Requests are the unit a server's capacity counts; a
// kept-alive connection can carry many, and an idle one must not hold a slot. Every call is handed to the launch's
// recorder; a replayed launch is answered from the record instead, and the server is never contacted.
import http from 'node:http';
import type { ModelCallRecord } from '../contract/model-call.js';
import type { ModelGate } from './model-gate.js';

/** Bytes of one request body the proxy accepts from an agent (a chat request is a few hundred KB at most). */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** Bytes of one response body kept in the record (the answer itself always passes whole). */
const MAX_RECORDED_RESPONSE_BYTES = 1024 * 1024;

/** A recorded answer served in place of the server's. */
export interface ReplayedAnswer {
  status: number;
  body: unknown;
}

export interface ModelCallHooks {
  /** Sees every call as it starts (its request read), then the same object again in `record` once it has ended. */
  started?(call: ModelCallRecord): void;
  /** Sees every call once it has ended (answered or not). */
  record?(call: ModelCallRecord): void;
  /** Answers the call (the seq-th of this launch) from a record; the gate and the server are skipped. */
  replay?(seq: number, request: unknown): ReplayedAnswer;
  /** model.yaml `cache: true`: the call's key, and the answer an identical earlier call got (then the server is skipped). */
  cache?: ModelCacheHooks;
}

export interface ModelCacheHooks {
  keyOf(seq: number, path: string, request: unknown): string;
  lookup(key: string): ReplayedAnswer | undefined;
}

const upstreamAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 64 });

export function modelProxyServer(target: { host: string; port: number }, gate: ModelGate, hooks: ModelCallHooks = {}): http.Server {
  let seq = 0;
  const server = http.createServer((req, res) => {
    void forward(req, res, target, gate, hooks, () => seq++);
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
  hooks: ModelCallHooks,
  nextSeq: () => number,
): Promise<void> {
  // The body is read before a slot is taken: a slow or stalled sender must not hold the server's capacity.
  const body = await readBody(req);
  if (body === null) {
    if (!res.headersSent) res.writeHead(413, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `request body over ${MAX_REQUEST_BYTES} bytes` } }));
    return;
  }
  if (res.destroyed) return;
  const seq = nextSeq();
  const call: ModelCallRecord = {
    seq,
    server: `${target.host}:${target.port}`,
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    request: parsed(body),
    status: null,
    response: null,
    latency_ms: 0,
    queued_ms: 0,
    started_at: Date.now(),
  };
  hooks.started?.(call);
  if (hooks.replay) {
    const answer = hooks.replay(seq, call.request);
    serveRecorded(res, answer.status, answer.body);
    hooks.record?.({ ...call, status: answer.status, response: answer.body, replayed: true });
    return;
  }
  if (hooks.cache) {
    call.cache_key = hooks.cache.keyOf(seq, call.path, call.request);
    const hit = hooks.cache.lookup(call.cache_key);
    if (hit) {
      // The agent is told no tokens were spent (the model was not asked), so no usage or cost is counted twice.
      serveRecorded(res, hit.status, withoutUsage(hit.body));
      hooks.record?.({ ...call, status: hit.status, response: hit.body, cached: true });
      return;
    }
  }
  const { release, queuedMs } = await gate.acquire();
  call.queued_ms = Math.round(queuedMs);
  call.capacity = gate.stats.capacity;
  if (res.destroyed) {
    release();
    hooks.record?.(call);
    return;
  }
  const sent = performance.now();
  const chunks: Buffer[] = [];
  let kept = 0;
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    release();
    call.latency_ms = Math.round(performance.now() - sent);
    if (call.status !== null) call.response = parsed(Buffer.concat(chunks));
    hooks.record?.(call);
  };
  const headers = { ...req.headers, host: `${target.host}:${target.port}`, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  const upstream = http.request({ host: target.host, port: target.port, method: req.method, path: req.url, headers, agent: upstreamAgent });
  let agentGaveUp = false;
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    // No answer at all, and not because the agent hung up first: the engine itself saw the server unreachable, which
    // is what blame by cause trusts (an agent's own word that its server is down could void any game it is losing).
    if (call.status === null && !agentGaveUp) call.unreachable = error.code ?? error.message;
    end();
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: `the model server ${call.server} could not be reached (${error.code ?? error.message})` } }),
      );
    } else res.destroy();
  });
  upstream.on('response', (answer) => {
    call.status = answer.statusCode ?? null;
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.on('data', (chunk: Buffer) => {
      if (kept < MAX_RECORDED_RESPONSE_BYTES) chunks.push(chunk);
      kept += chunk.length;
    });
    answer.pipe(res);
    answer.on('end', end);
    answer.on('error', () => {
      end();
      res.destroy();
    });
  });
  // The agent gave up (its request timeout, or it exited): the server's slot is freed with it.
  res.on('close', () => {
    if (!res.writableFinished) {
      agentGaveUp = true;
      upstream.destroy();
    }
    end();
  });
  upstream.end(body);
}

function serveRecorded(res: http.ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The answer with every token count of its `usage` zeroed (OpenAI's and Anthropic's shapes alike). */
function withoutUsage(body: unknown): unknown {
  const usage = typeof body === 'object' && body !== null ? (body as { usage?: unknown }).usage : undefined;
  if (typeof usage !== 'object' || usage === null) return body;
  const zeroed = Object.fromEntries(Object.entries(usage).map(([k, v]) => [k, typeof v === 'number' ? 0 : v]));
  return { ...(body as object), usage: zeroed };
}

/** JSON when it parses, else the text (a server's error page, a cut body). */
function parsed(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
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
