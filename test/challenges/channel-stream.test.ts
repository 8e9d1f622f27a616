// Waiting without polling: the baseline client and the agent-kit helpers (Node and Python) follow a session's
// channels over the reference SSE stream and wake on the next message, against a real engine on 127.0.0.1.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module without type declarations
import { followChannel } from '../../agent-kit/js/arena-stream.mjs';
// @ts-expect-error: a plain .mjs module without type declarations
import { ArenaClient } from '../../challenges/kit/agent-client.mjs';
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
});
