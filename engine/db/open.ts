// Opens the engine database with the pragmas every connection needs and applies pending migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateFile, PRIVATE_DIR_MODE, tightenIfPresent } from '../runtime/private-files.js';
import { migrate } from './migrate.js';
import { isBusy, LOCK_ATTEMPTS } from './patient-begin.js';

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
  const timeoutMs = Math.max(0, Math.floor(busyTimeoutMs));
  const db = new Database(file, { timeout: timeoutMs });
  switchToWal(db, timeoutMs);
  db.pragma('foreign_keys = ON');
  // WAL with NORMAL sync is durable across process crashes; only an OS crash can lose the last commits.
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Turns on WAL. A new file starts in rollback mode, where SQLite answers "database is locked" at once, without its busy
 * wait, to a connection that reads while another engine writes (it could deadlock otherwise): two engines opening one new
 * data folder together meet exactly that while the first converts the file. The switch changes nothing until it
 * succeeds, so it is tried again after a short pause, for as long as a patient BEGIN would wait.
 */
function switchToWal(db: Connection, busyTimeoutMs: number): void {
  const deadline = Date.now() + LOCK_ATTEMPTS * Math.max(busyTimeoutMs, 50);
  for (;;) {
    try {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      // An in-memory database stays 'memory'; a file that did not switch (another connection in a transaction) waits.
      if (mode === 'wal' || mode === 'memory') return;
      if (Date.now() >= deadline) throw new Error(`could not switch ${db.name} to WAL (it stayed in ${String(mode)} mode)`);
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 20));
  }
}
