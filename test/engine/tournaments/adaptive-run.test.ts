// format: adaptive end to end (issue 46): `arena run` with the three shipped PSI agents and budget.games 60 stops with
// a stated reason, reports it with the pairs and the budget used, and a run killed with SIGKILL then resumed plays
// exactly the games an uninterrupted run with the same seed plays given the same results. (The PSI agents' games are
// not reproducible run to run — greedy-overclaim against cautious-minimal varies — so the uninterrupted schedule is
// rebuilt from the stored results by a fresh game source, which is what an unkilled run would have scheduled.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseTournamentSpec } from '../../../engine/core/tournament/index.js';
import { openStore } from '../../../engine/db/store.js';
import { isSettled, seatPoints } from '../../../engine/tournaments/results/stats.js';
import { latestOf } from '../../../engine/tournaments/run/attempt-row.js';
import { createGameSource, gameKey } from '../../../engine/tournaments/run/game-source.js';
import { ROOT, tempDir } from './helpers.js';
import { killRunAfterGames, resumeRun } from './kill-resume.js';

const BIN = path.join(ROOT, 'bin/arena.js');
const PSI = path.join(ROOT, 'challenges/psi/agents');
let dir: string;
let specFile: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/run/executor.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = tempDir();
  specFile = path.join(dir, 'adaptive.tournament.yaml');
  fs.writeFileSync(
    specFile,
    YAML.stringify({
      name: 'adaptive psi',
      challenge: 'psi',
      format: 'adaptive',
      budget: { games: 60 },
      concurrency: 2,
      seed: 'adaptive-e2e',
      agents: ['honest-exact', 'greedy-overclaim', 'cautious-minimal'].map((id) => ({ manifest: path.join(PSI, id, 'agent.yaml'), id })),
      limits: { move_seconds: 10, game_seconds: 30 },
    }),
  );
}, 250_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

type Row = { game_index: number; game_key: string; seed: string; termination: string; scores: string };
function games(dataDir: string, id: string): Row[] {
  const db = new Database(path.join(dataDir, 'arena.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        'SELECT game_index, game_key, seed, termination, scores FROM tournament_games WHERE tournament_id = ? ORDER BY game_index, attempt',
      )
      .all(id) as Row[];
  } finally {
    db.close();
  }
}

/** The game keys an uninterrupted run schedules, given the stored results: a fresh source fed them in order. */
function uninterruptedSchedule(dataDir: string, id: string): string[] {
  const parsed = parseTournamentSpec(YAML.parse(fs.readFileSync(specFile, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const store = openStore({ file: path.join(dataDir, 'arena.sqlite') });
  try {
    const latest = new Map<string, ReturnType<typeof latestOf>>();
    for (const row of store.tournaments.eachGame(id)) {
      const seen = latest.get(row.gameKey);
      if (!seen || row.attempt > seen.attempt) latest.set(row.gameKey, latestOf(row));
    }
    const source = createGameSource(parsed.spec, () => 2);
    const keys: string[] = [];
    for (;;) {
      const next = source.next();
      if (next === null) return keys;
      if (next === 'wait') throw new Error('a batch waits on a game the run never stored');
      keys.push(gameKey(next));
      const row = latest.get(gameKey(next));
      if (!row || !isSettled(row)) throw new Error(`game ${gameKey(next)} was scheduled but not stored`);
      source.record(next, seatPoints(row));
    }
  } finally {
    store.close();
  }
}

let reference: { id: string; rows: Row[] } | null = null;

it('arena run of format adaptive with the PSI agents stops with a stated reason within budget.games', () => {
  const dataDir = path.join(dir, 'whole');
  const out = execFileSync(process.execPath, [BIN, 'run', specFile, '--data-dir', dataDir, '--json'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  const events = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const end = events.find((e) => e.event === 'finished');
  const id = events[0]?.tournament_id as string;
  expect(['ranking_decided', 'budget_games']).toContain(end?.stop_reason);
  const rows = games(dataDir, id);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.length).toBeLessThanOrEqual(60);
  // Seat-swapped pairs: every odd game replays the even one's opening with the seats reversed.
  for (let i = 0; i + 1 < rows.length; i += 2) expect(rows[i + 1]?.seed).toBe(rows[i]?.seed);
  const report = JSON.parse(fs.readFileSync(path.join(dataDir, 'reports', id, 'report.json'), 'utf8'));
  const summary = report.ratings.format;
  expect(summary).toMatchObject({ format: 'adaptive', stop_reason: end?.stop_reason, budget: { games: 60, games_done: rows.length } });
  expect(summary.pairs).toHaveLength(2);
  for (const p of summary.pairs) expect(['honest-exact', 'greedy-overclaim', 'cautious-minimal']).toContain(p.upper);
  const md = fs.readFileSync(path.join(dataDir, 'reports', id, 'report.md'), 'utf8');
  expect(md).toContain('## Adaptive schedule');
  expect(md).toMatch(new RegExp(`- Stop: ${end?.stop_reason}`));
  expect(md).toContain(`- Budget used: ${rows.length} of 60 games`);
  expect(rows.map((r) => r.game_key)).toEqual(uninterruptedSchedule(dataDir, id));
  reference = { id, rows };
}, 320_000);

it('kill -9 mid-run and --resume plays the same games as the uninterrupted run', async () => {
  if (!reference) throw new Error('the uninterrupted run failed');
  const dataDir = path.join(dir, 'killed');
  const id = await killRunAfterGames(specFile, dataDir, 9);
  const before = games(dataDir, id).length;
  expect(before).toBeGreaterThanOrEqual(9);
  expect(before).toBeLessThan(reference.rows.length);
  const events = resumeRun(id, dataDir);
  expect(events[0]).toMatchObject({ event: 'started', resumed: true });
  expect(events.at(-1)).toMatchObject({ event: 'finished' });
  const rows = games(dataDir, id);
  // Nothing lost, nothing played twice, and exactly the schedule an unkilled run makes from these results.
  expect(rows.map((r) => r.game_index)).toEqual([...rows.keys()]);
  expect(rows.map((r) => r.game_key)).toEqual(uninterruptedSchedule(dataDir, id));
  // The same seed gives the same openings: the first batch (before any result) matches the uninterrupted run's.
  const opening = (r: Row[]) => r.slice(0, 2).map((g) => [g.game_key, g.seed]);
  expect(opening(rows)).toEqual(opening(reference.rows));
}, 320_000);
