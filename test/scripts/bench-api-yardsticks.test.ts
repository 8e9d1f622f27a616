// bench:api's yardsticks as real servers on 127.0.0.1: each must play the benchmark's PSI game to its end (a yardstick
// that failed requests would make every ratio meaningless), and the durable lower bound must keep each seat's private
// set from the other seat until the game ends, as the engine does. Needs `npm run build` (two of them load dist/).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BENCH = fileURLToPath(new URL('../../bench/', import.meta.url));
interface Started {
  child: import('node:child_process').ChildProcess;
  url: string;
}
interface ApiGame {
  YARDSTICKS: Array<{ label: string; script: string }>;
  start(command: string, argv: string[], env?: NodeJS.ProcessEnv): Promise<Started>;
  playGame(base: string, n: number, latencies: number[]): Promise<void>;
}
const game = (await import(`${BENCH}api-game.mjs`)) as ApiGame;
const APPEND_ONLY = 'bench/append-only-floor-server.mjs';
const servers = new Map<string, Started>();

beforeAll(async () => {
  for (const { script } of game.YARDSTICKS) servers.set(script, await game.start(process.execPath, [script]));
}, 30_000);
afterAll(async () => {
  await Promise.all(
    [...servers.values()].map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.child.exitCode !== null) return resolve();
          s.child.once('exit', () => resolve());
          s.child.kill('SIGTERM');
        }),
    ),
  );
});

async function post(base: string, route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(base + route, {
    method: 'POST',
    headers: body ? { 'content-type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('bench:api yardsticks', () => {
  it.each(game.YARDSTICKS.map((y) => y.script))('%s plays the PSI game to its end, game after game', async (script) => {
    const server = servers.get(script) as Started;
    const latencies: number[] = [];
    for (let n = 0; n < 3; n++) await game.playGame(server.url, n, latencies);
    expect(latencies).toHaveLength(33);
  });

  it('the append-only bound shows a seat its own set only, refuses a second join, and reveals both sets at the end', async () => {
    const base = (servers.get(APPEND_ONLY) as Started).url;
    const created = await post(base, '/api/challenges/psi');
    const [a, b] = created.json.invites as [string, string];
    const id = created.json.id as string;
    expect((await post(base, '/api/arena/join', { invite: a, userId: 'u-a' })).status).toBe(200);
    expect((await post(base, '/api/arena/join', { invite: a, userId: 'u-a' })).status).toBe(400);
    await post(base, '/api/arena/join', { invite: b, userId: 'u-b' });
    const sync = async (from: string) =>
      ((await (await fetch(`${base}/api/arena/sync?channel=${id}&from=${from}&index=0`)).json()) as { messages: { to?: string }[] })
        .messages;
    expect((await sync(a)).map((m) => m.to)).toEqual([a]);
    await post(base, '/api/arena/message', { challengeId: id, from: a, messageType: 'guess', content: '1' });
    await post(base, '/api/arena/message', { challengeId: id, from: b, messageType: 'guess', content: '1' });
    const after = await sync(a);
    expect(after.filter((m) => m.to !== undefined).map((m) => m.to)).toEqual([a, b]);
  });
});
