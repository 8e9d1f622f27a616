// The database port: the only way the rest of the engine reaches SQLite.

import Database from 'better-sqlite3';
import { DEFAULT_BUSY_TIMEOUT_MS, type OpenOptions, openConnection } from './open.js';
import { beginPatiently } from './patient-begin.js';
import { createAdminSessionsRepo, createEnginePortsRepo } from './repos/admin-sessions.js';
import { createAgentFoldersRepo } from './repos/agent-folders.js';
import { createChatRepo } from './repos/chat.js';
import { createClawArenaRepo } from './repos/clawarena.js';
import { createGovernanceRepo } from './repos/governance.js';
import { createLifecyclesRepo } from './repos/lifecycles.js';
import { createModelCacheRepo } from './repos/model-cache.js';
import { createModelCallsRepo } from './repos/model-calls.js';
import { createScoringRepo } from './repos/scoring.js';
import { createSessionsRepo } from './repos/sessions.js';
import { createTournamentLibraryRepo } from './repos/tournament-library.js';
import { createTournamentsRepo } from './repos/tournaments.js';
import { createUsersRepo } from './repos/users.js';

export { MigrationError } from './migrate.js';
export type { StoredAgentFolder } from './repos/agent-folders.js';
export type { StoredClawAgent, StoredClawContext, StoredClawEvent, StoredClawMatch, StoredClawSeat } from './repos/clawarena.js';
export type { GovernanceEventRow, GovernanceMatchRecord, GovernanceMatchSummary, GovernanceRunRow } from './repos/governance.js';
export type { StoredAgentLifecycle } from './repos/lifecycles.js';
export type { StoredScoringEntry } from './repos/scoring.js';
export { GLOBAL_KEY } from './repos/scoring.js';
export type { SessionFilter, SessionPage, SessionSeats, StoredSession } from './repos/sessions.js';
export type { NewTournamentGame, SignedGameRecord, StoredTournament, StoredTournamentGame, TournamentStatus } from './repos/tournaments.js';

/** The tournaments' games as they stood when the snapshot was taken; see `Store.readSnapshot`. */
export interface GamesSnapshot {
  tournaments: Pick<ReturnType<typeof createTournamentsRepo>, 'eachGame' | 'eachGameWithTranscript'>;
  /** Ends the snapshot's read transaction and closes its connection (idempotent). */
  close(): void;
}

export function openStore(options: OpenOptions) {
  const db = openConnection(options);
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS));
  // One wrapper for every call: better-sqlite3 turns a nested call into a savepoint by itself. The outermost call
  // begins IMMEDIATE: another engine may share the file, and a transaction that read before its first write would fail
  // at once ("database is locked") if that engine committed in between; taking the write lock first waits (busy
  // timeout) instead, and waits again if it lost the lock for a whole busy timeout (patient-begin.ts).
  const runInTransaction = db.transaction((fn: () => unknown) => fn()).immediate;
  const store = {
    sessions: createSessionsRepo(db),
    chat: createChatRepo(db),
    users: createUsersRepo(db),
    scoring: createScoringRepo(db),
    clawarena: createClawArenaRepo(db),
    governance: createGovernanceRepo(db),
    tournaments: createTournamentsRepo(db),
    tournamentLibrary: createTournamentLibraryRepo(db),
    agentFolders: createAgentFoldersRepo(db),
    lifecycles: createLifecyclesRepo(db),
    modelCalls: createModelCallsRepo(db),
    modelCache: createModelCacheRepo(db),
    adminSessions: createAdminSessionsRepo(db),
    enginePorts: createEnginePortsRepo(db),
    /**
     * Runs `fn` in a transaction (a savepoint when already inside one). A throw rolls back that level only and
     * is rethrown, which is how a rejected operator action keeps its logged message (decision 11(d)).
     */
    transaction<T>(fn: () => T): T {
      return db.inTransaction ? (runInTransaction(fn) as T) : beginPatiently(db, runInTransaction, fn);
    },
    /** Deletes all runtime state (the test reset hook, decision 11(h)). */
    clearAll(): void {
      db.transaction(() => {
        db.exec(
          'DELETE FROM chat_messages; DELETE FROM session_invites; DELETE FROM sessions; DELETE FROM users; DELETE FROM scoring_entries;',
        );
        store.clawarena.clear();
      }).immediate();
    },
    get inTransaction(): boolean {
      return db.inTransaction;
    },
    /**
     * A second, query-only connection to the same file holding one read transaction: it sees the data as it is now
     * for as long as it stays open, while this connection keeps committing (WAL). A long export reads from it a slice
     * at a time, letting the event loop turn in between, which a cursor on this connection would not allow (it runs
     * nothing else until the cursor is done). Null for an in-memory database, which no other connection can see.
     */
    readSnapshot(): GamesSnapshot | null {
      if (db.memory) return null;
      const conn = new Database(db.name, { fileMustExist: true });
      try {
        conn.pragma('query_only = ON');
        conn.pragma(`busy_timeout = ${busyTimeoutMs}`);
        const tournaments = createTournamentsRepo(conn);
        conn.exec('BEGIN');
        // A deferred transaction takes its snapshot at its first read.
        conn.prepare('SELECT count(*) FROM sqlite_master').get();
        return {
          tournaments,
          close(): void {
            if (!conn.open) return;
            if (conn.inTransaction) conn.exec('ROLLBACK');
            conn.close();
          },
        };
      } catch (error) {
        conn.close();
        throw error;
      }
    },
    close(): void {
      if (db.open) db.close();
    },
  };
  return store;
}

export type Store = ReturnType<typeof openStore>;
