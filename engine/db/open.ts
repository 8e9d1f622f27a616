// Opens the engine database with the pragmas every connection needs and applies pending migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.js';

export type Connection = Database.Database;

export interface OpenOptions {
  /** File path, or ':memory:' for a throw-away database. */
  file: string;
  busyTimeoutMs?: number;
}

export function openConnection({ file, busyTimeoutMs = 5000 }: OpenOptions): Connection {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  // WAL with NORMAL sync is durable across process crashes; only an OS crash can lose the last commits.
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}
