// The database port: the only way the rest of the engine reaches SQLite.

import { type OpenOptions, openConnection } from './open.js';
import { createAgentFoldersRepo } from './repos/agent-folders.js';
import { createChatRepo } from './repos/chat.js';
import { createClawArenaRepo } from './repos/clawarena.js';
import { createGovernanceRepo } from './repos/governance.js';
import { createLifecyclesRepo } from './repos/lifecycles.js';
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
export type { NewTournamentGame, StoredTournament, StoredTournamentGame, TournamentStatus } from './repos/tournaments.js';

export function openStore(options: OpenOptions) {
  const db = openConnection(options);
  // One wrapper for every call: better-sqlite3 turns a nested call into a savepoint by itself. The outermost call
  // begins IMMEDIATE: another engine may share the file, and a transaction that read before its first write would fail
  // at once ("database is locked") if that engine committed in between; taking the write lock first waits (busy
  // timeout) instead.
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
    /**
     * Runs `fn` in a transaction (a savepoint when already inside one). A throw rolls back that level only and
     * is rethrown, which is how a rejected operator action keeps its logged message (decision 11(d)).
     */
    transaction<T>(fn: () => T): T {
      return runInTransaction(fn) as T;
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
    close(): void {
      if (db.open) db.close();
    },
  };
  return store;
}

export type Store = ReturnType<typeof openStore>;
