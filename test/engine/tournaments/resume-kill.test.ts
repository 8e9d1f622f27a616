// Resume after kill -9: the CLI is killed mid-tournament with SIGKILL, `arena run --resume <id>` finishes it, and
// the final game set is exactly the planned one — nothing lost, nothing played twice.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { openStore } from '../../../engine/db/store.js';
import { runTally } from '../../../engine/tournaments/results/game-commit.js';
import { tallyOfOrderedRows } from '../../../engine/tournaments/results/run-tally.js';
import { MILLIONAIRE, ROOT, tempDir } from './helpers.js';
import { killRunAfterGames, resumeRun } from './kill-resume.js';

let dir: string;

beforeAll(() => {
  // The CLI runs the compiled engine; build it when this checkout has not been built yet.
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/run/executor.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = tempDir();
}, 250_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('kill -9 mid-run, then --resume: complete and duplicate-free', async () => {
  const specFile = path.join(dir, 'resume.tournament.yaml');
  fs.writeFileSync(
    specFile,
    YAML.stringify({
      name: 'resume',
      challenge: 'millionaire',
      format: 'round-robin',
      games_per_pairing: 16,
      concurrency: 2,
      seed: 'resume-1',
      agents: [
        { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
        { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'bluffer' },
      ],
      limits: { move_seconds: 10, game_seconds: 30 },
    }),
  );
  const dataDir = path.join(dir, 'data');
  const id = await killRunAfterGames(specFile, dataDir);
  expect(id).toMatch(/^t-/);

  const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  const before = db.prepare('SELECT COUNT(*) AS n FROM tournament_games WHERE tournament_id = ?').get(id) as { n: number };
  // The counts and the tally were committed with each game: the kill left them covering exactly the stored games.
  const counts = db.prepare('SELECT game_attempts, games_started FROM tournaments WHERE id = ?').get(id);
  const tally = db.prepare('SELECT attempts FROM tournament_tallies WHERE tournament_id = ?').get(id);
  db.close();
  expect(counts).toEqual({ game_attempts: before.n, games_started: before.n });
  expect(tally).toEqual({ attempts: before.n });
  expect(before.n).toBeGreaterThanOrEqual(5);
  expect(before.n).toBeLessThan(16);

  const events = resumeRun(id, dataDir);
  expect(events[0]).toMatchObject({ event: 'started', tournament_id: id, resumed: true });
  expect(events.at(-1)).toMatchObject({ event: 'finished', tournament_id: id, report_dir: path.join(dataDir, 'reports', id) });
  // Only the games that were not committed are played again.
  expect(events.filter((e) => e.event === 'game_ended')).toHaveLength(16 - before.n);

  const after = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  const rows = after
    .prepare('SELECT game_key, game_index, attempt, termination FROM tournament_games WHERE tournament_id = ?')
    .all(id) as Array<{
    game_key: string;
    game_index: number;
    termination: string;
  }>;
  after.close();
  expect(rows).toHaveLength(16);
  expect(new Set(rows.map((r) => r.game_key)).size).toBe(16);
  expect(rows.map((r) => r.game_index).sort((a, b) => a - b)).toEqual([...Array(16).keys()]);
  expect(rows.every((r) => r.termination === 'completed')).toBe(true);
  const report = JSON.parse(fs.readFileSync(path.join(dataDir, 'reports', id, 'report.json'), 'utf8'));
  expect(report.games).toHaveLength(16);
  // After the resume, the stored tally is what a fold of the games from scratch gives, and the counts are right.
  const store = openStore({ file: path.join(dataDir, 'arena.sqlite') });
  try {
    expect(store.tournaments.get(id)).toMatchObject({ gameAttempts: 16, gamesStarted: 16, gamesSettled: 16 });
    expect(JSON.parse(JSON.stringify(runTally(store, id)))).toEqual(
      JSON.parse(JSON.stringify(tallyOfOrderedRows(store.tournaments.eachGame(id), 2))),
    );
  } finally {
    store.close();
  }
}, 180_000);
