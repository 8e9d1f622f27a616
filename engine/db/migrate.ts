// Numbered migrations (steps of 10), each applied once and recorded with its content hash; the pending ones of a start
// are applied in one transaction, so a failed one leaves the database as it was.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import * as init from './migrations/0010-init.js';
import * as governance from './migrations/0020-governance.js';
import * as clawarena from './migrations/0030-clawarena.js';
import * as tournaments from './migrations/0040-tournaments.js';
import * as tournamentUsage from './migrations/0050-tournament-usage.js';
import * as agentFolders from './migrations/0060-agent-folders.js';
import * as isolation from './migrations/0070-isolation.js';
import * as agentFolderTrust from './migrations/0080-agent-folder-trust.js';
import * as clawarenaSlimCursors from './migrations/0090-clawarena-slim-cursors.js';
import * as gameWorkers from './migrations/0100-game-workers.js';
import * as tournamentSessions from './migrations/0110-tournament-sessions.js';
import * as tournamentCounters from './migrations/0120-tournament-counters.js';
import * as warmLifecycles from './migrations/0130-warm-lifecycles.js';
import * as tournamentLibrary from './migrations/0140-tournament-library.js';
import * as leanWrites from './migrations/0150-lean-writes.js';
import * as tournamentRunner from './migrations/0160-tournament-runner.js';
import * as tournamentGamesCommitOrder from './migrations/0170-tournament-games-commit-order.js';
import * as modelCalls from './migrations/0230-model-calls.js';
import * as signedWorkerRecords from './migrations/0260-signed-worker-records.js';
import * as workerAttestations from './migrations/0270-worker-attestations.js';
import * as modelCache from './migrations/0300-model-cache.js';
import * as adminSessions from './migrations/0340-admin-sessions.js';
import { beginPatiently } from './patient-begin.js';

interface Migration {
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  init,
  governance,
  clawarena,
  tournaments,
  tournamentUsage,
  agentFolders,
  isolation,
  agentFolderTrust,
  clawarenaSlimCursors,
  gameWorkers,
  tournamentSessions,
  tournamentCounters,
  warmLifecycles,
  tournamentLibrary,
  leanWrites,
  tournamentRunner,
  tournamentGamesCommitOrder,
  modelCalls,
  signedWorkerRecords,
  workerAttestations,
  modelCache,
  adminSessions,
];

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export function migrate(db: Database.Database): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY, hash TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
  // Engines may open one data directory at once (two `arena run`s on a new folder): the write lock is taken before the
  // applied set is read, so the second waits (busy timeout, patiently) and then finds the migrations done instead of redoing them.
  return beginPatiently(db, db.transaction((body: () => unknown) => body()).immediate, () => applyPending(db));
}

function applyPending(db: Database.Database): string[] {
  const applied = new Map(
    (db.prepare('SELECT name, hash FROM schema_migrations').all() as { name: string; hash: string }[]).map((r) => [r.name, r.hash]),
  );
  const known = new Set(migrations.map((m) => m.name));
  for (const name of applied.keys()) {
    if (!known.has(name)) {
      throw new MigrationError(`database has migration ${name}, which this version does not know: it was written by a newer Local Arena`);
    }
  }
  const ran: string[] = [];
  for (const migration of migrations) {
    const hash = createHash('sha256').update(migration.sql).digest('hex');
    const previous = applied.get(migration.name);
    if (previous !== undefined) {
      if (previous !== hash) throw new MigrationError(`migration ${migration.name} changed after it was applied (hash mismatch)`);
      continue;
    }
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (name, hash, applied_at) VALUES (?, ?, ?)').run(migration.name, hash, Date.now());
    ran.push(migration.name);
  }
  return ran;
}
