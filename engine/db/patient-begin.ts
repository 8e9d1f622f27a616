// Taking the write lock on a file other engines share. SQLite's busy handler polls the lock with growing sleeps and
// keeps no queue, so on a loaded machine a writer can lose every poll to two busier ones for a whole busy timeout.
// A BEGIN that gave up before the body ran changed nothing, so it is safe to wait again; once the body has run, its
// error stands (the body may have done things outside the database).
import type Database from 'better-sqlite3';

/** How many busy timeouts an outermost BEGIN waits through before "database is locked" reaches the caller. */
export const LOCK_ATTEMPTS = 12;

export const isBusy = (error: unknown): boolean => error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY');

/** Runs `body` through `begin` (an IMMEDIATE transaction of `db`), beginning again while the lock was not had. */
export function beginPatiently<T>(db: Database.Database, begin: (body: () => unknown) => unknown, body: () => T): T {
  for (let attempt = 1; ; attempt++) {
    let ran = false;
    try {
      return begin(() => {
        ran = true;
        return body();
      }) as T;
    } catch (error) {
      if (ran || db.inTransaction || attempt >= LOCK_ATTEMPTS || !isBusy(error)) throw error;
    }
  }
}
