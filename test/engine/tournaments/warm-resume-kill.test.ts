// kill -9 of `arena run` with warm agents, then --resume: every planned game exactly once, and no agent process
// outlives either run (a warm process whose engine vanished stops by itself within seconds).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { processesWith, ROOT, tempDir, warmBot } from './helpers.js';
import { killRunAfterGames, resumeRun } from './kill-resume.js';

const GAMES = 16;
let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/warm/warm-pool.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = tempDir();
}, 250_000);
/** The process ids the warm bots named in the chat of the stored games. */
function processIds(db: Database.Database, id: string): Set<string> {
  const rows = db.prepare('SELECT transcript FROM tournament_games WHERE tournament_id = ?').all(id) as Array<{ transcript: string }>;
  return new Set(rows.flatMap((r) => [...r.transcript.matchAll(/\[proc ([0-9a-f]+) game \d+\]/g)].map((m) => m[1] as string)));
}

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The warm bots' processes (by the tag in their command line) still alive after `ms`. */
async function untilGone(tags: string[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = tags.flatMap(processesWith);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('kill -9 mid-run with warm agents, then --resume: complete, duplicate-free, no orphan processes', async () => {
  const a = warmBot('resume-a');
  const b = warmBot('resume-b');
  const specFile = path.join(dir, 'warm.tournament.yaml');
  fs.writeFileSync(
    specFile,
    YAML.stringify({
      name: 'warm resume',
      challenge: 'millionaire',
      format: 'round-robin',
      games_per_pairing: GAMES,
      concurrency: 2,
      seed: 'warm-resume-1',
      agents: [
        { manifest: a.manifest, id: 'warm-a' },
        { manifest: b.manifest, id: 'warm-b' },
      ],
      limits: { move_seconds: 10, game_seconds: 30 },
    }),
  );
  const dataDir = path.join(dir, 'data');
  const id = await killRunAfterGames(specFile, dataDir);
  // No warm process outlives the engine that started it.
  expect(await untilGone([a.tag, b.tag], 15_000)).toEqual([]);

  const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  // Warm processes of the first run: at most one per agent and slot (concurrency 2), each having played several games.
  const firstRun = processIds(db, id);
  expect(firstRun.size).toBeLessThanOrEqual(4);
  const before = db.prepare('SELECT COUNT(*) AS n FROM tournament_games WHERE tournament_id = ?').get(id) as { n: number };
  db.close();
  expect(before.n).toBeGreaterThanOrEqual(5);
  expect(before.n).toBeLessThan(GAMES);

  const events = resumeRun(id, dataDir);
  expect(events[0]).toMatchObject({ event: 'started', tournament_id: id, resumed: true });
  expect(events.filter((e) => e.event === 'game_ended')).toHaveLength(GAMES - before.n);

  const after = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  const rows = after.prepare('SELECT game_key, game_index, termination FROM tournament_games WHERE tournament_id = ?').all(id) as Array<{
    game_key: string;
    game_index: number;
    termination: string;
  }>;
  after.close();
  expect(rows).toHaveLength(GAMES);
  expect(new Set(rows.map((r) => r.game_key)).size).toBe(GAMES);
  expect(rows.map((r) => r.game_index).sort((x, y) => x - y)).toEqual([...Array(GAMES).keys()]);
  expect(rows.every((r) => r.termination === 'completed')).toBe(true);
  // The resumed run started its own warm processes, and `arena run` returned only after they were gone.
  const again = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  const all = processIds(again, id);
  again.close();
  expect(all.size).toBeGreaterThan(firstRun.size);
  expect(processesWith(a.tag)).toEqual([]);
  expect(processesWith(b.tag)).toEqual([]);
}, 180_000);
