// Acceptance 12 (repositories): chat indices, session rows and invites, user merge semantics, on a real SQLite file.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChallengeOperatorState } from '../../../engine/contract/specarena.js';
import { openStore, type Store, type StoredSession } from '../../../engine/db/store.js';
import { makeTempDataDir } from '../../support/server.js';

const dir = makeTempDataDir('arena-store-');
let file: string;
let store: Store;
let n = 0;

beforeEach(() => {
  file = path.join(dir, `store-${++n}.sqlite`);
  store = openStore({ file });
});
afterEach(() => store.close());
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A second, independent connection: what another process (or a restart) would read. */
function peek<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

function session(id: string, overrides: Partial<StoredSession> = {}): StoredSession {
  const state: ChallengeOperatorState = {
    status: 'open',
    scores: [
      { security: 0, utility: 0 },
      { security: 0, utility: 0 },
    ],
    players: [],
    playerIdentities: {},
  };
  // A cast, so the helper keeps compiling when the repository grows optional columns.
  return {
    id,
    name: 'psi',
    challengeType: 'psi',
    createdAt: 1000,
    completedAt: null,
    lastActivityAt: 1000,
    status: 'open',
    gameCategory: 'train',
    options: { players: 2 },
    gameState: { secret: [1, 2, 3] },
    state,
    invites: [`inv_${id}_0`, `inv_${id}_1`],
    ...overrides,
  } as StoredSession;
}

describe('chat repository', () => {
  it('assigns 1-based, gap-free indices per channel', () => {
    const order = ['a', 'b', 'a', 'a', 'c', 'b', 'a'];
    const got = order.map((channel, i) => store.transaction(() => store.chat.append(channel, 'p', `m${i}`, 100 + i)).index);
    expect(got).toEqual([1, 1, 2, 3, 1, 2, 4]);
    expect(store.chat.since('a', 0).map((m) => [m.index, m.content])).toEqual([
      [1, 'm0'],
      [2, 'm2'],
      [3, 'm3'],
      [4, 'm6'],
    ]);
    expect(store.chat.since('a', 3).map((m) => m.index)).toEqual([3, 4]);
    expect(store.chat.since('nowhere', 0)).toEqual([]);
    // Committed rows are visible to another connection, with the same indices.
    expect(peek<{ idx: number }>('SELECT idx FROM chat_messages WHERE channel = ? ORDER BY idx', 'b').map((r) => r.idx)).toEqual([1, 2]);
  });

  it('leaves no gap when an append is rolled back (savepoint inside a transaction)', () => {
    store.transaction(() => {
      store.chat.append('ch', 'p', 'kept-1', 1);
      expect(() =>
        store.transaction(() => {
          store.chat.append('ch', 'p', 'dropped', 2);
          throw new Error('operator refused');
        }),
      ).toThrow('operator refused');
      store.chat.append('ch', 'p', 'kept-2', 3);
    });
    expect(() =>
      store.transaction(() => {
        store.chat.append('ch', 'p', 'outer-dropped', 4);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.chat.append('ch', 'p', 'kept-3', 5).index).toBe(3);
    expect(store.chat.since('ch', 0).map((m) => [m.index, m.content])).toEqual([
      [1, 'kept-1'],
      [2, 'kept-2'],
      [3, 'kept-3'],
    ]);
  });

  it('keeps `to` only on DMs and restarts a deleted channel at 1', () => {
    const broadcast = store.chat.append('x', 'operator', 'to all', 1);
    const dm = store.chat.append('x', 'operator', 'to you', 2, 'inv_1');
    const explicitNull = store.chat.append('x', 'p', 'null to', 3, null);
    expect(broadcast).not.toHaveProperty('to');
    expect(explicitNull).not.toHaveProperty('to');
    expect(dm.to).toBe('inv_1');
    expect(store.chat.since('x', 0)).toEqual([
      { channel: 'x', from: 'operator', content: 'to all', index: 1, timestamp: 1 },
      { channel: 'x', from: 'operator', to: 'inv_1', content: 'to you', index: 2, timestamp: 2 },
      { channel: 'x', from: 'p', content: 'null to', index: 3, timestamp: 3 },
    ]);
    store.chat.append('y', 'p', 'other channel', 4);
    store.chat.deleteChannel('x');
    expect(store.chat.since('x', 0)).toEqual([]);
    expect(store.chat.append('x', 'p', 'again', 5).index).toBe(1);
    expect(store.chat.since('y', 0)).toHaveLength(1);
  });

  it('enforces one row per (channel, index)', () => {
    store.chat.append('u', 'p', 'one', 1);
    const raw = new Database(file);
    try {
      expect(() =>
        raw
          .prepare('INSERT INTO chat_messages (channel, idx, sender, content, timestamp) VALUES (?, ?, ?, ?, ?)')
          .run('u', 1, 'p', 'dup', 2),
      ).toThrow(/UNIQUE/);
    } finally {
      raw.close();
    }
  });
});

describe('sessions repository', () => {
  it('stores and reads back sessions, by id and by invite', () => {
    const s = session('s1');
    store.transaction(() => store.sessions.insert(s));
    expect(store.sessions.get('s1')).toMatchObject({ ...s, invites: ['inv_s1_0', 'inv_s1_1'] });
    expect(store.sessions.getByInvite('inv_s1_1')?.id).toBe('s1');
    expect(store.sessions.get('nope')).toBeUndefined();
    expect(store.sessions.getByInvite('inv_nope')).toBeUndefined();
  });

  it('writes only what an update names: the game alone, or its lifecycle too; seat rows of the seated invites only', () => {
    store.transaction(() => store.sessions.insert(session('s1', { createdAt: 1 })));
    const s1 = store.sessions.get('s1') as StoredSession;
    const moved = {
      ...s1,
      status: 'active' as const,
      lastActivityAt: 77,
      gameState: { round: 2 },
      state: {
        ...s1.state,
        status: 'active' as const,
        players: ['inv_s1_0', 'inv_s1_1'],
        playerIdentities: { inv_s1_0: 'ann', inv_s1_1: 'bob' },
      },
    };
    // A game-only write leaves the status column (and the unfinished-sessions index) as it was.
    store.transaction(() => store.sessions.update(moved, { lifecycle: false, seated: ['inv_s1_1'] }));
    const after = store.sessions.get('s1') as StoredSession;
    expect(after).toMatchObject({ status: s1.status, lastActivityAt: 77, gameState: { round: 2 } });
    expect(after.state.status).toBe('active');
    expect(store.sessions.activity('s1')).toEqual({ status: s1.status, lastActivityAt: 77 });
    expect(
      peek<{ invite: string; user_id: string | null }>(
        'SELECT invite, user_id FROM session_invites WHERE session_id = ? ORDER BY slot',
        's1',
      ),
    ).toEqual([
      { invite: 'inv_s1_0', user_id: null },
      { invite: 'inv_s1_1', user_id: 'bob' },
    ]);
    store.transaction(() => store.sessions.update(moved, { lifecycle: true, seated: [] }));
    // Seat-key checks read only the id, the invites and what expiry needs, by id or by any of the invites.
    const seats = { id: 's1', invites: ['inv_s1_0', 'inv_s1_1'], status: 'active', lastActivityAt: 77 };
    expect(store.sessions.seats({ id: 's1' })).toEqual(seats);
    expect(store.sessions.seats({ invite: 'inv_s1_1' })).toEqual(seats);
    expect(store.sessions.seats({ invite: 'inv_nope' })).toBeUndefined();
    expect(store.sessions.activity('s1')).toEqual({ status: 'active', lastActivityAt: 77 });
    expect(store.sessions.activity('nope')).toBeUndefined();
  });

  it('rewrites seats on update and finds sessions by user; deleting a session cascades to its invites', () => {
    store.transaction(() => {
      store.sessions.insert(session('s1', { createdAt: 1 }));
      store.sessions.insert(session('s2', { createdAt: 2 }));
      store.sessions.insert(session('s3', { createdAt: 3, challengeType: 'millionaire', name: 'millionaire' }));
    });
    const s1 = store.sessions.get('s1') as StoredSession;
    const joined = {
      ...s1,
      status: 'ended' as const,
      state: { ...s1.state, status: 'ended' as const, players: ['inv_s1_1', 'inv_s1_0'], playerIdentities: { inv_s1_1: 'zoe' } },
    };
    store.transaction(() => store.sessions.update(joined, { lifecycle: true, seated: ['inv_s1_1', 'inv_s1_0'] }));
    expect(
      peek<{ invite: string; player_index: number | null; user_id: string | null }>(
        'SELECT invite, player_index, user_id FROM session_invites WHERE session_id = ? ORDER BY slot',
        's1',
      ),
    ).toEqual([
      { invite: 'inv_s1_0', player_index: 1, user_id: null },
      { invite: 'inv_s1_1', player_index: 0, user_id: 'zoe' },
    ]);
    expect(store.sessions.list({ userId: 'zoe', limit: 10, offset: 0 }).items.map((x) => x.id)).toEqual(['s1']);
    expect(store.sessions.list({ userId: 'nobody', limit: 10, offset: 0 }).total).toBe(0);

    // Newest first; filters combine; totals ignore paging.
    expect(store.sessions.list({ limit: 10, offset: 0 }).items.map((x) => x.id)).toEqual(['s3', 's2', 's1']);
    expect(store.sessions.list({ limit: 1, offset: 1 })).toMatchObject({ total: 3, items: [{ id: 's2' }] });
    expect(store.sessions.list({ challengeType: 'psi', status: 'ended', limit: 10, offset: 0 }).items.map((x) => x.id)).toEqual(['s1']);
    expect(store.sessions.endedCountsByType()).toEqual({ psi: 1 });

    expect(store.transaction(() => store.sessions.delete('s2'))).toBe(true);
    expect(store.sessions.delete('s2')).toBe(false);
    expect(peek<{ n: number }>('SELECT COUNT(*) AS n FROM session_invites WHERE session_id = ?', 's2')[0]?.n).toBe(0);
    expect(store.sessions.getByInvite('inv_s2_0')).toBeUndefined();
  });

  it('finds stale ids by last activity, never ended sessions', () => {
    store.transaction(() => {
      store.sessions.insert(session('old', { lastActivityAt: 100 }));
      store.sessions.insert(session('touched', { lastActivityAt: 100 }));
      store.sessions.insert(session('done', { lastActivityAt: 100, status: 'ended' }));
      store.sessions.insert(session('new', { lastActivityAt: 900 }));
    });
    store.sessions.touch('touched', 800);
    store.sessions.touch('touched', 50); // never moves backwards
    expect(store.sessions.staleIds(500).sort()).toEqual(['old']);
    expect(store.sessions.get('touched')?.lastActivityAt).toBe(800);
  });
});

describe('users repository: merge semantics (11(g))', () => {
  it('updates only the fields present and keeps the rest', () => {
    expect(store.users.merge({ userId: 'u', username: 'Una' })).toEqual({ userId: 'u', username: 'Una' });
    expect(store.users.merge({ userId: 'u', model: 'm1' })).toEqual({ userId: 'u', username: 'Una', model: 'm1' });
    expect(store.users.merge({ userId: 'u', username: 'Una 2' })).toEqual({ userId: 'u', username: 'Una 2', model: 'm1' });
    expect(store.users.merge({ userId: 'u' })).toEqual({ userId: 'u', username: 'Una 2', model: 'm1' });
    expect(store.users.merge({ userId: 'u', isBenchmark: true })).toEqual({
      userId: 'u',
      username: 'Una 2',
      model: 'm1',
      isBenchmark: true,
    });
    expect(store.users.merge({ userId: 'u', model: 'm2' })).toEqual({ userId: 'u', username: 'Una 2', model: 'm2', isBenchmark: true });
    expect(store.users.merge({ userId: 'u', isBenchmark: false })).toEqual({ userId: 'u', username: 'Una 2', model: 'm2' });
    // Persisted, not just returned.
    expect(
      peek<{ username: string; model: string; is_benchmark: number }>(
        'SELECT username, model, is_benchmark FROM users WHERE user_id = ?',
        'u',
      ),
    ).toEqual([{ username: 'Una 2', model: 'm2', is_benchmark: 0 }]);
  });

  it('reads one, many (unknown ids omitted) and all (sorted)', () => {
    store.users.merge({ userId: 'b', username: 'Bee' });
    store.users.merge({ userId: 'a' });
    expect(store.users.get('a')).toEqual({ userId: 'a' });
    expect(store.users.get('zz')).toBeUndefined();
    expect(store.users.getMany(['a', 'zz', 'b', 'a'])).toEqual({ a: { userId: 'a' }, b: { userId: 'b', username: 'Bee' } });
    expect(store.users.getMany([])).toEqual({});
    expect(store.users.list().map((u) => u.userId)).toEqual(['a', 'b']);
  });
});

describe('scoring repo', () => {
  const entry = (playerId: string, gamesPlayed: number) => ({ playerId, gamesPlayed, metrics: { m: gamesPlayed }, state: { s: playerId } });

  it("reads a game's players under its type and the global key in one call, and writes many rows at once", () => {
    store.scoring.put('psi', 'win-rate', entry('a', 1));
    store.scoring.put('psi', 'win-rate', entry('c', 7)); // another player: not read
    store.scoring.put('millionaire', 'average', entry('a', 3)); // another type: not read
    store.scoring.put('__global__', '__global__', entry('b', 2));
    const rows = store.scoring.ofPlayers(['psi', '__global__'], ['a', 'b']);
    expect(rows.map((r) => `${r.challengeType}/${r.strategy}/${r.entry.playerId}/${r.entry.gamesPlayed}`).sort()).toEqual([
      '__global__/__global__/b/2',
      'psi/win-rate/a/1',
    ]);
    expect(store.scoring.ofPlayers(['psi', '__global__'], [])).toEqual([]);
    // A key given twice keeps its last entry; an existing row is updated in place.
    store.scoring.putMany([
      { challengeType: 'psi', strategy: 'win-rate', entry: entry('a', 2) },
      { challengeType: 'psi', strategy: 'average', entry: entry('b', 1) },
      { challengeType: 'psi', strategy: 'win-rate', entry: entry('a', 5) },
    ]);
    expect(store.scoring.get('psi', 'win-rate', 'a')).toEqual(entry('a', 5));
    expect(store.scoring.get('psi', 'average', 'b')).toEqual(entry('b', 1));
    expect(store.scoring.list('psi', 'win-rate').map((e) => e.playerId)).toEqual(['c', 'a']);
    store.scoring.putMany([]);
  });
});

describe('store', () => {
  it('clearAll empties every table but the migration record', () => {
    store.transaction(() => store.sessions.insert(session('s1')));
    store.chat.append('c', 'p', 'x', 1);
    store.users.merge({ userId: 'u' });
    store.scoring.put('psi', 'average', { playerId: 'u', gamesPlayed: 1, metrics: { 'average:security': 1 }, state: {} });
    store.clearAll();
    for (const table of ['sessions', 'session_invites', 'chat_messages', 'users', 'scoring_entries']) {
      expect({ table, n: peek<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)[0]?.n }).toEqual({ table, n: 0 });
    }
    expect(peek<{ n: number }>('SELECT COUNT(*) AS n FROM schema_migrations')[0]?.n).toBeGreaterThan(0);
  });

  it('survives close and reopen of the same file', () => {
    store.transaction(() => store.sessions.insert(session('keep')));
    store.chat.append('keep', 'p', 'x', 1);
    store.close();
    store = openStore({ file });
    expect(store.sessions.get('keep')?.gameState).toEqual({ secret: [1, 2, 3] });
    expect(store.chat.append('keep', 'p', 'y', 2).index).toBe(2);
  });
});
