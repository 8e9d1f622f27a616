// A real HTTP server on 127.0.0.1:0 that speaks just enough OpenAI chat-completions and Anthropic Messages to be
// scripted: each request gets the next scripted reply (status, body, headers, delay), and every request is recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  /** Raw body; objects are sent as JSON. */
  body: unknown;
  /** Wait this long before answering (a slow model). */
  delayMs?: number;
  /** Answer only once this settles (a model still thinking when something else happens). */
  hold?: Promise<void>;
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeModelServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:1234 */
  url: string;
  requests: RecordedRequest[];
  /** `GET …/models` requests answered so far. */
  readonly listings: number;
  /** Scripted requests being answered right now, and the most there ever were at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/** GET routes answered as JSON (e.g. llama.cpp's `/props`, `/v1/models`); other GETs get a 404. */
export interface FakeServerOptions {
  /** The model ids `GET …/models` lists (default: fake-model). */
  models?: readonly string[];
  /** Answers to other GETs by path. */
  get?: Record<string, unknown>;
  /** A fixed port, to start a server again where a stopped one was. */
  port?: number;
}

export type Script = (request: RecordedRequest, index: number) => ScriptedReply;

/**
 * `options.models`: what `GET …/models` lists (the engine's preflight asks it before a run); those requests are answered
 * apart from the script and counted in `listings`, so scripts index chat requests only. Other GETs are discovery and
 * capacity probes (the engine asks /props once per server), never model calls: answered from `options.get` or 404, as
 * a server without that route would, and neither scripted nor recorded. `options.port` reuses a port (a restart).
 */
export async function startFakeModelServer(script: Script, options: FakeServerOptions = {}): Promise<FakeModelServer> {
  const models = options.models ?? ['fake-model'];
  const requests: RecordedRequest[] = [];
  let listings = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      const fixed = options.get?.[req.url ?? ''];
      if (fixed === undefined && /\/models$/.test(req.url ?? '')) {
        listings++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
        return;
      }
      res.writeHead(fixed === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fixed ?? { error: 'not found' }));
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let counted = true;
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    res.on('close', done);
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        // Recorded as empty: the scripts only look at well-formed requests.
      }
      const recorded: RecordedRequest = { path: req.url ?? '', headers: req.headers, body };
      const index = requests.push(recorded) - 1;
      const reply = script(recorded, index);
      const send = () => {
        if (res.destroyed) return;
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(text);
      };
      if (reply.hold) void reply.hold.then(send);
      else if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    get listings() {
      return listings;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let completionCounter = 0;

/** An OpenAI chat-completions answer with `content` and the given usage. */
export function openAiReply(content: string, promptTokens = 100, completionTokens = 20): ScriptedReply {
  return {
    body: {
      id: `chatcmpl-${++completionCounter}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    },
  };
}

/** An Anthropic Messages answer with `text` and the given usage. */
export function anthropicReply(text: string, inputTokens = 100, outputTokens = 20): ScriptedReply {
  return {
    body: {
      id: `msg_${++completionCounter}`,
      type: 'message',
      role: 'assistant',
      model: 'fake-claude',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    },
  };
}

export function errorReply(status: number, headers: Record<string, string> = {}): ScriptedReply {
  return { status, headers, body: { error: { message: `scripted ${status}`, type: 'scripted_error' } } };
}

/** The text of the last user message of a chat-completions or Messages request. */
export function lastUserText(request: RecordedRequest): string {
  const messages = (request.body.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
}
