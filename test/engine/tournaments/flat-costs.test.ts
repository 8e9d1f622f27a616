// Costs that must not grow with the tournament (issue 14 §6): the run tally folded into SQLite with every commit
// equals a from-scratch recomputation after every game of a run (voids, replays and forfeits included); the list,
// one tournament, a games page, standings and charts read the same rows at 2,000 and 20,000 games, and every read
// of tournament_games is bounded (LIMIT or a rowid lookup); streamed exports equal the old full exports byte for byte;
// the executor holds in memory only the games it has not settled.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../../engine/app.js';
import {
  agentWdl,
  type GameRecord,
  isRated,
  partitionForRatings,
  pentanomialCounts,
  ratingIntervals,
  ratingUnits,
  seatScores,
  sprtStatus,
  type Termination,
} from '../../../engine/core/ratings/index.js';
import type { ScheduledGame } from '../../../engine/core/tournament/index.js';
import { exportInput } from '../../../engine/tournaments/exports/export-input.js';
import { writeExports } from '../../../engine/tournaments/exports/exports.js';
import { runTally } from '../../../engine/tournaments/results/game-commit.js';
import { tallyOfOrderedRows } from '../../../engine/tournaments/results/run-tally.js';
import { finalGames, gameRecord, isSettled } from '../../../engine/tournaments/results/stats.js';
import { writeExports as writeReferenceExports } from './export-reference.js';
import { engineIn, MILLIONAIRE, ROOT, runTemplate, scripted, spec, tempDir } from './helpers.js';

// Every statement the engine runs, with what it returned, while `recording` is on (better-sqlite3 is one module for
// the test and the engine, so wrapping prepare before the engine opens its store sees all of its statements).
interface Executed {
  sql: string;
  args: unknown[];
  rows: number;
}
let recording: Executed[] | null = null;
const originalPrepare = Database.prototype.prepare;
beforeAll(() => {
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    const statement = originalPrepare.call(this, sql) as Database.Statement;
    const wrap = <K extends 'all' | 'get' | 'run'>(name: K, count: (result: unknown) => number) => {
      const method = statement[name].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        const result = method(...args);
        recording?.push({ sql, args, rows: count(result) });
        return result;
      };
    };
    wrap('all', (r) => (r as unknown[]).length);
    wrap('get', (r) => (r === undefined ? 0 : 1));
    wrap('run', () => 0);
    const iterate = statement.iterate.bind(statement) as (...args: unknown[]) => IterableIterator<unknown>;
    (statement as unknown as Record<string, unknown>).iterate = function* (...args: unknown[]) {
      const entry = { sql, args, rows: 0 };
      recording?.push(entry);
      for (const row of iterate(...args)) {
        entry.rows++;
        yield row;
      }
    };
    return statement as never;
  } as typeof Database.prototype.prepare;
});
afterAll(() => {
  Database.prototype.prepare = originalPrepare;
});

/** A seeded mix of results: wins, draws, agent forfeits and harness faults (void, replayed). */
function mixed(seed: number) {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
  return (game: ScheduledGame) => {
    const r = next();
    if (r < 0.12) return { termination: 'harness_error' as const };
    if (r < 0.2) return { termination: 'agent_crash' as const, faultedSeats: [next() < 0.5 ? 0 : 1] };
    if (r < 0.35) return { placements: game.seats.map(() => 1) };
    return { placements: next() < 0.6 ? [1, 2] : [2, 1] };
  };
}

const three = [
  { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'a' },
  { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'b' },
  { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'c' },
];

const close = (a: number | null | undefined, b: number | null | undefined) => {
  if (a === null || a === undefined || !Number.isFinite(a)) expect(b === null || b === undefined || !Number.isFinite(b)).toBe(true);
  else expect(a).toBeCloseTo(b as number, 8);
};

describe('flat costs', () => {
  let engine: RunningEngine;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir();
    engine = await engineIn(dir);
  });
  afterAll(async () => {
    await engine?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps standings, counts and warnings equal to a from-scratch recomputation after every game', async () => {
    engine.tournaments.overrides.runners = scripted(mixed(11));
    const t = engine.tournaments.create(spec({ agents: three, format: { kind: 'round-robin', cycles: 4 }, seed: 'flat-1' }), ROOT);
    let checked = 0;
    engine.tournaments.subscribe(t.id, (e) => {
      if (e.event !== 'game_ended') return;
      const rows = engine.store.tournaments.games(t.id);
      const finals: GameRecord[] = finalGames(rows).map(gameRecord);
      const { rated, voided, incompleteUnits } = partitionForRatings(finals);
      const { stats } = engine.tournaments.statistics(t.id);
      expect(stats.ratings.voidedGames).toBe(voided.length);
      expect(stats.ratings.incompleteUnits).toEqual(incompleteUnits);
      const terminations: Record<string, number> = {};
      for (const row of rows) terminations[row.termination] = (terminations[row.termination] ?? 0) + 1;
      expect(stats.terminations).toEqual(terminations);
      const summary = engine.tournaments.summary(t.id);
      expect(summary.games_done).toBe(new Set(rows.filter(isSettled).map((r) => r.gameKey)).size);
      const stored = engine.store.tournaments.get(t.id);
      expect(stored?.gameAttempts).toBe(rows.length);
      expect(stored?.gamesStarted).toBe(new Set(rows.map((r) => r.gameKey)).size);
      if (rated.length > 0) {
        const board = stats.ratings.perChallenge.millionaire;
        const wdl = agentWdl(rated, 3);
        const fit = ratingIntervals(3, ratingUnits(rated));
        const points = [0, 0, 0];
        for (const g of rated) {
          const s = seatScores(g);
          g.seats.forEach((a, seat) => {
            points[a] = (points[a] as number) + (s[seat] as number);
          });
        }
        expect(board?.games).toBe(rated.length);
        for (let agent = 0; agent < 3; agent++) {
          const mine = board?.agents[agent];
          expect(mine?.wdl).toEqual(wdl[agent]);
          close(mine?.points, points[agent]);
          close(mine?.rating.rating, fit.agents[agent]?.rating);
          close(mine?.rating.lower, fit.agents[agent]?.lower);
          close(mine?.rating.upper, fit.agents[agent]?.upper);
          expect(mine?.rating.rankRange).toEqual(fit.agents[agent]?.rankRange);
          close(stats.ratings.combined.agents[agent]?.rating.rating, fit.agents[agent]?.rating);
        }
      } else expect(stats.ratings.perChallenge).toEqual({});
      checked++;
    });
    const outcome = await engine.tournaments.start(t.id);
    expect(outcome.status).toBe('finished');
    const rows = engine.store.tournaments.games(t.id);
    // Replays happened (void attempts were superseded) and every game end was checked.
    expect(rows.some((r) => !isRated(r.termination as Termination))).toBe(true);
    expect(rows.length).toBeGreaterThan(t.plannedGames);
    expect(checked).toBe(rows.length);
  }, 60_000);

  it('keeps the SPRT state equal to a recomputation from the games after every game', async () => {
    engine.tournaments.overrides.runners = scripted(mixed(5));
    const stop = { kind: 'sprt', elo0: -10, elo1: 10, alpha: 0.001, beta: 0.001 };
    const t = engine.tournaments.create(spec({ games_per_pairing: 60, stop, seed: 'flat-sprt' }), ROOT);
    let checked = 0;
    engine.tournaments.subscribe(t.id, (e) => {
      if (e.event !== 'game_ended') return;
      const rated = partitionForRatings(finalGames(engine.store.tournaments.games(t.id)).map(gameRecord)).rated;
      const expected = sprtStatus(pentanomialCounts(rated, 0, 1), { elo0: -10, elo1: 10, alpha: 0.001, beta: 0.001 });
      expect(e.sprt?.llr).toBeCloseTo(expected.llr, 9);
      expect(e.sprt?.decision).toBe(expected.decision);
      checked++;
    });
    await engine.tournaments.start(t.id);
    expect(checked).toBeGreaterThan(60);
  }, 60_000);

  it('keeps in memory only the games not settled yet, in a live run and in a resumed one', async () => {
    engine.tournaments.overrides.runners = scripted(mixed(23));
    const t = engine.tournaments.create(spec({ agents: three, format: { kind: 'round-robin', cycles: 25 }, seed: 'flat-held' }), ROOT);
    /** Game keys whose latest committed attempt is void (a replay is owed), from the database. */
    const unsettledKeys = () => {
      const rows = engine.store.tournaments.games(t.id);
      const latest = new Map<string, (typeof rows)[number]>();
      for (const row of rows) if ((latest.get(row.gameKey)?.attempt ?? 0) < row.attempt) latest.set(row.gameKey, row);
      return [...latest.values()].filter((row) => !isSettled(row)).length;
    };
    const settledKeys = () => {
      const settled = engine.store.tournaments.games(t.id).filter(isSettled);
      return new Set(settled.map((r) => r.gameKey)).size;
    };
    let phase: 'live' | 'resumed' = 'live';
    let settledAtPause = 0;
    let live = 0;
    let resumed = 0;
    let maxHeld = 0;
    const liveHeld: { held: number; owed: number }[] = [];
    const resumedOver: { held: number; bound: number }[] = [];
    engine.tournaments.subscribe(t.id, (e) => {
      if (e.event !== 'game_ended') return;
      const held = engine.tournaments.heldAttempts(t.id) as number;
      maxHeld = Math.max(maxHeld, held);
      if (phase === 'live') {
        liveHeld.push({ held, owed: unsettledKeys() });
        if (++live === 80) engine.tournaments.pause(t.id);
      } else {
        const bound = unsettledKeys() + settledAtPause;
        if (held > bound) resumedOver.push({ held, bound });
        resumed++;
      }
    });
    expect((await engine.tournaments.start(t.id)).status).toBe('paused');
    expect(engine.tournaments.heldAttempts(t.id)).toBeNull();
    phase = 'resumed';
    settledAtPause = settledKeys();
    expect((await engine.tournaments.start(t.id)).status).toBe('finished');
    const games = settledKeys();
    expect(games).toBe(150);
    expect(live).toBeGreaterThanOrEqual(80);
    // Live: exactly the void attempts waiting for a replay, so a settled game is not kept.
    expect(liveHeld.filter((h) => h.held !== h.owed)).toEqual([]);
    expect(liveHeld.some((h) => h.owed > 0)).toBe(true);
    // Resumed: also the committed games its schedule has not reached yet, and no more.
    expect(resumedOver).toEqual([]);
    expect(resumed).toBeGreaterThan(50);
    // Before, every game of the run stayed in memory to its end.
    expect(maxHeld).toBeLessThan(20);
  }, 60_000);

  it('serves list, tournament, games page, standings and charts reading the same rows at 2,000 and 20,000 games', async () => {
    // A real run's rows (through the executor), copied in bulk through the commit path into two tournaments.
    engine.tournaments.overrides.runners = scripted(mixed(3));
    const source = engine.tournaments.create(spec({ agents: three, format: { kind: 'round-robin', cycles: 3 }, seed: 'flat-2' }), ROOT);
    await engine.tournaments.start(source.id);
    const template = runTemplate(engine, source.id);
    const grow = (attempts: number): string => {
      const t = engine.tournaments.create(spec({ agents: three, format: { kind: 'round-robin', cycles: 3 }, seed: 'flat-2' }), ROOT);
      for (let k = 0, n = 0; n < attempts; k++) {
        engine.store.transaction(() => {
          n += template.copy(t.id, k, attempts - n);
        });
      }
      return t.id;
    };
    const small = grow(2_000);
    const large = grow(20_000);
    expect(engine.store.tournaments.get(large)?.gameAttempts).toBe(20_000);

    const api = (p: string) => `${engine.url}/admin/api/v1${p}`;
    const auth = { headers: { authorization: `Bearer ${engine.token}` } };
    const reads = async (id: string) => {
      const out: Record<string, Executed[]> = {};
      for (const p of [
        '/tournaments?limit=50',
        `/tournaments/${id}`,
        `/tournaments/${id}/games?limit=50`,
        `/tournaments/${id}/standings`,
        `/tournaments/${id}/charts`,
      ]) {
        // Warm once (a first standings request after new games runs the fits), then record the second.
        expect((await fetch(api(p), auth)).status).toBe(200);
        recording = [];
        const res = await fetch(api(p), auth);
        out[p.replace(id, ':id')] = recording;
        recording = null;
        expect(res.status).toBe(200);
      }
      return out;
    };
    const few = await reads(small);
    const many = await reads(large);
    const shape = (runs: Record<string, Executed[]>) =>
      Object.fromEntries(Object.entries(runs).map(([p, list]) => [p, list.map((e) => ({ sql: e.sql, rows: e.rows }))]));
    expect(shape(many)).toEqual(shape(few));
    // The games page reads its 50 rows, the list reads no game at all.
    expect(many['/tournaments?limit=50']?.some((e) => e.sql.includes('tournament_games'))).toBe(false);
    expect(many['/tournaments/:id/games?limit=50']?.find((e) => e.sql.includes('FROM tournament_games'))?.rows).toBe(50);
    // Every read of the games table is bounded: a LIMIT on an index, or a rowid lookup.
    const db = new Database(path.join(dir, 'arena.sqlite'), { readonly: true });
    try {
      for (const list of Object.values(many))
        for (const e of list.filter((x) => /FROM tournament_games/.test(x.sql))) {
          const plan = (db.prepare(`EXPLAIN QUERY PLAN ${e.sql}`).all(...e.args) as Array<{ detail: string }>).map((p) => p.detail);
          expect(plan.join('; '), e.sql).not.toMatch(/SCAN tournament_games|SCAN g\b/);
          if (!/LIMIT/.test(e.sql)) expect(plan.join('; '), e.sql).toMatch(/INTEGER PRIMARY KEY \(rowid=\?\)/);
        }
    } finally {
      db.close();
    }

    // The stored tally is what a rebuild from the games gives, and the streamed exports equal the old full ones.
    expect(JSON.parse(JSON.stringify(runTally(engine.store, small)))).toEqual(
      JSON.parse(JSON.stringify(tallyOfOrderedRows(engine.store.tournaments.eachGame(small), 3))),
    );
    const { tournament, loaded, stats } = engine.tournaments.statistics(small);
    const base = { tournament, agentIds: loaded.agents.map((a) => a.id), stats, summary: null };
    const snapshot = exportInput(engine.store, base);
    const ours = await writeExports(path.join(dir, 'ours'), snapshot.input).finally(snapshot.close);
    const theirs = writeReferenceExports(path.join(dir, 'theirs'), { store: engine.store, ...base });
    for (const file of ['report.json', 'events.jsonl', 'report.md', 'standings.csv', 'games.csv', 'manifest.json'])
      expect(fs.readFileSync(path.join(ours, file)).equals(fs.readFileSync(path.join(theirs, file))), file).toBe(true);
  }, 240_000);
});
