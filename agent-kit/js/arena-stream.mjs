// Waiting for the next message without polling (Node 20+, no dependencies). Follows one SpecArena channel over the
// reference SSE stream `GET /api/chat/ws/:channel` (spec §3.7): the operator channel is `challenge_<ChallengeID>`, the
// player chat `<ChallengeID>`. With a seat key the stream shows what `GET /api/chat/sync` shows that seat (others'
// DMs redacted); every message arrives once, in index order.
//
//   import { followChannel } from './arena-stream.mjs';
//   const operator = followChannel({ url, channel: `challenge_${id}`, seatKey });
//   const dm = await operator.until((messages) => messages.find((m) => m.to === invite), 5000);
//   operator.close();

/**
 * Starts following `channel`. `messages` grows as messages arrive; `next(ms)` resolves true on the next message
 * (false after `ms` without one); `until(check, ms)` resolves the first non-undefined `check(messages)` (undefined
 * after `ms`); `closed` resolves when the stream ends, with the error if it failed (then poll the sync route instead).
 */
export function followChannel({ url, channel, seatKey, from, untilEnded = false }) {
  const abort = new AbortController();
  const messages = [];
  let cursor = 0;
  let wakers = [];
  const wake = () => {
    const now = wakers;
    wakers = [];
    for (const w of now) w(true);
  };
  const ingest = (list) => {
    for (const m of list) {
      if ((m.index ?? 0) < cursor) continue;
      messages.push(m);
      cursor = (m.index ?? 0) + 1;
    }
    if (list.length > 0) wake();
  };
  const stream = new URL(`${url.replace(/\/+$/, '')}/api/chat/ws/${encodeURIComponent(channel)}`);
  const headers = { accept: 'text/event-stream' };
  if (seatKey) headers.authorization = `Bearer ${seatKey}`;
  else if (from) stream.searchParams.set('from', from);
  // Local Arena ends such a stream after game_ended, and its connection can serve the next request (see the README).
  if (untilEnded) stream.searchParams.set('until', 'ended');
  let gameEnded = false;
  const closed = (async () => {
    const res = await fetch(stream, { headers, signal: abort.signal });
    if (!res.ok || !res.body) throw new Error(`stream ${channel} -> HTTP ${res.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (!data) continue; // a ": ping" comment
        const event = JSON.parse(data.slice(6));
        if (event.type === 'initial') ingest(event.messages ?? []);
        else if (event.type === 'new_message' && event.message) ingest([event.message]);
        else if (event.type === 'game_ended') gameEnded = true;
      }
    }
  })().then(
    () => {
      wake();
      return undefined;
    },
    (error) => {
      wake();
      return abort.signal.aborted ? undefined : error;
    },
  );
  const next = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        wakers = wakers.filter((w) => w !== waker);
        resolve(false);
      }, ms);
      const waker = (value) => {
        clearTimeout(timer);
        resolve(value);
      };
      wakers.push(waker);
    });
  return {
    messages,
    next,
    /** Whether the stream has sent `game_ended`; a stream asked to end with the game then ends, not failing. */
    get gameEnded() {
      return gameEnded;
    },
    async until(check, ms = Number.POSITIVE_INFINITY) {
      const started = Date.now();
      for (;;) {
        const value = check(messages);
        if (value !== undefined) return value;
        const left = ms - (Date.now() - started);
        if (left <= 0 || abort.signal.aborted) return undefined;
        await next(Math.min(left, 2 ** 31 - 1));
      }
    },
    closed,
    close() {
      abort.abort();
      wake();
    },
  };
}
