// Live updates: an SSE reader over fetch streaming (EventSource cannot resume from a chosen id across origins),
// resuming after a drop with Last-Event-ID so no chat message is missed or shown twice.
import { type SseEvent, SseEventSchema } from '../../../engine/contract/specarena.js';
import type { FetchFn } from './client.js';

export interface SseFrame {
  /** The stream's last event id when this frame was dispatched (ids persist across frames, per the SSE spec). */
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Incremental text/event-stream parser (WHATWG "interpreting an event stream"): frames may span chunks and a chunk
 * may hold several frames; CRLF, LF and CR line ends; comments (": ping") ignored; `retry` reported separately.
 */
export class SseParser {
  private pending = '';
  private skipLeadingLf = false;
  private started = false;
  private data: string[] = [];
  private eventType = '';
  private lastEventId: string | undefined;

  constructor(
    private readonly onFrame: (frame: SseFrame) => void,
    private readonly onRetry: (ms: number) => void = () => {},
  ) {}

  push(chunk: string): void {
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR at the end of the previous chunk may be the first half of a CRLF.
    if (this.skipLeadingLf && text.startsWith('\n')) text = text.slice(1);
    this.skipLeadingLf = text.endsWith('\r');
    const lines = (this.pending + text).replace(/\r\n|\r/g, '\n').split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  /** End of stream: an unterminated frame is discarded, as the spec requires. */
  end(): void {
    this.pending = '';
    this.data = [];
    this.eventType = '';
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.onFrame({ id: this.lastEventId, event: this.eventType || 'message', data: this.data.join('\n') });
      this.data = [];
      this.eventType = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.onRetry(Number(value));
        break;
      default:
        break;
    }
  }
}

/** Parses whole chunks at once; used by tests and handy for replaying a recorded stream. */
export function parseSseChunks(chunks: readonly string[]): SseFrame[] {
  const frames: SseFrame[] = [];
  const parser = new SseParser((frame) => frames.push(frame));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return frames;
}

/** Turns a frame into a contract event; frames that do not match are dropped rather than crashing the view. */
export function decodeSseEvent(frame: SseFrame): SseEvent | null {
  try {
    const parsed = SseEventSchema.safeParse(JSON.parse(frame.data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type ResumeVia = 'header' | 'query';

/**
 * The stream request. Same-origin pages resume with the Last-Event-ID header; the desktop shell (a different origin)
 * uses the equivalent `?since=` so the request stays "simple" and needs no CORS pre-flight.
 */
export function liveStreamRequest(baseUrl: string, channel: string, lastEventId: string | undefined, resumeVia: ResumeVia) {
  const url = new URL(`/api/chat/ws/${encodeURIComponent(channel)}`, baseUrl);
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (lastEventId !== undefined && lastEventId !== '') {
    if (resumeVia === 'header') headers['Last-Event-ID'] = lastEventId;
    else url.searchParams.set('since', lastEventId);
  }
  return { url: url.href, headers };
}

export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface LiveStreamOptions {
  baseUrl: string;
  channel: string;
  onEvent: (event: SseEvent) => void;
  onStatus?: (status: LiveStatus) => void;
  resumeVia?: ResumeVia;
  lastEventId?: string;
  fetchImpl?: FetchFn;
  /** Delay before reconnect attempt n (1-based). */
  retryDelay?: (attempt: number, serverRetryMs: number | undefined) => number;
}

export interface LiveStream {
  close(): void;
  lastEventId(): string | undefined;
}

export function defaultRetryDelay(attempt: number, serverRetryMs: number | undefined): number {
  const base = serverRetryMs ?? 1000;
  return Math.min(15_000, base * 2 ** Math.max(0, attempt - 1));
}

/** Any event stream: the request is rebuilt for every (re)connect from the last event id seen. */
export interface SseStreamOptions {
  /** `credentials`: 'same-origin' for an admin stream (the session cookie); agent-facing streams omit them. */
  request: (lastEventId: string | undefined) => { url: string; headers: Record<string, string>; credentials?: 'omit' | 'same-origin' };
  onFrame: (frame: SseFrame) => void;
  onStatus?: ((status: LiveStatus) => void) | undefined;
  lastEventId?: string | undefined;
  fetchImpl?: FetchFn | undefined;
  retryDelay?: ((attempt: number, serverRetryMs: number | undefined) => number) | undefined;
}

/** Reads an event stream until closed, reconnecting with backoff whenever it drops or cannot connect. */
export function openSseStream(options: SseStreamOptions): LiveStream {
  const doFetch: FetchFn = options.fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  const retryDelay = options.retryDelay ?? defaultRetryDelay;
  const controller = new AbortController();
  let lastEventId = options.lastEventId;
  let serverRetry: number | undefined;
  let closed = false;
  let connected = false;

  const status = (s: LiveStatus) => {
    if (!closed || s === 'closed') options.onStatus?.(s);
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        controller.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      controller.signal.addEventListener('abort', onAbort, { once: true });
    });

  async function readOnce(): Promise<void> {
    const { url, headers, credentials = 'omit' } = options.request(lastEventId);
    const response = await doFetch(url, { headers, signal: controller.signal, credentials });
    if (!response.ok || !response.body) throw new Error(`live stream answered HTTP ${response.status}`);
    connected = true;
    status('open');
    const parser = new SseParser(
      (frame) => {
        if (frame.id !== undefined) lastEventId = frame.id;
        if (!closed) options.onFrame(frame);
      },
      (ms) => {
        serverRetry = ms;
      },
    );
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
      parser.push(decoder.decode());
    } finally {
      parser.end();
      reader.releaseLock();
    }
  }

  void (async () => {
    let attempt = 0;
    status('connecting');
    while (!closed) {
      connected = false;
      try {
        await readOnce();
      } catch {
        // network error or non-2xx: fall through to the retry below
      }
      if (closed) break;
      // A stream that was open and ended starts the backoff over; failed connects back off further.
      attempt = connected ? 1 : attempt + 1;
      status('reconnecting');
      await wait(retryDelay(attempt, serverRetry));
    }
  })();

  return {
    close() {
      if (closed) return;
      closed = true;
      controller.abort();
      status('closed');
    },
    lastEventId: () => lastEventId,
  };
}

/** A SpecArena chat channel (operator log or chat) as contract events. */
export function openLiveStream(options: LiveStreamOptions): LiveStream {
  return openSseStream({
    request: (lastEventId) => liveStreamRequest(options.baseUrl, options.channel, lastEventId, options.resumeVia ?? 'header'),
    onFrame: (frame) => {
      const event = decodeSseEvent(frame);
      if (event) options.onEvent(event);
    },
    onStatus: options.onStatus,
    lastEventId: options.lastEventId,
    fetchImpl: options.fetchImpl,
    retryDelay: options.retryDelay,
  });
}
