// A database as an older Local Arena left it: every migration before `name` applied and recorded, for migration tests.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { migrations } from '../../engine/db/migrate.js';

export function databaseBefore(file: string, name: string): Database.Database {
  const db = new Database(file);
  db.exec('CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, hash TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT');
  for (const m of migrations.filter((x) => x.name < name)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(m.name, createHash('sha256').update(m.sql).digest('hex'));
  }
  return db;
}
