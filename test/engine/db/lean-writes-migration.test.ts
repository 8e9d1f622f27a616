// Migration 0150 on a database written before it: sessions get their invites on the row (in seat order), the chat is
// rekeyed by (channel, idx) with every message kept, and the store reads and appends on from there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../../engine/db/store.js';
import { databaseBefore } from '../../support/database-before.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-lean-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('moves invites onto the session row and keeps every chat message in order', () => {
  const file = path.join(dir, 'arena.sqlite');
  const old = databaseBefore(file, '0150');
  const state = JSON.stringify({ status: 'active', scores: [], players: ['inv_b', 'inv_a'], playerIdentities: {} });
  old
    .prepare(`INSERT INTO sessions (id, name, challenge_type, created_at, last_activity_at, status, state)
      VALUES ('s-old', 'psi', 'psi', 1, 5, 'active', ?)`)
    .run(state);
  // Slots out of insertion order: the row must list invites by slot.
  old.prepare("INSERT INTO session_invites (invite, session_id, slot) VALUES ('inv_b', 's-old', 1), ('inv_a', 's-old', 0)").run();
  const chat = old.prepare('INSERT INTO chat_messages (channel, idx, sender, recipient, content, timestamp) VALUES (?, ?, ?, ?, ?, ?)');
  chat.run('s-old', 1, 'inv_a', null, 'hello', 10);
  chat.run('challenge_s-old', 1, 'operator', 'inv_b', 'your set', 11);
  chat.run('s-old', 2, 'inv_b', null, 'hi', 12);
  old.close();

  const store = openStore({ file });
  try {
    expect(store.sessions.get('s-old')?.invites).toEqual(['inv_a', 'inv_b']);
    expect(store.sessions.getByInvite('inv_b')?.id).toBe('s-old');
    expect(store.chat.since('s-old', 0).map((m) => [m.index, m.from, m.content])).toEqual([
      [1, 'inv_a', 'hello'],
      [2, 'inv_b', 'hi'],
    ]);
    expect(store.chat.since('challenge_s-old', 0)).toEqual([
      { channel: 'challenge_s-old', from: 'operator', to: 'inv_b', content: 'your set', index: 1, timestamp: 11 },
    ]);
    expect(store.transaction(() => store.chat.append('s-old', 'inv_a', 'again', 13)).index).toBe(3);
    expect(store.sessions.staleIds(100)).toEqual(['s-old']);
  } finally {
    store.close();
  }
  const after = new Database(file, { readonly: true });
  try {
    const ddl = after.prepare("SELECT sql FROM sqlite_schema WHERE name = 'chat_messages'").pluck().get() as string;
    expect(ddl).toMatch(/WITHOUT ROWID/);
    const indexes = after.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'sessions'").pluck().all();
    expect(indexes).toContain('sessions_unfinished_idx');
    expect(indexes).not.toContain('sessions_status_activity_idx');
    const userIndex = after.prepare("SELECT sql FROM sqlite_schema WHERE name = 'session_invites_user_idx'").pluck().get() as string;
    expect(userIndex).toMatch(/WHERE user_id IS NOT NULL/);
    // The planner still answers a lookup by user from it.
    const plan = after.prepare("EXPLAIN QUERY PLAN SELECT session_id FROM session_invites WHERE user_id = 'zoe'").all() as {
      detail: string;
    }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/session_invites_user_idx/);
    const sweep = after.prepare("EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE status != 'ended' AND last_activity_at < 5").all() as {
      detail: string;
    }[];
    expect(sweep.map((p) => p.detail).join(' ')).toMatch(/sessions_unfinished_idx/);
  } finally {
    after.close();
  }
});
