// Dependency-free SpecArena client for baseline agents (plain JS, Node >= 20 built-ins only: global fetch, timers).
// It implements the agent launch contract: the runner starts `node agent.mjs` with ARENA_* variables and expects
// exit 0 once the operator broadcasts "Game ended.", or a non-zero exit with a message on stderr.

/** Hard cap on an agent's runtime, so a stuck game never leaves a process behind. */
export const DEFAULT_DEADLINE_MS = 60_000;
// Polling starts fast and slows down while nothing happens, so idle agents cost the engine little. It is the fallback:
// a joined client follows both channels over the SpecArena SSE stream (GET /api/chat/ws/:channel) and wakes on the
// next message instead of polling.
const POLL_MIN_MS = 20;
const POLL_MAX_MS = 100;
const REQUEST_TIMEOUT_MS = 10_000;
/** While streaming, a wait with nothing new re-reads both channels over HTTP this often (a safety net, not a poll). */
const STREAM_RECHECK_MS = 1000;

export class AgentError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AgentError';
  }
}

/** A refused HTTP request; `code` is the operator's error code when there is one (e.g. GUESS_TOO_LARGE). */
export class ArenaHttpError extends Error {
  constructor(method, path, status, body) {
    const detail = body && typeof body === 'object' && typeof body.error === 'string' ? body.error : JSON.stringify(body);
    super(`${method} ${path} -> ${status}: ${detail}`);
    this.name = 'ArenaHttpError';
    this.status = status;
    this.body = body;
    this.code = body && typeof body === 'object' ? body.code : undefined;
  }
}

/** Thrown out of any wait once the game has ended; runAgent turns it into exit 0. */
export class GameOver extends Error {
  constructor(end) {
    super('Game ended.');
    this.name = 'GameOver';
    this.end = end;
  }
}

/** Reads the launch contract. Only ARENA_URL and ARENA_INVITE are required, so an agent can also be run by hand. */
export function readLaunchContract(env = process.env) {
  const url = env.ARENA_URL;
  const invite = env.ARENA_INVITE;
  if (!url) throw new AgentError('ARENA_URL is not set');
  if (!invite) throw new AgentError('ARENA_INVITE is not set');
  return {
    url: url.replace(/\/+$/, ''),
    invite,
    challenge: env.ARENA_CHALLENGE ?? '',
    agentId: env.ARENA_AGENT_ID || undefined,
    seed: env.ARENA_SEED ?? '0',
    sessionKey: env.ARENA_SESSION_KEY || undefined,
    mcpUrl: env.ARENA_MCP_URL || undefined,
  };
}

// ---- deterministic RNG (same algorithm as engine/core/rng.ts: cyrb128 seeding an sfc32 generator) ----------

function cyrb128(text) {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Seeded PRNG: agents take every random decision from it, so a seed replays the same play. */
export function createRng(seed) {
  let [a, b, c, d] = cyrb128(String(seed));
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  const nextInt = (min, max) => min + Math.floor(next() * (max - min + 1));
  const pick = (items) => {
    if (items.length === 0) throw new AgentError('pick from an empty list');
    return items[nextInt(0, items.length - 1)];
  };
  return { next, nextInt, pick };
}

// ---- parsing helpers -----------------------------------------------------------------------------------------

/** All integers in a text, read like the operators read them (digits only, so a minus sign is ignored). */
export function integersIn(text) {
  return (String(text).match(/\d+/g) ?? []).map((d) => Number.parseInt(d, 10));
}

/** `{scores: [{security, utility}, ...]}` from the "Game ended." broadcast, or null for any other message. */
export function parseGameEnd(content) {
  if (!content.startsWith('Game ended.')) return null;
  const scores = [];
  for (const match of content.matchAll(/^- Player (\d+): (\{.*\})$/gm)) {
    try {
      scores[Number(match[1]) - 1] = JSON.parse(match[2]);
    } catch {
      // A malformed line leaves a hole; the end itself is what matters.
    }
  }
  return { scores };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- client --------------------------------------------------------------------------------------------------

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
    this.streams = { abort };
    const follow = async (channel, ingest) => {
      const url = new URL(`${this.url}/api/chat/ws/${encodeURIComponent(channel)}`);
      const headers = { accept: 'text/event-stream' };
      if (this.sessionKey) headers.authorization = `Bearer ${this.sessionKey}`;
      else url.searchParams.set('from', this.invite);
      const res = await fetch(url, { headers, signal: abort.signal });
      if (!res.ok || !res.body) throw new AgentError(`stream ${channel} -> ${res.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
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
        }
      }
    };
    const closed = () => {
      // A stream the server ends while the client still wants it sends the client back to polling.
      if (this.streams?.abort === abort) {
        this.streams = null;
        abort.abort();
      }
      this.wake();
    };
    for (const [channel, ingest] of [
      [`challenge_${this.challengeId}`, (ms) => this.ingestOperator(ms)],
      [this.challengeId, (ms) => this.ingestChat(ms)],
    ])
      follow(channel, ingest).then(closed, (error) => {
        if (!abort.signal.aborted) this.log(`stream ${channel} failed (${error.message}): polling instead`);
        if (this.streams?.abort === abort) {
          this.streams = null;
          abort.abort();
        }
        this.wake();
      });
  }

  /** Stops following the channels (the process moves on to another game, or is done). */
  close() {
    const streams = this.streams;
    this.streams = null;
    streams?.abort.abort();
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

/**
 * Runs an agent: reads the contract, joins (userId = ARENA_AGENT_ID), calls `play({client, rng, contract, log})`,
 * waits for "Game ended." and exits 0. Errors exit 1 and a blown deadline exits 2, each with a line on stderr.
 * Started warm (ARENA_AGENT_KEY set, manifest `lifecycle: persistent`), the same `play` runs once per seat the
 * harness hands out, in this one process, until the harness says the tournament is finished.
 */
export async function runAgent(play, { deadlineMs = DEFAULT_DEADLINE_MS } = {}) {
  if (process.env.ARENA_AGENT_KEY) return runWarm(play);
  let contract;
  try {
    contract = readLaunchContract();
  } catch (error) {
    process.stderr.write(`agent: ${error.message}\n`);
    process.exit(1);
  }
  const name = contract.agentId ?? 'agent';
  const log = (line) => process.stdout.write(`[${name}] ${line}\n`);
  const deadline = setTimeout(() => {
    process.stderr.write(`${name}: gave up after ${Math.round(deadlineMs / 1000)} s without the game ending\n`);
    process.exit(2);
  }, deadlineMs);
  try {
    await playOneSeat(play, contract, log);
  } catch (error) {
    clearTimeout(deadline);
    process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  clearTimeout(deadline);
  process.exit(0);
}

/**
 * Joins, plays and (unless `untilEnd` is false) waits for the end of one seat; a GameOver thrown out of `play` is a
 * normal end. A warm agent does not wait: once `play` has made its last move it is ready for the next seat, and the
 * harness hands it one only after this game is over.
 */
async function playOneSeat(play, contract, log, untilEnd = true) {
  const client = new ArenaClient({ url: contract.url, invite: contract.invite, sessionKey: contract.sessionKey, log });
  try {
    await client.join(contract.agentId);
    await play({ client, rng: createRng(contract.seed), contract, log });
    if (!untilEnd) return;
    const end = await client.waitForGameEnd();
    log(`game ended: ${JSON.stringify(end.scores)}`);
  } catch (error) {
    if (!(error instanceof GameOver)) throw error;
    log(`game ended: ${JSON.stringify(error.end.scores)}`);
  } finally {
    client.close();
  }
}

// ---- warm lifecycle (agent kit contract: GET /api/arena/next-seat with the agent key) ------------------------

/** How long one next-seat long-poll may wait (the engine holds it at most 30 s). */
const NEXT_SEAT_WAIT_SECONDS = 30;

/**
 * The next seat for this warm process: the seat object, `{finished: true}` once the tournament is over for it, or
 * null when none came within the wait (HTTP 204). A refused key (401: the harness replaced this process) is finished.
 */
export async function nextSeat(url, agentKey, waitSeconds = NEXT_SEAT_WAIT_SECONDS) {
  const res = await fetch(`${url}/api/arena/next-seat?wait=${waitSeconds}`, {
    headers: { authorization: `Bearer ${agentKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout((waitSeconds + 10) * 1000),
  });
  if (res.status === 204) return null;
  if (res.status === 401) return { finished: true, reason: 'agent key refused' };
  const body = await res.json().catch(() => null);
  if (!res.ok || body === null) throw new AgentError(`next-seat -> ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** One loop per concurrent game the manifest allows (ARENA_MAX_CONCURRENT_GAMES); exits 0 when finished. */
async function runWarm(play) {
  const url = (process.env.ARENA_URL ?? '').replace(/\/+$/, '');
  const key = process.env.ARENA_AGENT_KEY;
  const name = process.env.ARENA_AGENT_ID || 'agent';
  if (!url) {
    process.stderr.write('agent: ARENA_URL is not set\n');
    process.exit(1);
  }
  const log = (line) => process.stdout.write(`[${name}] ${line}\n`);
  const loops = Math.max(1, Number(process.env.ARENA_MAX_CONCURRENT_GAMES ?? 1) || 1);
  const loop = async () => {
    let failures = 0;
    for (;;) {
      let seat;
      try {
        seat = await nextSeat(url, key);
        failures = 0;
      } catch (error) {
        // The engine restarting its listener is not a reason to give up at once.
        if (++failures >= 5) throw error;
        await sleep(200 * failures);
        continue;
      }
      if (seat === null) continue;
      if (seat.finished) return;
      const contract = {
        url: seat.url.replace(/\/+$/, ''),
        invite: seat.invite,
        challenge: seat.challenge,
        agentId: seat.agent_id,
        seed: seat.seed,
        sessionKey: seat.seat_key,
        mcpUrl: seat.mcp_url,
      };
      // Past the game's deadline the harness has ended the game: a process still in it is stuck.
      const deadline = setTimeout(
        () => {
          process.stderr.write(`${name}: game ${seat.game_index} still running past its deadline\n`);
          process.exit(2);
        },
        Math.max(1000, seat.deadline - Date.now() + 5000),
      );
      try {
        await playOneSeat(play, contract, log, false);
      } finally {
        clearTimeout(deadline);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: loops }, loop));
  } catch (error) {
    process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.exit(0);
}
