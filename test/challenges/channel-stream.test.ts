// Waiting without polling: the baseline client and the agent-kit helpers (Node and Python) follow a session's
// channels over the reference SSE stream and wake on the next message, against a real engine on 127.0.0.1.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module without type declarations
import { followChannel } from '../../agent-kit/js/arena-stream.mjs';
// @ts-expect-error: a plain .mjs module without type declarations
import { ArenaClient } from '../../challenges/kit/agent-client.mjs';
// @ts-expect-error: a plain .mjs module without type declarations
import { guessNumbers, ownSet } from '../../challenges/psi/agents/psi-play.mjs';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
const requests: string[] = [];
const countOf = (route: string) => requests.filter((r) => r === route).length;

beforeAll(async () => {
  server = await startTestServer();
  server.engine.http.server.on('request', (req: { method?: string; url?: string }) => {
    requests.push(`${req.method} ${(req.url ?? '').split('?')[0]?.replace(/[0-9a-f-]{36}/, ':id')}`);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests.length = 0;
});

async function psiSession(): Promise<{ id: string; invites: [string, string] }> {
  const res = await fetch(`${server.url}/api/challenges/psi`, { method: 'POST' });
  const body = (await res.json()) as { id: string; invites: [string, string] };
  return body;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ArenaClient over the SSE stream', () => {
  it('wakes on the opponent chat message without a single sync request', async () => {
    const { invites } = await psiSession();
    const a = new ArenaClient({ url: server.url, invite: invites[0] });
    const b = new ArenaClient({ url: server.url, invite: invites[1], stream: false });
    await a.join('stream-a');
    await b.join('stream-b');
    const started = Date.now();
    const waiting = a.until(() => a.opponentChat()[0]?.content, 5000);
    await sleep(300);
    await b.say('my set: 1, 2, 3');
    const got = await waiting;
    expect(got).toBe('my set: 1, 2, 3');
    // Woken by the stream: well before the 1 s safety re-check, and with no sync at all.
    expect(Date.now() - started).toBeLessThan(900);
    expect(countOf('GET /api/chat/sync')).toBe(0);
    expect(countOf('GET /api/arena/sync')).toBe(0);
    expect(countOf('GET /api/chat/ws/:id')).toBe(1);
    expect(countOf('GET /api/chat/ws/challenge_:id')).toBe(1);
    // Its own set DM arrived over the operator stream, the opponent's DM redacted.
    expect(a.dms().some((c: string) => c.startsWith('Your private set is:'))).toBe(true);
    expect(a.operator.some((m: { to?: string; redacted?: boolean }) => m.to === invites[1] && m.redacted === true)).toBe(true);
    a.close();
  });

  it('sees each message once although stream and sync both deliver it, and polls once closed', async () => {
    const { invites } = await psiSession();
    const a = new ArenaClient({ url: server.url, invite: invites[0] });
    await a.join('dup-a');
    await a.until(() => (a.dms().length > 0 ? true : undefined), 5000);
    await a.refresh();
    await a.refresh();
    const indexes = a.operator.map((m: { index: number }) => m.index);
    expect(new Set(indexes).size).toBe(indexes.length);
    a.close();
    expect(a.streams).toBeNull();
    requests.length = 0;
    const b = new ArenaClient({ url: server.url, invite: invites[1], stream: false });
    await b.join('dup-b');
    await b.say('hello');
    expect(await a.until(() => a.opponentChat()[0]?.content, 5000)).toBe('hello');
    expect(countOf('GET /api/chat/sync')).toBeGreaterThan(0);
  });

  it('falls back to polling when the stream is refused', async () => {
    const { invites } = await psiSession();
    const logged: string[] = [];
    const a = new ArenaClient({ url: server.url, invite: invites[0], log: (line: string) => logged.push(line) });
    await a.join('fallback-a');
    await a.until(() => (a.dms().length > 0 ? true : undefined), 5000);
    // The engine dropping every connection (as a restarting listener would) ends both streams.
    server.engine.http.server.closeAllConnections();
    await sleep(50);
    expect(a.streams).toBeNull();
    const b = new ArenaClient({ url: server.url, invite: invites[1], stream: false });
    await b.join('fallback-b');
    await b.say('still there');
    expect(await a.until(() => a.opponentChat()[0]?.content, 5000)).toBe('still there');
    expect(logged.some((line) => /polling instead/.test(line))).toBe(true);
  });
});

/** A fresh PSI session with both seats joined by polling clients (user ids `<tag>-a`, `<tag>-b`). */
async function pollingPair(tag: string) {
  const { id, invites } = await psiSession();
  const a = new ArenaClient({ url: server.url, invite: invites[0], stream: false });
  const b = new ArenaClient({ url: server.url, invite: invites[1], stream: false });
  await a.join(`${tag}-a`);
  await b.join(`${tag}-b`);
  return { id, invites, a, b };
}

/** Both seats guess one number of their own set: a PSI game that ends. */
async function playToEnd(a: ArenaClient, b: ArenaClient): Promise<void> {
  const [setA, setB] = await Promise.all([ownSet(a), ownSet(b)]);
  await guessNumbers(a, [setA[0]]);
  await guessNumbers(b, [setB[0]]);
  await Promise.all([a.waitForGameEnd(), b.waitForGameEnd()]);
}

/** GET on a keep-alive agent of one socket; resolves the response, the socket and whether it was reused. */
function getOn(agent: http.Agent, url: string) {
  return new Promise<{ res: http.IncomingMessage; socket: Socket; reused: boolean }>((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => resolve({ res, socket: req.socket as Socket, reused: req.reusedSocket }));
    req.on('error', reject);
  });
}

/** The SSE frames of a response until it ends or `ms` passes; `ended` says which. */
function framesOf(res: http.IncomingMessage, ms: number) {
  return new Promise<{ types: string[]; ended: boolean }>((resolve) => {
    let text = '';
    const done = (ended: boolean) => {
      clearTimeout(timer);
      const types = text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => (JSON.parse(line.slice(6)) as { type: string }).type);
      resolve({ types, ended });
    };
    const timer = setTimeout(() => done(false), ms);
    res.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    res.on('end', () => done(true));
  });
}

describe('streams that end with the game (?until=ended)', () => {
  it('ends after game_ended and leaves the connection to the next request; without it the stream stays open', async () => {
    const { id, invites, a, b } = await pollingPair('until');
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const plain = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const ending = await getOn(keepAlive, `${server.url}/api/chat/ws/challenge_${id}?from=${invites[0]}&until=ended`);
      const open = await getOn(plain, `${server.url}/api/chat/ws/challenge_${id}?from=${invites[0]}`);
      const endingFrames = framesOf(ending.res, 5000);
      const openFrames = framesOf(open.res, 1500);
      await playToEnd(a, b);
      const ended = await endingFrames;
      expect(ended.ended).toBe(true);
      expect(ended.types.at(-1)).toBe('game_ended');
      const stillOpen = await openFrames;
      expect(stillOpen.ended).toBe(false);
      expect(stillOpen.types.at(-1)).toBe('game_ended');
      // The same socket answers the next request.
      const next = await getOn(keepAlive, `${server.url}/api/arena/sync?channel=${id}&from=${invites[0]}&index=0`);
      expect(next.res.statusCode).toBe(200);
      expect(next.reused).toBe(true);
      expect(next.socket).toBe(ending.socket);
      next.res.resume();
      // A late viewer of a finished game gets initial and game_ended, then the end.
      const late = await getOn(keepAlive, `${server.url}/api/chat/ws/${id}?until=ended`);
      const lateFrames = await framesOf(late.res, 5000);
      expect(lateFrames).toEqual({ types: ['initial', 'game_ended'], ended: true });
    } finally {
      keepAlive.destroy();
      plain.destroy();
    }
  });

  it("lets the client's streams end by themselves, so the next game opens no new connection", async () => {
    const connections: Socket[] = [];
    const onConnection = (socket: Socket) => connections.push(socket);
    const playGame = async (tag: string) => {
      const { invites } = await psiSession();
      const a = new ArenaClient({ url: server.url, invite: invites[0] });
      const b = new ArenaClient({ url: server.url, invite: invites[1] });
      await a.join(`${tag}-a`);
      await b.join(`${tag}-b`);
      await playToEnd(a, b);
      a.close();
      b.close();
      await Promise.all([a, b].map((c) => c.closing));
    };
    await playGame('reuse-1');
    server.engine.http.server.on('connection', onConnection);
    try {
      await playGame('reuse-2');
      // Each seat followed both channels in both games; the second game's streams and requests all ran on connections
      // the first game left in the pool, and the streams ended with the game, so nobody fell back to polling.
      expect(countOf('GET /api/chat/ws/:id')).toBe(4);
      expect(countOf('GET /api/chat/ws/challenge_:id')).toBe(4);
      expect(connections).toHaveLength(0);
      expect(countOf('GET /api/arena/sync')).toBe(0);
    } finally {
      server.engine.http.server.off('connection', onConnection);
    }
  });
});

describe('agent-kit followChannel (Node)', () => {
  it('delivers the history, then live messages, each once and in index order', async () => {
    const { id, invites } = await psiSession();
    const seat = new ArenaClient({ url: server.url, invite: invites[0], stream: false });
    await seat.join('kit-a');
    await seat.say('first');
    const chat = followChannel({ url: server.url, channel: id, from: invites[1] });
    expect(await chat.until((ms: Array<{ content: string }>) => ms.find((m) => m.content === 'first'), 3000)).toBeTruthy();
    await seat.say('second');
    const second = await chat.until((ms: Array<{ content: string }>) => ms.find((m) => m.content === 'second'), 3000);
    expect(second).toBeTruthy();
    expect(chat.messages.map((m: { content: string }) => m.content)).toEqual(['first', 'second']);
    // Nothing more arrives: a bounded wait says so.
    expect(await chat.next(200)).toBe(false);
    chat.close();
    expect(await chat.closed).toBeUndefined();
  });

  it('ends with the game when asked (untilEnded), and not otherwise', async () => {
    const { id, invites, a, b } = await pollingPair('kit-end');
    const ending = followChannel({ url: server.url, channel: `challenge_${id}`, from: invites[0], untilEnded: true });
    const open = followChannel({ url: server.url, channel: `challenge_${id}`, from: invites[0] });
    await playToEnd(a, b);
    // The stream ends by itself, without an error, after game_ended (and the end of the game is among its messages).
    expect(await Promise.race([ending.closed.then(() => 'ended'), sleep(3000).then(() => 'still open')])).toBe('ended');
    expect(await ending.closed).toBeUndefined();
    expect(ending.gameEnded).toBe(true);
    expect(ending.messages.some((m: { content: string }) => m.content.startsWith('Game ended.'))).toBe(true);
    // Without the flag it stays open past the end (as the spec has it) until closed.
    expect(await Promise.race([open.closed.then(() => 'ended'), sleep(300).then(() => 'still open')])).toBe('still open');
    expect(open.gameEnded).toBe(true);
    open.close();
    expect(await open.closed).toBeUndefined();
  });

  it('reports a refused stream through `closed`', async () => {
    const chat = followChannel({ url: server.url, channel: 'x', seatKey: 'a_not-a-key' });
    const error = await chat.closed;
    expect(String(error)).toMatch(/HTTP 401/);
  });
});

describe('agent-kit follow_channel (Python)', () => {
  it('blocks until the next message and sees the seat view', async () => {
    const { id, invites } = await psiSession();
    const seat = new ArenaClient({ url: server.url, invite: invites[0], stream: false });
    await seat.join('py-a');
    const script = [
      'import json, sys',
      'from arena_stream import follow_channel',
      'url, channel, sender = sys.argv[1:4]',
      'chat = follow_channel(url, channel, sender=sender)',
      'print("ready", flush=True)',
      'got = chat.until(lambda ms: next((m for m in ms if m["content"] == "ping"), None), timeout=5)',
      'quiet = chat.wait(timeout=0.2)',
      'chat.close()',
      'print(json.dumps({"got": got and got["content"], "count": len(chat.messages), "quiet": quiet}), flush=True)',
    ].join('\n');
    const child = spawn('python3', ['-c', script, server.url, id, invites[1]], {
      env: { ...process.env, PYTHONPATH: path.resolve(import.meta.dirname, '../../agent-kit/python') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const lines = new Promise<string[]>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('ready') && !out.includes('said')) {
          out += 'said';
          void sleep(200).then(() => seat.say('ping'));
        }
      });
      child.on('close', () => resolve(out.replace('said', '').trim().split('\n')));
    });
    const [, result] = await lines;
    expect(JSON.parse(result ?? '{}')).toEqual({ got: 'ping', count: 1, quiet: false });
  });

  it('stops at the end of the game when asked (until_ended)', async () => {
    const { id, invites, a, b } = await pollingPair('py-end');
    const script = [
      'import json, sys, time',
      'from arena_stream import follow_channel',
      'url, channel, sender = sys.argv[1:4]',
      'ending = follow_channel(url, channel, sender=sender, until_ended=True)',
      'still = follow_channel(url, channel, sender=sender)',
      'print("ready", flush=True)',
      'deadline = time.monotonic() + 10',
      'while not ending.closed and time.monotonic() < deadline: ending.wait(timeout=0.2)',
      'time.sleep(0.3)',
      'result = {"ended": ending.closed, "error": str(ending.error) if ending.error else None, "game_ended": ending.game_ended,',
      '          "end_seen": any(m["content"].startswith("Game ended.") for m in ending.messages),',
      '          "other_open": not still.closed, "other_game_ended": still.game_ended}',
      'still.close()',
      'print(json.dumps(result), flush=True)',
    ].join('\n');
    const child = spawn('python3', ['-c', script, server.url, `challenge_${id}`, invites[0]], {
      env: { ...process.env, PYTHONPATH: path.resolve(import.meta.dirname, '../../agent-kit/python') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let played = false;
    const done = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('ready') && !played) {
          played = true;
          void sleep(200).then(() => playToEnd(a, b));
        }
      });
      child.on('close', () => resolve(out.trim().split('\n').at(-1) ?? '{}'));
    });
    expect(JSON.parse(await done)).toEqual({
      ended: true,
      error: null,
      game_ended: true,
      end_seen: true,
      other_open: true,
      other_game_ended: true,
    });
  });
});
