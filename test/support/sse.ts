// A Server-Sent Events reader over fetch. Every network chunk is split into all the complete frames it holds
// (TCP may deliver several frames in one chunk, or one frame across chunks), and frames queue until read.

export interface SseFrame {
  /** The frame's lines in wire order (to check that `data:` comes before `id:`). */
  lines: string[];
  /** Joined `data:` payload, or undefined for a comment-only frame (`: ping`). */
  data?: string;
  id?: string;
  comment?: string;
  /** `data` parsed as JSON. */
  json?: { type: string; [key: string]: unknown };
}

/** Splits a buffer into complete frames and the unterminated rest. Pure, so it is unit-tested directly. */
export function splitFrames(buffer: string): { frames: SseFrame[]; rest: string } {
  const normalized = buffer.replace(/\r\n/g, '\n');
  const parts = normalized.split('\n\n');
  const rest = parts.pop() ?? '';
  const frames: SseFrame[] = [];
  for (const part of parts) {
    if (part.length === 0) continue;
    const lines = part.split('\n');
    const frame: SseFrame = { lines };
    const data: string[] = [];
    for (const line of lines) {
      if (line.startsWith(':')) frame.comment = line.slice(1).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (line.startsWith('id:')) frame.id = line.slice(3).replace(/^ /, '');
    }
    if (data.length > 0) {
      frame.data = data.join('\n');
      frame.json = JSON.parse(frame.data) as SseFrame['json'];
    }
    frames.push(frame);
  }
  return { frames, rest };
}

export class SseStream {
  readonly frames: SseFrame[] = [];
  private cursor = 0;
  private waiters: (() => void)[] = [];
  private ended = false;
  private failure: unknown;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly controller: AbortController,
    body: ReadableStream<Uint8Array> | null,
  ) {
    if (body) void this.pump(body);
    else this.ended = true;
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
    const controller = new AbortController();
    const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
    return new SseStream(res.status, res.headers, controller, res.body);
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const { frames, rest } = splitFrames(buffer);
        buffer = rest;
        if (frames.length > 0) {
          this.frames.push(...frames);
          this.wake();
        }
      }
    } catch (error) {
      if (!this.controller.signal.aborted) this.failure = error;
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  get closed(): boolean {
    return this.ended;
  }

  /** The next frame with data (pings skipped unless `comments`), waiting up to `timeoutMs`. */
  async next(timeoutMs = 5000, comments = false): Promise<SseFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.frames.length) {
        const frame = this.frames[this.cursor++] as SseFrame;
        if (comments || frame.data !== undefined) return frame;
      }
      if (this.failure) throw this.failure;
      if (this.ended) throw new Error('SSE stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SSE frame within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Skips frames until one of `type` arrives. */
  async nextOfType(type: string, timeoutMs = 5000): Promise<SseFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = await this.next(Math.max(1, deadline - Date.now()));
      if (frame.json?.type === type) return frame;
    }
  }

  /** Resolves true when no data frame arrives within `ms` (and leaves the queue untouched). */
  async quietFor(ms: number): Promise<boolean> {
    await new Promise((r) => setTimeout(r, ms));
    return !this.frames.slice(this.cursor).some((f) => f.data !== undefined);
  }

  /** Waits until the server ends the stream. */
  async waitEnd(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error('SSE stream still open');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.controller.abort();
  }
}
