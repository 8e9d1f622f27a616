// The watcher's WebSocket (`/ws/watcher/`, CLAWARENA_TRANSPORT=ws) over real HTTP: upgrade guards, auth, and that an
// open feed keeps an agent online (queued and seatable) while it never polls, then wakes it for its turn.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createManualClock } from '../../../../engine/core/clock.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { fallbackMove, ValidatingClient, validationFailures } from './helpers.js';

const clock = createManualClock(Date.UTC(2026, 0, 1));
let server: TestServer;
let c: ValidatingClient;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ clock });
  c = new ValidatingClient(`${server.url}/api/v1`);
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await server.close();
  expect(validationFailures).toEqual([]);
});

type Frame = { type: string; data?: Record<string, unknown>; [k: string]: unknown };

/** A client that queues every frame and hands them out by type. */
async function openFeed(headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${server.url.replace('http://', 'ws://')}/ws/watcher/`, { headers });
  sockets.push(ws);
  const frames: Frame[] = [];
  const waiting: (() => void)[] = [];
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of waiting.splice(0)) wake();
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  async function next(type: string, where: (f: Frame) => boolean = () => true, timeoutMs = 5000): Promise<Frame> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const i = frames.findIndex((f) => f.type === type && where(f));
      if (i >= 0) return frames.splice(i, 1)[0] as Frame;
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no ${type} frame; got ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  return { ws, frames, next, closed, send: (f: unknown) => ws.send(JSON.stringify(f)) };
}

async function upgradeStatus(path: string, headers: Record<string, string>): Promise<number> {
  const ws = new WebSocket(`${server.url.replace('http://', 'ws://')}${path}`, { headers });
  return new Promise((resolve) => {
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      resolve(101);
      ws.terminate();
    });
    ws.once('error', () => undefined);
  });
}

async function provision(name: string): Promise<{ agent_id: number; connection_token: string }> {
  const res = await c.call<{ agent_id: number; connection_token: string }>('POST', '/agents/provision/', { body: { name }, token: null });
  expect(res.status).toBe(201);
  return res.body;
}

describe('/ws/watcher/', () => {
  it('upgrades only on loopback Host and same-origin Origin, at its own path', async () => {
    const port = new URL(server.url).port;
    expect(await upgradeStatus('/ws/watcher/', {})).toBe(101);
    expect(await upgradeStatus('/ws/watcher/', { host: `evil.example:${port}` })).toBe(403);
    expect(await upgradeStatus('/ws/watcher/', { origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus('/ws/watcher/', { origin: `http://127.0.0.1:${Number(port) + 1}` })).toBe(403);
    expect(await upgradeStatus('/ws/watcher/', { origin: server.url })).toBe(101);
    expect(await upgradeStatus('/ws/other/', {})).toBe(404);
  });

  it('refuses a bad token, a non-auth first frame and the admin token with an error frame and close 4401', async () => {
    const { agent_id } = await provision('ws-auth-subject');
    for (const first of [
      { type: 'auth', token: 'nonsense' },
      { type: 'auth', token: server.token },
      { type: 'ping' },
      { type: 'auth', token: Buffer.from(JSON.stringify({ a: agent_id, t: 'x' })).toString('base64url') },
    ]) {
      const feed = await openFeed();
      feed.send(first);
      expect((await feed.next('error')).code).toBe('unauthorized');
      expect(await feed.closed).toBe(4401);
    }
    const feed = await openFeed();
    feed.ws.send('not json');
    expect((await feed.next('error')).code).toBe('invalid_payload');
  });

  it('keeps an agent that only watches online: it is seated after the grace period and woken for its turn', {
    timeout: 30_000,
  }, async () => {
    const watched = await provision('ws-watched');
    const feed = await openFeed();
    feed.send({ type: 'auth', token: watched.connection_token });
    const ok = await feed.next('auth_ok');
    expect(ok.agent_id).toBe(watched.agent_id);
    expect((ok.agent_preferences as Record<string, unknown>).report_level).toBe('silent');
    expect((await feed.next('watcher_status')).data?.status).toBe('waiting');

    // Far past the lobby's 90 s grace; the watcher only pings, as the public watcher does between frames.
    clock.advance(200_000);
    feed.send({ type: 'ping' });
    await feed.next('pong');

    const poller = await provision('ws-poller');
    const polled = await c.poll({}, poller.connection_token);
    expect(polled.body.status).toBe('playing');
    const matchId = polled.body.match_id as number;
    const seated = server.engine.clawarena.match(matchId);
    expect(seated?.seats.map((s) => s.agentId).sort()).toEqual([watched.agent_id, poller.agent_id].sort());
    expect((await feed.next('watcher_status', (f) => f.data?.status === 'playing')).data?.match_id).toBe(matchId);

    // Play the poller's turns until the watched agent's; its feed then wakes it with the window it must act in.
    for (let i = 0; i < 3; i++) {
      const mine = (await c.poll({}, poller.connection_token)).body;
      if (!mine.is_your_turn) break;
      expect((await c.act(fallbackMove(mine), poller.connection_token)).status).toBe(200);
    }
    const wake = await feed.next('watcher_wake');
    expect(wake.data).toMatchObject({ match_id: matchId, game_type: 'liars_dice' });
    const view = (await c.poll({}, watched.connection_token)).body;
    expect(view.is_your_turn).toBe(true);
    expect(wake.data?.seq).toBe(view.action_window_id);
    expect(wake.data?.action_window_id).toBe(view.action_window_id);
  });

  it('without a feed, the same silence drops an agent from the queue (the control)', async () => {
    const silent = await provision('ws-silent');
    expect((await c.poll({}, silent.connection_token)).body.status).toBe('waiting');
    clock.advance(200_000);
    const other = await provision('ws-other');
    expect((await c.poll({}, other.connection_token)).body.status).toBe('waiting');
    expect(server.engine.store.clawarena.queued(silent.agent_id)).toBeUndefined();
  });

  it("over the --tls listener (wss): the public watcher's portless https Origin passes, a foreign one does not", async () => {
    const tlsServer = await startTestServer({ tls: true });
    try {
      const tls = tlsServer.engine.tls as { url: string; certPath: string };
      const ca = fs.readFileSync(tls.certPath);
      const url = `${tls.url.replace('https://', 'wss://')}/ws/watcher/`;
      const agent = tlsServer.engine.clawarena.createAgent({ name: 'wss-watcher', preferredGameType: 'liars_dice' });
      const refused = new WebSocket(url, { ca, headers: { origin: 'https://evil.example' } });
      const status = await new Promise<number>((resolve) => {
        refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        refused.once('open', () => resolve(101));
        refused.once('error', () => undefined);
      });
      refused.terminate();
      expect(status).toBe(403);
      const ws = new WebSocket(url, { ca, headers: { origin: 'https://127.0.0.1' } });
      sockets.push(ws);
      const first = await new Promise<Frame>((resolve, reject) => {
        ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token: agent.token })));
        ws.once('message', (data) => resolve(JSON.parse(data.toString()) as Frame));
        ws.once('error', reject);
      });
      expect(first).toMatchObject({ type: 'auth_ok', agent_id: agent.agent.agentId });
      ws.terminate();
    } finally {
      await tlsServer.close();
    }
  });
});
