// One count of rated games everywhere (issue 43 item 4). A seat-swapped run of the shipped Millionaire agents (real
// processes) is paused after an odd number of games, resumed, then cancelled after another odd number: each time one
// pair has only its first game. The summary (the app's header), the standings API, report.json, report.md, games.csv,
// the audit bundle and `arena verify` (real processes) must all say the same: N − 1 of N finished games rated, the
// one left out an incomplete set, and say why.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { TournamentEvent } from '../../../engine/contract/tournament.js';
import { RATED_GAMES_RULE } from '../../../engine/core/ratings/index.js';
import { readTarGz, writeTarGz } from '../../../engine/tournaments/bundle/bundle.js';
import { pythonCsvText } from '../../support/csv.js';
import { engineForFile, MILLIONAIRE, ROOT, spec } from './helpers.js';

const ctx = engineForFile();
const BIN = path.join(ROOT, 'bin/arena.js');

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/bundle/bundle.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
}, 250_000);

const api = async <T>(route: string, init: RequestInit = {}): Promise<T> => {
  const res = await fetch(`${ctx.engine.url}/admin/api/v1${route}`, {
    ...init,
    headers: { authorization: `Bearer ${ctx.engine.token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  expect(res.status, `${route}: ${res.status}`).toBe(200);
  return (res.headers.get('content-type') ?? '').includes('json') ? ((await res.json()) as T) : ((await res.text()) as T);
};
const arena = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], {
    cwd: ctx.dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ARENA_DATA_DIR: '' },
  });

interface Rated {
  finished: number;
  rated: number;
  unrated: { void: number; incomplete_set: number; repeated_seat_order: number };
  incomplete_sets: number;
  text: string;
  rule: string;
}

/** What every view must say after `done` finished games of seat-swapped pairs, the last pair missing its second game. */
function expected(done: number): Rated {
  return {
    finished: done,
    rated: done - 1,
    unrated: { void: 0, incomplete_set: 1, repeated_seat_order: 0 },
    incomplete_sets: 1,
    text: `${done - 1} of ${done} finished games rated (1 incomplete set)`,
    rule: RATED_GAMES_RULE,
  };
}

/** The summary and the standings API agree with each other and with `expected(done)`. */
async function liveCounts(id: string, done: number) {
  const summary = await api<{ games_done: number; status: string }>(`/tournaments/${id}`);
  expect(summary.games_done).toBe(done);
  const standings = await api<{
    rated_games: Rated;
    standings: { combined: Array<{ games: number; wins: number; draws: number; losses: number }> };
  }>(`/tournaments/${id}/standings`);
  expect(standings.rated_games).toEqual(expected(done));
  // Two agents, each in every game: each agent's standing counts the rated games, no more.
  for (const row of standings.standings.combined) {
    expect(row.games).toBe(done - 1);
    expect(row.wins + row.draws + row.losses).toBe(done - 1);
  }
  return summary.status;
}

it('a paused, resumed and cancelled seat-swapped run reports the same rated count everywhere, with the reason', async () => {
  const raw = spec({
    seed: 'rated-counts-1',
    games_per_pairing: 8,
    concurrency: 1,
    agents: [
      { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
      { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'bluffer' },
    ],
  });
  const t = ctx.engine.tournaments.create(raw, ROOT);
  // Stop as a game ends, before the next one starts (one game at a time): 3 games leave the second pair half played.
  let stopAt: { done: number; action: 'pause' | 'cancel' } = { done: 3, action: 'pause' };
  const events: TournamentEvent[] = [];
  let cancelled: () => void = () => {};
  const cancelledEvent = new Promise<void>((resolve) => {
    cancelled = resolve;
  });
  ctx.engine.tournaments.subscribe(t.id, (e) => {
    events.push(e);
    if (e.event === 'game_ended' && e.games_done === stopAt.done) ctx.engine.tournaments[stopAt.action](t.id);
    if (e.event === 'cancelled') cancelled();
  });
  expect((await ctx.engine.tournaments.start(t.id)).status).toBe('paused');
  expect(await liveCounts(t.id, 3)).toBe('paused');

  // Resumed over HTTP, cancelled after game 5.
  stopAt = { done: 5, action: 'cancel' };
  await api(`/tournaments/${t.id}/resume`, { method: 'POST' });
  await cancelledEvent;
  await ctx.engine.tournaments.settled(t.id);
  expect(await liveCounts(t.id, 5)).toBe('cancelled');
  const games = events.filter((e) => e.event === 'game_ended');
  expect(games).toHaveLength(5);
  expect(games.every((e) => e.event === 'game_ended' && !e.replay)).toBe(true);
  // The live leader (`arena run`'s progress line) counts the rated games too: none after the first game of a pair.
  expect(games.map((e) => (e.event === 'game_ended' ? (e.leader?.games ?? null) : null))).toEqual([null, 2, 2, 4, 4]);

  // report.json: the same counts, and each game marked; the one game left out is the first of the last pair.
  const report = await api<{
    rated_games: Rated;
    games: Array<{
      game_index: number;
      swap_of: number | null;
      seats: string[];
      rated: boolean;
      unrated_reason: string | null;
      counts: boolean;
    }>;
  }>(`/tournaments/${t.id}/exports/report.json`);
  expect(report.rated_games).toEqual(expected(5));
  expect(report.games.map((g) => [g.game_index, g.rated, g.unrated_reason])).toEqual([
    [0, true, null],
    [1, true, null],
    [2, true, null],
    [3, true, null],
    [4, false, 'incomplete_set'],
  ]);
  expect(report.games[4]?.counts).toBe(true);

  // report.md says it in words, with the rule.
  const md = await api<string>(`/tournaments/${t.id}/exports/report.md`);
  expect(md).toContain('- Rated: 4 of 5 finished games rated (1 incomplete set); 8 planned');
  expect(md).toContain(RATED_GAMES_RULE);
  expect(md).not.toContain('void (not rated)');

  // games.csv: a rated column and its reason, games and seats numbered from 1.
  const csv = pythonCsvText(await api<string>(`/tournaments/${t.id}/exports/games.csv`));
  expect(csv.header.slice(0, 5)).toEqual(['game', 'attempt', 'counts', 'rated', 'unrated_reason']);
  expect(csv.rows.map((r) => [r.game, r.rated, r.unrated_reason])).toEqual([
    ['1', 'true', ''],
    ['2', 'true', ''],
    ['3', 'true', ''],
    ['4', 'true', ''],
    ['5', 'false', 'incomplete_set'],
  ]);
  expect(csv.rows.map((r) => r.pair_of)).toEqual(['', '1', '', '3', '']);
  csv.rows.forEach((r, i) => {
    expect([r.seat1_agent, r.seat2_agent]).toEqual(report.games[i]?.seats);
  });
  expect(csv.header).not.toContain('seat0_agent');

  // The audit bundle and `arena verify`, as real processes: the recomputation from the game records agrees.
  const bundle = path.join(ctx.dir, 'cancelled.bundle.tar.gz');
  const exp = arena('export', '--bundle', t.id, '--data-dir', ctx.dir, '--out', bundle);
  expect(exp.stderr).toBe('');
  expect(exp.status).toBe(0);
  const ok = arena('verify', bundle);
  expect(ok.stdout).toContain('recomputed from 5 game records agree (4 of 5 finished games rated (1 incomplete set))');
  expect(ok.status).toBe(0);
  const files = readTarGz(fs.readFileSync(bundle));
  expect(JSON.parse((files.get('reports/report.json') as Buffer).toString('utf8')).rated_games).toEqual(expected(5));

  // A bundle that calls the held-back game rated (bundle.json rewritten to match) fails, naming the file.
  const forge = (file: string, change: (text: string) => string) => {
    const copy = new Map(files);
    const data = Buffer.from(change((copy.get(file) as Buffer).toString('utf8')));
    copy.set(file, data);
    const index = JSON.parse((copy.get('bundle.json') as Buffer).toString('utf8'));
    for (const f of index.files) if (f.path === file) f.sha256 = createHash('sha256').update(data).digest('hex');
    copy.set('bundle.json', Buffer.from(JSON.stringify(index)));
    const out = path.join(ctx.dir, `forged-${path.basename(file)}.tar.gz`);
    fs.writeFileSync(out, writeTarGz([...copy].map(([p, d]) => ({ path: p, data: d }))));
    return arena('verify', out);
  };
  const json = forge('reports/report.json', (text) => {
    const r = JSON.parse(text);
    r.games[4].rated = true;
    r.games[4].unrated_reason = null;
    return JSON.stringify(r, null, 2);
  });
  expect(json.status).toBe(1);
  expect(json.stdout).toMatch(
    /^FAIL {2}reports\/report\.json: game 4 attempt 1 is marked rated, the game records give unrated \(incomplete_set\)$/m,
  );
  const counted = forge('reports/report.json', (text) => {
    const r = JSON.parse(text);
    r.rated_games.rated = 5;
    return JSON.stringify(r, null, 2);
  });
  expect(counted.status).toBe(1);
  expect(counted.stdout).toMatch(/^FAIL {2}reports\/report\.json: rated_games says/m);
  const row = forge('reports/games.csv', (text) => text.replace(/,false,incomplete_set,/, ',true,,'));
  expect(row.status).toBe(1);
  expect(row.stdout).toMatch(/^FAIL {2}reports\/games\.csv: row 5 says rated=true, the game records give unrated \(incomplete_set\)$/m);
  const line = forge('reports/report.md', (text) => text.replace('4 of 5 finished games rated', '5 of 5 finished games rated'));
  expect(line.status).toBe(1);
  expect(line.stdout).toMatch(/^FAIL {2}reports\/report\.md: /m);
}, 240_000);
