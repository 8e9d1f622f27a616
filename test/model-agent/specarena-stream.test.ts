// The model agent's SpecArena client follows a session over the reference SSE stream: a wait ends on the next
// message (no sync request in between), a message that stream and sync both deliver counts once, and a failed stream
// leaves the client polling. Real engine on 127.0.0.1.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SpecArenaClient } from '../../engine/model-agent/specarena-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
const requests: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  server.engine.http.server.on('request', (req: { method?: string; url?: string }) => {
    requests.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests.length = 0;
});

async function seated(): Promise<[SpecArenaClient, SpecArenaClient]> {
  const res = await fetch(`${server.url}/api/challenges/psi`, { method: 'POST' });
  const { invites } = (await res.json()) as { invites: [string, string] };
  const a = new SpecArenaClient(server.url, invites[0], undefined);
  const b = new SpecArenaClient(server.url, invites[1], undefined);
  await a.join('model-a');
  await b.join('model-b');
  return [a, b];
}

const syncs = () => requests.filter((r) => r.endsWith('/sync')).length;

describe('SpecArenaClient over the SSE stream', () => {
  it('wakes on the next message without syncing, and counts each message once', async () => {
    const [a, b] = await seated();
    a.follow();
    expect(a.streaming).toBe(true);
    // The history arrives first: both join DMs (its own in clear).
    while (a.operator.length < 2) expect(await a.news(3000)).toBe(true);
    requests.length = 0;
    const waiting = a.news(3000);
    await b.say('my set: 1, 2, 3');
    expect(await waiting).toBe(true);
    expect(a.chat.map((m) => m.content)).toEqual(['my set: 1, 2, 3']);
    expect(syncs()).toBe(0);
    // A sync that returns what the stream already gave adds nothing.
    expect(await a.refresh()).toBe(0);
    expect(a.chat).toHaveLength(1);
    expect(new Set(a.operator.map((m) => m.index)).size).toBe(a.operator.length);
    // Quiet: a bounded wait says so.
    expect(await a.news(150)).toBe(false);
    a.close();
    expect(a.streaming).toBe(false);
    expect(await a.news(10_000)).toBe(false);
  });

  it('drops back to polling when the engine cuts the stream', async () => {
    const [a, b] = await seated();
    a.follow();
    while (a.operator.length < 2) await a.news(3000);
    server.engine.http.server.closeAllConnections();
    for (let i = 0; i < 50 && a.streaming; i++) await new Promise((r) => setTimeout(r, 20));
    expect(a.streaming).toBe(false);
    await b.say('after the cut');
    expect(await a.refresh()).toBe(1);
    expect(a.chat.at(-1)?.content).toBe('after the cut');
  });

  it("lets a finished game's streams end by themselves, so the next game opens no new connection", async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const ownNumber = (client: SpecArenaClient): string | undefined =>
      client.operator.find((m) => m.to !== undefined && m.content.startsWith('Your private set is:'))?.content.match(/\d+/)?.[0];
    const playGame = async () => {
      const [a, b] = await seated();
      a.follow();
      b.follow();
      for (const c of [a, b]) while (ownNumber(c) === undefined) expect(await c.news(3000)).toBe(true);
      await a.act('guess', ownNumber(a) as string);
      await b.act('guess', ownNumber(b) as string);
      for (const c of [a, b]) while (c.gameEnd() === undefined) expect(await c.news(3000)).toBe(true);
      a.close();
      b.close();
      // The server ends every stream of the game; none is left subscribed.
      for (let i = 0; i < 100 && server.engine.engine.live.subscriberCount() > 0; i++) await sleep(10);
      expect(server.engine.engine.live.subscriberCount()).toBe(0);
    };
    await playGame();
    const opened: Socket[] = [];
    const onConnection = (socket: Socket) => opened.push(socket);
    server.engine.http.server.on('connection', onConnection);
    try {
      await playGame();
      expect(requests.filter((r) => r.startsWith('GET /api/chat/ws/')).length).toBe(8);
      expect(opened).toHaveLength(0);
      expect(syncs()).toBe(0);
    } finally {
      server.engine.http.server.off('connection', onConnection);
    }
  });
});
