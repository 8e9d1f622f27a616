// Acceptance 6: closing the engine mid-game and starting it again on the same data dir loses nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Challenge, ChatMessage, ScoringEntry } from '../../../engine/contract/specarena.js';
import { createRng, uniqueInts } from '../../../engine/core/rng.js';
import { createSeeder } from '../../../engine/runtime/secrets.js';
import { client } from '../../support/http.js';
import { createSession, guess, intersect, join, privateSet } from '../../support/psi.js';
import { makeTempDataDir, startTestServer, type TestServer } from '../../support/server.js';
import { SseStream } from '../../support/sse.js';

const dataDir = makeTempDataDir();
const running: TestServer[] = [];

async function start(): Promise<TestServer> {
  const s = await startTestServer({ dataDir });
  running.push(s);
  return s;
}

const secretFile = (name: string) => path.join(dataDir, 'secrets', `${name}.key`);

/** Recomputes a PSI session's sets from the rng secret on disk, as the engine derives them (spec §5.8). */
function expectedSets(secretHex: string, id: string): number[][] {
  const seed = createSeeder(Buffer.from(secretHex.trim(), 'hex'));
  const planted = uniqueInts(createRng(seed(`psi:${id}:intersection`)), 3, 100, 900);
  return [0, 1].map((i) => {
    const own = uniqueInts(createRng(seed(`psi:${id}:user:${i}`)), 10, 100, 900);
    return [...new Set([...own, ...planted])].sort((a, b) => a - b);
  });
}

afterAll(async () => {
  for (const s of running) await s.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('restart', () => {
  it('continues a game across a restart and ends it with correct scores', async () => {
    const first = await start();
    let c = client(first.url);
    const rngSecret = fs.readFileSync(secretFile('rng'), 'utf8');
    const authSecret = fs.readFileSync(secretFile('auth'), 'utf8');

    await c.post('/api/users', { userId: 'ann', username: 'Ann' });
    const s = await createSession(c);
    const [invA, invB] = s.invites as [string, string];
    await join(c, invA, 'ann');
    const waiting = await createSession(c);
    await join(c, invB, 'ben');
    const setA = await privateSet(c, s.id, invA);
    const setB = await privateSet(c, s.id, invB);
    expect([setA, setB]).toEqual(expectedSets(rngSecret, s.id));
    await c.post('/api/chat/send', { channel: s.id, from: invA, content: 'before restart' });
    const target = intersect(setA, setB);
    expect((await guess(c, s.id, invA, target)).status).toBe(200);

    // An SSE subscriber is cut off by the shutdown instead of holding it open.
    const stream = await SseStream.open(`${first.url}/api/chat/ws/${s.id}`);
    await stream.next();
    const before = {
      ops: (await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: s.id, from: invA } })).body.messages,
      list: (await c.get<{ challenges: Challenge[] }>('/api/challenges')).body.challenges,
    };
    await first.close({ keepDataDir: true });
    await stream.waitEnd();

    // ---- second life ----------------------------------------------------------------------------------
    const second = await start();
    c = client(second.url);
    expect(fs.readFileSync(secretFile('rng'), 'utf8')).toBe(rngSecret);
    expect(fs.readFileSync(secretFile('auth'), 'utf8')).toBe(authSecret);
    expect((await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: s.id, from: invA } })).body.messages).toEqual(
      before.ops,
    );
    expect((await c.get<{ challenges: Challenge[] }>('/api/challenges')).body.challenges).toEqual(before.list);
    // The invite of the other session is still open, and the used ones are still used.
    expect((await c.get(`/api/invites/${waiting.invites[0]}`)).status).toBe(200);
    expect((await c.get(`/api/invites/${invA}`)).status).toBe(409);
    // Chat indices continue where they stopped.
    expect((await c.post('/api/chat/send', { channel: s.id, from: invB, content: 'after restart' })).body).toMatchObject({ index: 2 });
    // A duplicate guess is still refused: the first guess survived.
    expect((await guess(c, s.id, invA, target)).body).toMatchObject({ code: 'DUPLICATE_GUESS' });

    expect((await guess(c, s.id, invB, target)).status).toBe(200);
    const ended = await c.get<{ challenges: Challenge[]; profiles: object }>('/api/challenges', { query: { status: 'ended' } });
    const done = ended.body.challenges.find((x) => x.id === s.id);
    expect(done?.state.scores).toEqual([
      { security: 1, utility: 1 },
      { security: 1, utility: 1 },
    ]);
    expect(done?.state.playerIdentities).toEqual({ [invA]: 'ann', [invB]: 'ben' });
    expect(done?.gameState).toMatchObject({ userSets: [setA, setB] });
    expect(ended.body.profiles).toEqual({ ann: { userId: 'ann', username: 'Ann' } });
    const ops = (await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: s.id } })).body.messages;
    expect(ops.map((m) => m.index)).toEqual(ops.map((_, i) => i + 1));
    expect(ops.at(-1)?.content.startsWith('Game ended.')).toBe(true);

    // Sessions created after the restart draw from the same persisted secret.
    const fresh = await createSession(c);
    await join(c, fresh.invites[0] as string);
    await join(c, fresh.invites[1] as string);
    const freshSets = [
      await privateSet(c, fresh.id, fresh.invites[0] as string),
      await privateSet(c, fresh.id, fresh.invites[1] as string),
    ];
    expect(freshSets).toEqual(expectedSets(rngSecret, fresh.id));

    const global = await c.get<ScoringEntry[]>('/api/scoring');
    expect(global.body.map((e) => [e.playerId, e.gamesPlayed]).sort()).toEqual([
      ['ann', 1],
      ['ben', 1],
    ]);

    // ---- third life: the ended game and its scores are still there -------------------------------------
    await second.close({ keepDataDir: true });
    const third = await start();
    c = client(third.url);
    const again = await c.get<{ challenges: Challenge[] }>('/api/challenges', { query: { status: 'ended' } });
    expect(again.body.challenges.find((x) => x.id === s.id)).toEqual(done);
    expect((await c.get<ScoringEntry[]>('/api/scoring')).body).toEqual(global.body);
  });
});
