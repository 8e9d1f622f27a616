// A small SpecArena HTTP client for the model agent: join, metadata, operator/chat sync, chat and actions. With a
// seat key every request carries it as a bearer token and the server derives the identity from it.
import type { ChallengeMetadata, ChatMessage } from '../contract/specarena.js';
import { sleep } from './backoff.js';

const REQUEST_TIMEOUT_MS = 10_000;
const CONNECT_ATTEMPTS = 3;
const FRAME_END = '\n\n';
/** How long streams of a finished game get to end by themselves (the server ends them) before they are cut. */
const STREAM_END_GRACE_MS = 250;

export class ArenaRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ArenaRefusal';
  }
}

export interface JoinAnswer {
  ChallengeID: string;
  ChallengeInfo?: Partial<ChallengeMetadata> & { players?: number };
}

export class SpecArenaClient {
  challengeId: string | undefined;
  readonly operator: ChatMessage[] = [];
  readonly chat: ChatMessage[] = [];
  private operatorCursor = 0;
  private chatCursor = 0;
  /** Messages taken in so far (stream or sync); a reader compares it with what it last saw. */
  received = 0;
  private streams: AbortController | null = null;
  /** Settles once both streams of the last follow() have ended. */
  private streamsDone: Promise<void> = Promise.resolve();
  private wakers: Array<() => void> = [];

  constructor(
    private readonly url: string,
    readonly invite: string,
    private readonly sessionKey: string | undefined,
  ) {}

  async request<T>(
    method: 'GET' | 'POST',
    path: string,
    options: { query?: Record<string, string | number>; body?: Record<string, unknown> } = {},
  ): Promise<T> {
    const url = new URL(this.url + path);
    const claims: Record<string, string> = this.sessionKey ? {} : { from: this.invite };
    if (method === 'GET') for (const [k, v] of Object.entries({ ...options.query, ...claims })) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.sessionKey) headers.authorization = `Bearer ${this.sessionKey}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify({ ...options.body, ...(path === '/api/arena/join' ? {} : claims) });
    }
    // Only connection failures are retried; an HTTP answer is final (an action must not be sent twice).
    let res: Response | undefined;
    for (let attempt = 1; res === undefined; attempt++) {
      try {
        res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      } catch (error) {
        if (attempt >= CONNECT_ATTEMPTS) throw new Error(`${method} ${path} failed: ${(error as Error).message}`);
        await sleep(200 * attempt);
      }
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!res.ok) {
      const record = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
      const detail = typeof record.error === 'string' ? record.error : JSON.stringify(parsed);
      throw new ArenaRefusal(
        res.status,
        parsed,
        typeof record.code === 'string' ? record.code : undefined,
        `${method} ${path} -> ${res.status}: ${detail}`,
      );
    }
    return parsed as T;
  }

  async join(userId: string | undefined): Promise<JoinAnswer> {
    const joined = await this.request<JoinAnswer>('POST', '/api/arena/join', {
      body: userId ? { invite: this.invite, userId } : { invite: this.invite },
    });
    this.challengeId = joined.ChallengeID;
    return joined;
  }

  metadata(challengeType: string): Promise<ChallengeMetadata> {
    return this.request<ChallengeMetadata>('GET', `/api/metadata/${encodeURIComponent(challengeType)}`);
  }

  /** Pulls new operator and chat messages; returns how many arrived. */
  async refresh(): Promise<number> {
    const channel = this.joined();
    const op = await this.request<{ messages: ChatMessage[] }>('GET', '/api/arena/sync', {
      query: { channel, index: this.operatorCursor },
    });
    const chat = await this.request<{ messages: ChatMessage[] }>('GET', '/api/chat/sync', { query: { channel, index: this.chatCursor } });
    return this.ingest('operator', op.messages) + this.ingest('chat', chat.messages);
  }

  /** Whether both channels are followed over SSE (else the caller polls with refresh()). */
  get streaming(): boolean {
    return this.streams !== null;
  }

  /**
   * Follows the operator channel and the chat over the SpecArena SSE stream (spec §3.7), so a wait ends on the next
   * message instead of a poll interval; a stream that fails sends the caller back to polling.
   */
  follow(): void {
    const channel = this.joined();
    const abort = new AbortController();
    this.streams = abort;
    const read = async (name: string, into: 'operator' | 'chat'): Promise<boolean> => {
      const url = new URL(`${this.url}/api/chat/ws/${encodeURIComponent(name)}`);
      // The server ends the stream after game_ended (a Local Arena extension; the reference ignores it), which leaves
      // the connection reusable for the next game of a warm agent.
      url.searchParams.set('until', 'ended');
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (this.sessionKey) headers.authorization = `Bearer ${this.sessionKey}`;
      else url.searchParams.set('from', this.invite);
      const res = await fetch(url, { headers, signal: abort.signal });
      if (!res.ok || !res.body) throw new Error(`stream ${name} -> ${res.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      let gameEnded = false;
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf(FRAME_END); end >= 0; end = buffer.indexOf(FRAME_END)) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .find((line) => line.startsWith('data: '));
          buffer = buffer.slice(end + FRAME_END.length);
          if (!data) continue;
          const event = JSON.parse(data.slice(6)) as { type?: string; messages?: ChatMessage[]; message?: ChatMessage };
          if (event.type === 'initial') this.ingest(into, event.messages ?? []);
          else if (event.type === 'new_message' && event.message) this.ingest(into, [event.message]);
          else if (event.type === 'game_ended') gameEnded = true;
        }
      }
      return gameEnded;
    };
    // A stream that ends before the game does (or fails) sends the caller back to polling; one that ended with the
    // game leaves the other to end by itself.
    const ended = (gameEnded: boolean): void => {
      if (this.streams === abort && !gameEnded && this.gameEnd() === undefined) {
        this.streams = null;
        abort.abort();
      }
      this.wake();
    };
    const followed = [
      [`challenge_${channel}`, 'operator'],
      [channel, 'chat'],
    ] as const;
    this.streamsDone = Promise.all(followed.map(([name, into]) => read(name, into).then(ended, () => ended(false)))).then(() => {});
  }

  /**
   * Stops following the channels. After the end of the game the server is ending them: they get a moment to finish, so
   * their connections can serve the next game; before it they are cut at once.
   */
  close(): void {
    const abort = this.streams;
    this.streams = null;
    if (abort && this.gameEnd() !== undefined) {
      const timer = setTimeout(() => abort.abort(), STREAM_END_GRACE_MS);
      timer.unref();
      void this.streamsDone.then(() => clearTimeout(timer));
    } else abort?.abort();
    this.wake();
  }

  /** Resolves true on the next streamed message, false after `ms` without one (or when not streaming). */
  news(ms: number): Promise<boolean> {
    if (!this.streams) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waker = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.wakers = this.wakers.filter((w) => w !== waker);
        resolve(false);
      }, ms);
      this.wakers.push(waker);
    });
  }

  /** Adds messages past the channel's cursor (a message both the stream and a sync delivered counts once). */
  private ingest(into: 'operator' | 'chat', messages: readonly ChatMessage[]): number {
    let added = 0;
    for (const m of messages) {
      const index = m.index ?? 0;
      if (index < (into === 'operator' ? this.operatorCursor : this.chatCursor)) continue;
      if (into === 'operator') {
        this.operator.push(m);
        this.operatorCursor = index + 1;
      } else {
        this.chat.push(m);
        this.chatCursor = index + 1;
      }
      added++;
    }
    this.received += added;
    if (added > 0) this.wake();
    return added;
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  /** The "Game ended." broadcast, once it has been seen. */
  gameEnd(): string | undefined {
    return this.operator.find((m) => m.from === 'operator' && (m.to === undefined || m.to === null) && m.content.startsWith('Game ended.'))
      ?.content;
  }

  /** Invites in join order, from the operator's first DM to each (DM metadata stays visible when content is redacted). */
  joinOrder(): string[] {
    const order: string[] = [];
    for (const m of this.operator) {
      if (m.from === 'operator' && typeof m.to === 'string' && m.to !== 'operator' && !order.includes(m.to)) order.push(m.to);
    }
    return order;
  }

  say(content: string): Promise<unknown> {
    return this.request('POST', '/api/chat/send', { body: { channel: this.joined(), content } });
  }

  act(messageType: string, content: string): Promise<unknown> {
    return this.request('POST', '/api/arena/message', { body: { challengeId: this.joined(), messageType, content } });
  }

  private joined(): string {
    if (!this.challengeId) throw new Error('not joined yet');
    return this.challengeId;
  }
}
