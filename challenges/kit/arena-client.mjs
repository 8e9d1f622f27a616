// The SpecArena HTTP client an agent plays one seat with: join, follow both channels (SSE, polling as the
// fallback), wait for turns and the end of the game, send actions.
import { AgentError, ArenaHttpError, GameOver } from './agent-errors.mjs';
import { parseGameEnd } from './agent-text.mjs';

// Polling starts fast and slows down while nothing happens, so idle agents cost the engine little. It is the fallback:
// a joined client follows both channels over the SpecArena SSE stream (GET /api/chat/ws/:channel) and wakes on the
// next message instead of polling.
const POLL_MIN_MS = 20;
const POLL_MAX_MS = 100;
const REQUEST_TIMEOUT_MS = 10_000;
/** While streaming, a wait with nothing new re-reads both channels over HTTP this often (a safety net, not a poll). */
const STREAM_RECHECK_MS = 1000;
/**
 * Streams ask the server to end them once the game has ended (`?until=ended`), which hands their connections back to
 * the keep-alive pool for the next game's requests; a client done with a finished game gives them this long to end.
 */
const STREAM_END_GRACE_MS = 250;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class ArenaClient {
  /**
   * @param {{url: string, invite: string, sessionKey?: string, log?: (line: string) => void}} options
   * With a session (seat) key every request carries `Authorization: Bearer <key>` and the server derives the identity
   * from it; without one the client falls back to standalone `from` claims.
   */
  constructor({ url, invite, sessionKey, log, stream = true }) {
    this.url = url;
    this.invite = invite;
    this.sessionKey = sessionKey;
    this.log = log ?? (() => {});
    this.challengeId = undefined;
    this.info = undefined;
    /** Every operator-channel message seen so far, in index order (others' DMs arrive redacted). */
    this.operator = [];
    /** Every message seen on the player chat channel `<ChallengeID>`. */
    this.chat = [];
    this.operatorCursor = 0;
    this.chatCursor = 0;
    this.end = null;
    this.pollDelay = POLL_MIN_MS;
    /** Whether join() follows the channels over SSE; false (or a stream that fails) means polling. */
    this.wantStream = stream;
    this.streams = null;
    this.closing = Promise.resolve();
    this.wakers = new Set();
  }

  async request(method, path, { query, body } = {}) {
    const url = new URL(this.url + path);
    const claims = this.sessionKey ? {} : { from: this.invite };
    if (method === 'GET') for (const [k, v] of Object.entries({ ...query, ...claims })) url.searchParams.set(k, String(v));
    const headers = { accept: 'application/json' };
    if (this.sessionKey) headers.authorization = `Bearer ${this.sessionKey}`;
    let payload;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify({ ...body, ...(path === '/api/arena/join' ? {} : claims) });
    }
    let lastError;
    // Only connection failures are retried; an HTTP answer is final.
    for (let attempt = 0; attempt < 3; attempt++) {
      let res;
      try {
        res = await fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      } catch (error) {
        lastError = error;
        await sleep(200 * (attempt + 1));
        continue;
      }
      const text = await res.text();
      let parsed;
      try {
        parsed = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      if (!res.ok) throw new ArenaHttpError(method, path, res.status, parsed);
      return parsed;
    }
    throw new AgentError(`${method} ${path} failed: ${lastError?.message ?? lastError}`);
  }

  async join(userId) {
    const body = userId ? { invite: this.invite, userId } : { invite: this.invite };
    const joined = await this.request('POST', '/api/arena/join', { body });
    this.challengeId = joined.ChallengeID;
    this.info = joined.ChallengeInfo;
    this.log(`joined ${this.challengeId} (${this.info?.name ?? 'unknown challenge'})`);
    if (this.wantStream) this.openStreams();
    return joined;
  }

  /** Follows the operator channel and the player chat over SSE; messages land in `operator` / `chat` as they come. */
  openStreams() {
    const abort = new AbortController();
    const streams = { abort, done: null };
    this.streams = streams;
    const follow = async (channel, ingest) => {
      const url = new URL(`${this.url}/api/chat/ws/${encodeURIComponent(channel)}`);
      url.searchParams.set('until', 'ended');
      const headers = { accept: 'text/event-stream' };
      if (this.sessionKey) headers.authorization = `Bearer ${this.sessionKey}`;
      else url.searchParams.set('from', this.invite);
      const res = await fetch(url, { headers, signal: abort.signal });
      if (!res.ok || !res.body) throw new AgentError(`stream ${channel} -> ${res.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      let gameEnded = false;
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          const event = JSON.parse(data.slice(6));
          if (event.type === 'initial') ingest(event.messages ?? []);
          else if (event.type === 'new_message' && event.message) ingest([event.message]);
          else if (event.type === 'game_ended') gameEnded = true;
        }
      }
      return gameEnded;
    };
    const closed = (gameEnded) => {
      // A stream the server ends while the client still wants it sends the client back to polling, unless it ended
      // with the game (then the other stream is ending too, and the end of the game is on its way or in).
      if (this.streams?.abort === abort && !gameEnded && !this.end) {
        this.streams = null;
        abort.abort();
      }
      this.wake();
    };
    const followed = [
      [`challenge_${this.challengeId}`, (ms) => this.ingestOperator(ms)],
      [this.challengeId, (ms) => this.ingestChat(ms)],
    ].map(([channel, ingest]) =>
      follow(channel, ingest).then(closed, (error) => {
        if (!abort.signal.aborted) this.log(`stream ${channel} failed (${error.message}): polling instead`);
        if (this.streams?.abort === abort) {
          this.streams = null;
          abort.abort();
        }
        this.wake();
      }),
    );
    streams.done = Promise.all(followed);
  }

  /**
   * Stops following the channels (the process moves on to another game, or is done). The server ends the streams at
   * the end of the game, and a stream that ends by itself leaves its connection reusable: after the end they get a
   * moment to finish, and `drainMs` lets a caller that made its last move wait that long for the end instead of
   * cutting them at once.
   */
  close({ drainMs = 0 } = {}) {
    const streams = this.streams;
    this.streams = null;
    const wait = this.end ? Math.max(drainMs, STREAM_END_GRACE_MS) : drainMs;
    if (streams && wait > 0) {
      const timer = setTimeout(() => streams.abort.abort(), wait);
      timer.unref?.();
      streams.done.then(() => clearTimeout(timer));
    } else streams?.abort.abort();
    /** Settles once both streams have ended, by themselves or cut. */
    this.closing = streams ? streams.done : Promise.resolve();
    this.wake();
  }

  /** Adds operator-channel messages past the cursor (a message seen by both the stream and a sync counts once). */
  ingestOperator(messages) {
    let added = 0;
    for (const m of messages) {
      if ((m.index ?? 0) < this.operatorCursor) continue;
      this.operator.push(m);
      this.operatorCursor = (m.index ?? 0) + 1;
      if (!this.end && m.from === 'operator' && (m.to === undefined || m.to === null)) this.end = parseGameEnd(m.content);
      added++;
    }
    if (added) this.wake();
    return added;
  }

  ingestChat(messages) {
    let added = 0;
    for (const m of messages) {
      if ((m.index ?? 0) < this.chatCursor) continue;
      this.chat.push(m);
      this.chatCursor = (m.index ?? 0) + 1;
      added++;
    }
    if (added) this.wake();
    return added;
  }

  wake() {
    const wakers = [...this.wakers];
    this.wakers.clear();
    for (const w of wakers) w();
  }

  /** Resolves true on the next streamed message, false after `ms` without one. */
  nextMessage(ms) {
    return new Promise((resolve) => {
      const waker = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.wakers.delete(waker);
        resolve(false);
      }, ms);
      this.wakers.add(waker);
    });
  }

  /**
   * Fetches new operator and chat messages (index cursor = last seen + 1) and notices the end of the game.
   * Returns whether anything new arrived.
   */
  async refresh() {
    this.requireJoined();
    const op = await this.request('GET', '/api/arena/sync', { query: { channel: this.challengeId, index: this.operatorCursor } });
    let added = this.ingestOperator(op.messages);
    const chat = await this.request('GET', '/api/chat/sync', { query: { channel: this.challengeId, index: this.chatCursor } });
    added += this.ingestChat(chat.messages);
    const changed = added > 0;
    this.pollDelay = changed ? POLL_MIN_MS : Math.min(POLL_MAX_MS, Math.round(this.pollDelay * 1.5));
    return changed;
  }

  /** Sleeps for the current poll delay. */
  pause() {
    return sleep(this.pollDelay);
  }

  /** Contents of operator DMs to this agent. */
  dms() {
    return this.operator.filter((m) => m.from === 'operator' && m.to === this.invite).map((m) => m.content);
  }

  /** Contents of operator broadcasts. */
  broadcasts() {
    return this.operator.filter((m) => m.from === 'operator' && (m.to === undefined || m.to === null)).map((m) => m.content);
  }

  /** Chat messages from the other players (not from this agent). */
  opponentChat() {
    return this.chat.filter((m) => m.from !== this.invite && m.from !== 'operator' && !m.redacted);
  }

  /**
   * Invites in join order. Every built-in operator DMs each player when it joins, and DM metadata (`to`) stays visible
   * when the content is redacted, so the first DM to each invite gives the order: index = player number - 1.
   */
  joinOrder() {
    const order = [];
    for (const m of this.operator) {
      if (m.from === 'operator' && typeof m.to === 'string' && m.to !== 'operator' && !order.includes(m.to)) order.push(m.to);
    }
    return order;
  }

  /**
   * Waits until `check()` returns something other than undefined and returns it; returns undefined after `timeoutMs`.
   * Throws GameOver as soon as the game has ended. Streaming, it looks again on every message; polling, after each sync.
   */
  async until(check, timeoutMs = Number.POSITIVE_INFINITY) {
    const started = Date.now();
    for (let quiet = false; ; ) {
      if (this.end) throw new GameOver(this.end);
      if (!this.streams || quiet) await this.refresh();
      if (this.end) throw new GameOver(this.end);
      const value = check();
      if (value !== undefined) return value;
      const left = timeoutMs - (Date.now() - started);
      if (left <= 0) return undefined;
      // A streamed message is already in memory: check it without a sync; a quiet second syncs once.
      if (this.streams) quiet = !(await this.nextMessage(Math.min(left, STREAM_RECHECK_MS)));
      else await this.pause();
    }
  }

  /** Waits until every seat is taken (all join DMs sent): acting earlier only earns "Game not running". */
  async untilAllJoined() {
    const players = this.info?.players ?? 2;
    return this.until(() => (this.joinOrder().length >= players ? this.joinOrder() : undefined));
  }

  async waitForGameEnd() {
    try {
      await this.until(() => undefined);
    } catch (error) {
      if (error instanceof GameOver) return error.end;
      throw error;
    }
  }

  /** Posts on the session's player chat channel (`<ChallengeID>`); `to` makes it a DM. */
  async say(content, to) {
    this.requireJoined();
    const body = to ? { channel: this.challengeId, content, to } : { channel: this.challengeId, content };
    return this.request('POST', '/api/chat/send', { body });
  }

  /** Sends an action to the operator; rejects with ArenaHttpError (with `.code`) when the operator refuses it. */
  async act(messageType, content) {
    this.requireJoined();
    this.log(`${messageType}: ${content}`);
    // An action usually triggers an answer: look again soon.
    this.pollDelay = POLL_MIN_MS;
    return this.request('POST', '/api/arena/message', { body: { challengeId: this.challengeId, messageType, content } });
  }

  requireJoined() {
    if (!this.challengeId) throw new AgentError('not joined yet');
  }
}
