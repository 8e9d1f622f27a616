// Exports of a large run are written from a snapshot while the engine keeps serving: the HTTP server answers during
// the export, a game committed meanwhile stays out of every file (and out of the statistics written with them), the
// next export has it (asked for during the first, it waits for it; asked for with the run unchanged, it shares it).
// Every cursor an export opens streams the games from an index in commit order: a sort of the whole run first would
// hold every row, transcripts included, before the first came back.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { engineForFile, MILLIONAIRE, ROOT, runTemplate, scripted, spec } from './helpers.js';

const ctx = engineForFile();

const two = [
  { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'a' },
  { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'b' },
];

/** What the export files say about the run's games: attempts in each file, and every game index they name. */
function readExports(dir: string) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
  const events = fs
    .readFileSync(path.join(dir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const csvRows = fs.readFileSync(path.join(dir, 'games.csv'), 'utf8').trim().split('\n').slice(1);
  const terminations = Object.values(report.terminations as Record<string, number>).reduce((a, b) => a + b, 0);
  return {
    reportGames: report.games.length as number,
    terminations,
    started: events.filter((e) => e.event === 'game_started').length,
    csvRows: csvRows.length,
    indices: new Set<number>([
      ...report.games.map((g: { game_index: number }) => g.game_index),
      ...events.filter((e) => e.event === 'game_started').map((e) => e.game_index as number),
      // games.csv numbers games from 1.
      ...csvRows.map((row) => Number(row.split(',')[0]) - 1),
    ]),
  };
}

it('writes a large run from a snapshot while the engine serves, keeps later games out, and queues or shares exports of one run', async () => {
  const engine = ctx.engine;
  engine.tournaments.overrides.runners = scripted((game) => ({ placements: game.gameIndex % 3 === 0 ? [1, 1] : [1, 2] }));
  const source = engine.tournaments.create(spec({ agents: two, format: { kind: 'round-robin', cycles: 2 }, seed: 'snap' }), ROOT);
  await engine.tournaments.start(source.id);
  const template = runTemplate(engine, source.id);
  const t = engine.tournaments.create(spec({ agents: two, format: { kind: 'round-robin', cycles: 2 }, seed: 'snap' }), ROOT);
  const copies = Math.ceil(6_000 / template.rows.length);
  engine.store.transaction(() => {
    for (let k = 0; k < copies; k++) template.copy(t.id, k);
  });
  const before = copies * template.rows.length;

  // The statements the export's cursors run, on whatever connection they are prepared.
  const cursors = new Set<string>();
  const originalPrepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    const statement = originalPrepare.call(this, sql) as Database.Statement;
    const iterate = statement.iterate.bind(statement) as (...args: unknown[]) => IterableIterator<unknown>;
    (statement as unknown as Record<string, unknown>).iterate = (...args: unknown[]) => {
      cursors.add(sql);
      return iterate(...args);
    };
    return statement as never;
  } as typeof Database.prototype.prepare;
  let settled = false;
  const firstJob = engine.tournaments.exportReports(t.id);
  const first = firstJob.finally(() => {
    Database.prototype.prepare = originalPrepare;
    settled = true;
  });
  // The engine answers an HTTP request and commits more games while the export is being written.
  const res = await fetch(`${engine.url}/admin/api/v1/tournaments/${t.id}`, { headers: { authorization: `Bearer ${engine.token}` } });
  expect(res.status).toBe(200);
  // Asked for again with the run unchanged: the export in progress is shared, not repeated.
  expect(engine.tournaments.exportReports(t.id)).toBe(firstJob);
  engine.store.transaction(() => template.copy(t.id, copies));
  // Asked for after a commit: a new export, after the one in progress.
  const secondJob = engine.tournaments.exportReports(t.id);
  expect(secondJob).not.toBe(firstJob);
  expect(settled).toBe(false);
  const dir = await first;
  const old = readExports(dir);
  expect(old).toMatchObject({ reportGames: before, terminations: before, started: before, csvRows: before });
  const later = template.rows.map((r) => r.gameIndex + copies * template.span);
  for (const index of later) expect(old.indices.has(index)).toBe(false);
  expect(cursors.size).toBeGreaterThanOrEqual(2);
  const db = new Database(path.join(ctx.dir, 'arena.sqlite'), { readonly: true });
  try {
    for (const sql of cursors) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(t.id) as Array<{ detail: string }>).map((p) => p.detail).join('; ');
      expect(plan, sql).not.toMatch(/TEMP B-TREE|SCAN tournament_games/);
    }
  } finally {
    db.close();
  }

  expect(await secondJob).toBe(dir);
  const fresh = readExports(dir);
  const after = before + template.rows.length;
  expect(fresh).toMatchObject({ reportGames: after, terminations: after, started: after, csvRows: after });
  for (const index of later) expect(fresh.indices.has(index)).toBe(true);
  expect(fs.readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  // An unknown run is refused at once, not queued.
  expect(() => engine.tournaments.exportReports('t-nope')).toThrow(/no tournament t-nope/);
}, 120_000);
