// Acceptance 12 (schema): migrations are recorded with content hashes, applied once and atomically; pragmas are set.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MigrationError, migrate, migrations } from '../../../engine/db/migrate.js';
import { openConnection } from '../../../engine/db/open.js';
import { makeTempDataDir } from '../../support/server.js';

const dir = makeTempDataDir('arena-db-');
let n = 0;
const freshFile = () => path.join(dir, `db-${++n}.sqlite`);

interface MigrationRow {
  name: string;
  hash: string;
  applied_at: number;
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('migrations', () => {
  it('records every migration with the SHA-256 of its SQL, in order', () => {
    const file = freshFile();
    const db = openConnection({ file });
    const rows = db.prepare('SELECT name, hash, applied_at FROM schema_migrations ORDER BY rowid').all() as MigrationRow[];
    db.close();
    expect(migrations.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
    expect(rows.map((r) => r.hash)).toEqual(migrations.map((m) => createHash('sha256').update(m.sql).digest('hex')));
    for (const row of rows) expect(row.applied_at).toBeGreaterThan(Date.UTC(2020, 0, 1));
    // Names are numbered in steps of 10 and sorted.
    const names = migrations.map((m) => m.name);
    expect([...names].sort()).toEqual(names);
    for (const name of names) expect(name).toMatch(/^\d{3}0-[a-z0-9-]+$/);
  });

  it('is idempotent: reopening applies nothing and keeps the records', () => {
    const file = freshFile();
    const first = openConnection({ file });
    const before = first.prepare('SELECT * FROM schema_migrations').all();
    expect(migrate(first)).toEqual([]);
    first.close();
    const second = openConnection({ file });
    expect(second.prepare('SELECT * FROM schema_migrations').all()).toEqual(before);
    expect(migrate(second)).toEqual([]);
    second.close();
  });

  it('creates the schema', () => {
    const db = openConnection({ file: freshFile() });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
      (t) => t.name,
    );
    db.close();
    expect(tables).toEqual(
      expect.arrayContaining(['chat_messages', 'schema_migrations', 'scoring_entries', 'session_invites', 'sessions', 'users']),
    );
  });

  it('refuses a database whose applied migration changed or that a newer version wrote', () => {
    const changed = freshFile();
    openConnection({ file: changed }).close();
    const raw = new Database(changed);
    raw.prepare('UPDATE schema_migrations SET hash = ? WHERE name = ?').run('0'.repeat(64), migrations[0]?.name);
    raw.close();
    expect(() => openConnection({ file: changed })).toThrow(MigrationError);
    expect(() => openConnection({ file: changed })).toThrow(/hash mismatch/);

    const newer = freshFile();
    openConnection({ file: newer }).close();
    const raw2 = new Database(newer);
    raw2.prepare('INSERT INTO schema_migrations (name, hash, applied_at) VALUES (?, ?, ?)').run('9990-future', 'x', Date.now());
    raw2.close();
    expect(() => openConnection({ file: newer })).toThrow(/newer Local Arena/);
  });

  it('applies a migration atomically: a failure leaves neither tables nor a record', () => {
    const file = freshFile();
    const raw = new Database(file);
    // A clashing table makes the first migration fail part-way.
    raw.exec('CREATE TABLE users (x INTEGER)');
    raw.close();
    expect(() => openConnection({ file })).toThrow();
    const check = new Database(file);
    const tables = (check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    const records = check.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number };
    check.close();
    expect(records.n).toBe(0);
    expect(tables).not.toContain('sessions');
    expect(tables).not.toContain('chat_messages');
  });
});

describe('connection pragmas', () => {
  it('uses WAL, enforces foreign keys, waits on locks and syncs NORMAL', () => {
    const file = freshFile();
    const db = openConnection({ file });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    db.close();
    // WAL is persistent in the file itself.
    const raw = new Database(file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
    expect(fs.existsSync(file)).toBe(true);
  });

  it('rejects rows that break a foreign key', () => {
    const db = openConnection({ file: freshFile() });
    expect(() =>
      db.prepare('INSERT INTO session_invites (invite, session_id, slot) VALUES (?, ?, ?)').run('inv_x', 'no-such-session', 0),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('works in memory too', () => {
    const db = openConnection({ file: ':memory:' });
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect((db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n).toBe(migrations.length);
    db.close();
  });
});
