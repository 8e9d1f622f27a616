// Opens the engine database with the pragmas every connection needs and applies pending migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateFile, PRIVATE_DIR_MODE, tightenIfPresent } from '../runtime/private-files.js';
import { migrate } from './migrate.js';

export type Connection = Database.Database;

export interface OpenOptions {
  /** File path, or ':memory:' for a throw-away database. */
  file: string;
  busyTimeoutMs?: number;
}

/** How long a connection waits for another's write lock before SQLite reports the database busy. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export function openConnection({ file, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS }: OpenOptions): Connection {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    // SQLite gives -wal and -shm the mode of the database file, so creating it owner-only covers all three.
    ensurePrivateFile(file);
    for (const suffix of ['-wal', '-shm']) tightenIfPresent(`${file}${suffix}`);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  // WAL with NORMAL sync is durable across process crashes; only an OS crash can lose the last commits.
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}
