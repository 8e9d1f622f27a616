// Migration 0120 on a database written before it: counts on the tournament row and `superseded` flags are backfilled
// from the stored games, the run tally is rebuilt from them the first time it is needed, and the next commit carries
// on from there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../../engine/db/store.js';
import { commitGame, runTally } from '../../../engine/tournaments/results/game-commit.js';
import { tallyOfRows } from '../../../engine/tournaments/results/run-tally.js';
import { databaseBefore } from '../../support/database-before.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-counters-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const GAME = {
  round: 0,
  pairing_index: 0,
  opening: 0,
  challenge: 'psi',
  seats: '[0,1]',
  seed: 's',
  set_size: 1,
  invites: '[]',
  faulted_seats: '[]',
  detail: '',
  transcript: '[]',
  agent_ms: 0,
  started_at: 1,
  ended_at: 2,
};

it('backfills counts and flags, rebuilds the tally once, and the next commit continues it', () => {
  const file = path.join(dir, 'arena.sqlite');
  const old = databaseBefore(file, '0120');
  old
    .prepare(`INSERT INTO tournaments (id, name, status, spec, spec_dir, manifest, manifest_hash, planned_games, planned_exact,
      created_at, updated_at) VALUES ('t-old', 'old', 'paused', '{"agents":[{},{}]}', '/', '{}', 'h', 4, 1, 0, 0)`)
    .run();
  const insert = old.prepare(`INSERT INTO tournament_games (tournament_id, game_key, game_index, attempt, round, pairing_index,
    opening, challenge, seats, seed, set_size, invites, termination, fault, faulted_seats, placements, detail, transcript, agent_ms,
    started_at, ended_at) VALUES ('t-old', @key, @index, @attempt, @round, @pairing_index, @opening, @challenge, @seats, @seed,
    @set_size, @invites, @termination, @fault, @faulted_seats, @placements, @detail, @transcript, @agent_ms, @started_at, @ended_at)`);
  const add = (key: string, index: number, attempt: number, termination: string) =>
    insert.run({
      ...GAME,
      key,
      index,
      attempt,
      termination,
      fault: termination === 'completed' ? 'none' : 'harness',
      placements: termination === 'completed' ? (index % 2 ? '[2,1]' : '[1,2]') : null,
    });
  // a: void then played; b: played; c: void, its replay still to come; d: void three times (settled, never rated).
  add('a', 0, 1, 'harness_error');
  add('a', 0, 2, 'completed');
  add('b', 1, 1, 'completed');
  add('c', 2, 1, 'harness_error');
  for (const attempt of [1, 2, 3]) add('d', 3, attempt, 'harness_stall');
  old.close();

  const store = openStore({ file });
  try {
    expect(store.tournaments.get('t-old')).toMatchObject({ gameAttempts: 7, gamesStarted: 4, gamesSettled: 3 });
    const page = store.tournaments.listGames('t-old', { finalOnly: true, limit: 50 });
    expect(page.total).toBe(4);
    expect(page.items.map((g) => [g.gameKey, g.attempt])).toEqual([
      ['a', 2],
      ['b', 1],
      ['c', 1],
      ['d', 3],
    ]);
    expect(store.tournaments.listGames('t-old', { limit: 50 }).total).toBe(7);
    expect(store.tournaments.tally('t-old')).toBeUndefined();
    const tally = runTally(store, 't-old');
    expect(store.tournaments.tally('t-old')?.attempts).toBe(7);
    expect(tally.ratings.voided).toBe(2);
    expect(JSON.parse(JSON.stringify(tally))).toEqual(JSON.parse(JSON.stringify(tallyOfRows(store.tournaments.games('t-old'), 2))));

    const { seq: _seq, ...last } = store.tournaments.games('t-old')[3] as ReturnType<typeof store.tournaments.games>[number];
    commitGame(store, { ...last, attempt: 2, termination: 'completed', fault: 'none', placements: [1, 2], transcript: [] });
    expect(store.tournaments.get('t-old')).toMatchObject({ gameAttempts: 8, gamesStarted: 4, gamesSettled: 4 });
    const after = runTally(store, 't-old');
    expect(after.ratings.voided).toBe(1);
    expect(JSON.parse(JSON.stringify(after))).toEqual(JSON.parse(JSON.stringify(tallyOfRows(store.tournaments.games('t-old'), 2))));
  } finally {
    store.close();
  }
});
