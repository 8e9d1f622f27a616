// One count of rated games at a multi-seat table (issue 43 item 4): three diners of the shipped Dining Cryptographers
// agents (real processes) at one table whose seat-rotation set is three games, cancelled after four games. The
// summary, the standings API, report.json, report.md, games.csv and `arena verify` on the audit bundle (a real process)
// must all say 3 of 4 finished games rated, the fourth held back as an incomplete set.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { RATED_GAMES_RULE } from '../../../engine/core/ratings/index.js';
import { pythonCsvText } from '../../support/csv.js';
import { engineForFile, ROOT, spec } from './helpers.js';

const ctx = engineForFile();
const BIN = path.join(ROOT, 'bin/arena.js');
const DINERS = path.join(ROOT, 'challenges/dining-cryptographers/agents');

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/bundle/bundle.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
}, 250_000);

const api = async <T>(route: string): Promise<T> => {
  const res = await fetch(`${ctx.engine.url}/admin/api/v1${route}`, { headers: { authorization: `Bearer ${ctx.engine.token}` } });
  expect(res.status, route).toBe(200);
  return (res.headers.get('content-type') ?? '').includes('json') ? ((await res.json()) as T) : ((await res.text()) as T);
};

it('a cancelled three-seat run says 3 of 4 finished games rated (1 incomplete set) everywhere', async () => {
  const raw = spec({
    challenge: 'dining-cryptographers',
    seed: 'rated-counts-3',
    games_per_pairing: 6,
    concurrency: 1,
    agents: [
      { manifest: path.join(DINERS, 'accuse-random/agent.yaml'), id: 'accuse-a' },
      { manifest: path.join(DINERS, 'guess-unknown/agent.yaml'), id: 'unknown-b' },
      { manifest: path.join(DINERS, 'accuse-random/agent.yaml'), id: 'accuse-c' },
    ],
  });
  const t = ctx.engine.tournaments.create(raw, ROOT);
  ctx.engine.tournaments.subscribe(t.id, (e) => {
    if (e.event === 'game_ended' && e.games_done === 4) ctx.engine.tournaments.cancel(t.id);
  });
  expect((await ctx.engine.tournaments.start(t.id)).status).toBe('cancelled');
  await ctx.engine.tournaments.settled(t.id);

  const expected = {
    finished: 4,
    rated: 3,
    unrated: { void: 0, incomplete_set: 1, repeated_seat_order: 0 },
    incomplete_sets: 1,
    text: '3 of 4 finished games rated (1 incomplete set)',
    rule: RATED_GAMES_RULE,
  };
  const summary = await api<{ games_done: number }>(`/tournaments/${t.id}`);
  expect(summary.games_done).toBe(4);
  const standings = await api<{ rated_games: unknown; standings: { combined: Array<{ games: number }> } }>(
    `/tournaments/${t.id}/standings`,
  );
  expect(standings.rated_games).toEqual(expected);
  // Every diner sits at every game of the table: each standing counts the three rated games.
  expect(standings.standings.combined.map((row) => row.games)).toEqual([3, 3, 3]);

  const report = await api<{ rated_games: unknown; games: Array<{ rated: boolean; unrated_reason: string | null }> }>(
    `/tournaments/${t.id}/exports/report.json`,
  );
  expect(report.rated_games).toEqual(expected);
  expect(report.games.map((g) => [g.rated, g.unrated_reason])).toEqual([
    [true, null],
    [true, null],
    [true, null],
    [false, 'incomplete_set'],
  ]);
  const md = await api<string>(`/tournaments/${t.id}/exports/report.md`);
  expect(md).toContain('- Rated: 3 of 4 finished games rated (1 incomplete set); 6 planned');
  const csv = pythonCsvText(await api<string>(`/tournaments/${t.id}/exports/games.csv`));
  expect(csv.rows.map((r) => [r.game, r.rated, r.unrated_reason])).toEqual([
    ['1', 'true', ''],
    ['2', 'true', ''],
    ['3', 'true', ''],
    ['4', 'false', 'incomplete_set'],
  ]);
  expect(csv.header).toEqual(expect.arrayContaining(['seat1_agent', 'seat2_agent', 'seat3_agent']));

  const bundle = path.join(ctx.dir, 'three-seats.bundle.tar.gz');
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], {
      cwd: ctx.dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, ARENA_DATA_DIR: '' },
    });
  const exported = run('export', '--bundle', t.id, '--data-dir', ctx.dir, '--out', bundle);
  expect(exported.status, exported.stderr).toBe(0);
  const verified = run('verify', bundle);
  expect(verified.stdout).toContain('recomputed from 4 game records agree (3 of 4 finished games rated (1 incomplete set))');
  expect(verified.status).toBe(0);
}, 240_000);
