import { describe, expect, it, vi } from 'vitest';
import {
  decodeSseEvent,
  type LiveStatus,
  liveStreamRequest,
  openLiveStream,
  parseSseChunks,
  SseParser,
} from '../../renderer/src/arena-client/live.js';

const msg = (index: number, content = `m${index}`) => ({ channel: 'c1', from: 'operator', content, index, timestamp: 1000 + index });

describe('SSE frame parser', () => {
  it('parses several frames delivered in one chunk', () => {
    const frames = parseSseChunks([
      `data: {"type":"initial","messages":[]}\nid: 3\n\ndata: {"type":"new_message"}\nid: 4\n\ndata: third\n\n`,
    ]);
    expect(frames).toEqual([
      { id: '3', event: 'message', data: '{"type":"initial","messages":[]}' },
      { id: '4', event: 'message', data: '{"type":"new_message"}' },
      // ids persist across frames until the stream sets a new one
      { id: '4', event: 'message', data: 'third' },
    ]);
  });

  it('reassembles frames split across chunks at any point', () => {
    const stream = 'data: {"a":1}\nid: 7\n\n: ping\n\ndata: line one\ndata: line two\n\n';
    for (let cut = 1; cut < stream.length; cut++) {
      expect(parseSseChunks([stream.slice(0, cut), stream.slice(cut)])).toEqual([
        { id: '7', event: 'message', data: '{"a":1}' },
        { id: '7', event: 'message', data: 'line one\nline two' },
      ]);
    }
  });

  it('handles CRLF and lone CR line ends, including a CRLF split between chunks', () => {
    expect(parseSseChunks(['data: a\r\n\r\ndata: b\r\rdata: c\r', '\n\r\n'])).toEqual([
      { id: undefined, event: 'message', data: 'a' },
      { id: undefined, event: 'message', data: 'b' },
      { id: undefined, event: 'message', data: 'c' },
    ]);
  });

  it('ignores comments, unknown fields and empty frames; strips one leading space only', () => {
    expect(parseSseChunks([': ping\n\nfoo: bar\n\nid: 9\n\ndata:  two spaces\nevent: custom\n\n'])).toEqual([
      { id: '9', event: 'custom', data: ' two spaces' },
    ]);
  });

  it('drops an unterminated frame at the end of the stream and strips a BOM', () => {
    expect(parseSseChunks(['\uFEFFdata: complete\n\ndata: partial'])).toEqual([{ id: undefined, event: 'message', data: 'complete' }]);
  });

  it('reports retry hints and ignores ids containing NUL', () => {
    const onRetry = vi.fn();
    const frames: unknown[] = [];
    const parser = new SseParser((f) => frames.push(f), onRetry);
    parser.push('retry: 2500\nretry: soon\nid: a\0b\ndata: x\n\n');
    expect(onRetry).toHaveBeenCalledWith(2500);
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(frames).toEqual([{ id: undefined, event: 'message', data: 'x' }]);
  });
});

describe('decodeSseEvent', () => {
  it('accepts contract events and drops anything else', () => {
    expect(decodeSseEvent({ id: '1', event: 'message', data: JSON.stringify({ type: 'new_message', message: msg(1) }) })).toEqual({
      type: 'new_message',
      message: msg(1),
    });
    expect(decodeSseEvent({ id: undefined, event: 'message', data: '{"type":"surprise"}' })).toBeNull();
    expect(decodeSseEvent({ id: undefined, event: 'message', data: 'not json' })).toBeNull();
  });
});

describe('liveStreamRequest', () => {
  it('resumes with Last-Event-ID on the same origin and ?since= across origins', () => {
    expect(liveStreamRequest('http://127.0.0.1:4000', 'challenge_abc', '12', 'header')).toEqual({
      url: 'http://127.0.0.1:4000/api/chat/ws/challenge_abc',
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': '12' },
    });
    expect(liveStreamRequest('http://127.0.0.1:4000', 'abc', '12', 'query')).toEqual({
      url: 'http://127.0.0.1:4000/api/chat/ws/abc?since=12',
      headers: { Accept: 'text/event-stream' },
    });
    expect(liveStreamRequest('http://127.0.0.1:4000', 'a/b', undefined, 'header').url).toBe('http://127.0.0.1:4000/api/chat/ws/a%2Fb');
  });
});

/** A fetch whose response bodies are fed by the test, one stream per call. */
function streamingFetch() {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const controllers: ReadableStreamDefaultController<Uint8Array>[] = [];
  const encoder = new TextEncoder();
  const fetchImpl = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, headers: { ...(init?.headers as Record<string, string>) } });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controllers.push(controller);
        init?.signal?.addEventListener('abort', () => {
          try {
            controller.error(new DOMException('aborted', 'AbortError'));
          } catch {
            // already closed
          }
        });
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  });
  const send = (i: number, text: string) => {
    try {
      controllers[i]?.enqueue(encoder.encode(text));
    } catch {
      // the reader has gone (stream closed); nothing is delivered
    }
  };
  const end = (i: number) => controllers[i]?.close();
  return { fetchImpl, calls, send, end };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('openLiveStream', () => {
  it('delivers events as they arrive and resumes from the last id after the stream drops', async () => {
    const { fetchImpl, calls, send, end } = streamingFetch();
    const events: unknown[] = [];
    const statuses: LiveStatus[] = [];
    const stream = openLiveStream({
      baseUrl: 'http://127.0.0.1:4000',
      channel: 'abc',
      fetchImpl,
      onEvent: (e) => events.push(e),
      onStatus: (s) => statuses.push(s),
      retryDelay: () => 1,
    });
    await tick();
    const first = `data: ${JSON.stringify({ type: 'initial', messages: [msg(1), msg(2)] })}\nid: 2\n\n`;
    const second = `data: ${JSON.stringify({ type: 'new_message', message: msg(3) })}\nid: 3\n\n`;
    // The second frame arrives in two pieces.
    send(0, first + second.slice(0, 20));
    await tick();
    expect(events).toHaveLength(1);
    send(0, second.slice(20));
    await tick();
    expect(events).toEqual([
      { type: 'initial', messages: [msg(1), msg(2)] },
      { type: 'new_message', message: msg(3) },
    ]);
    expect(stream.lastEventId()).toBe('3');

    end(0);
    await tick();
    await tick();
    expect(calls).toHaveLength(2);
    expect(calls[0]?.headers['Last-Event-ID']).toBeUndefined();
    expect(calls[1]?.headers['Last-Event-ID']).toBe('3');
    expect(statuses.slice(0, 3)).toEqual(['connecting', 'open', 'reconnecting']);

    stream.close();
    expect(statuses.at(-1)).toBe('closed');
    send(1, `data: ${JSON.stringify({ type: 'new_message', message: msg(4) })}\n\n`);
    await tick();
    expect(events).toHaveLength(2);
  });

  it('backs off and retries when the engine cannot be reached', async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const delays: number[] = [];
    const stream = openLiveStream({
      baseUrl: 'http://127.0.0.1:4000',
      channel: 'abc',
      fetchImpl,
      onEvent: () => {},
      retryDelay: (attempt) => {
        delays.push(attempt);
        return 1;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 40));
    stream.close();
    expect(fetchImpl.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(delays.slice(0, 3)).toEqual([1, 2, 3]);
  });
});
