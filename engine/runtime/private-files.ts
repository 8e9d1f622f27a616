// Owner-only files and folders for everything that holds transcripts, private data or secrets: the data directory,
// the database (with its -wal and -shm files) and reports. Modes are applied on creation and tightened on reuse, so a
// folder made world-readable by an older version is fixed at the next start. Windows has no such modes.
import fs from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

function tighten(target: string, mode: number): void {
  if (!posix) return;
  const current = fs.statSync(target).mode & 0o777;
  if ((current & 0o077) !== 0) fs.chmodSync(target, current & mode);
}

export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/** Creates the file empty when missing; an existing one keeps its content. */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  tighten(file, PRIVATE_FILE_MODE);
}

/** Tightens the file when it exists (SQLite's -wal and -shm come and go). */
export function tightenIfPresent(file: string): void {
  try {
    tighten(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export function writePrivateFile(file: string, content: string | Buffer): void {
  fs.writeFileSync(file, content, { mode: PRIVATE_FILE_MODE });
  tighten(file, PRIVATE_FILE_MODE);
}
