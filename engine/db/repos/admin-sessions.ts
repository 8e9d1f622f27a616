// Browser sessions of the admin UI by the SHA-256 of their cookie value, and the engine's last port (migration 0340),
// so a restarted engine on the same data folder takes the same port and still knows the cookies it issued
// (engine/http/admin-sessions.ts keeps the rules).
import type Database from 'better-sqlite3';

export interface StoredAdminSession {
  host: string;
  createdAt: number;
  issuedAt: number;
  expiresAt: number;
  retiredAt: number | null;
}

interface Row {
  host: string;
  created_at: number;
  issued_at: number;
  expires_at: number;
  retired_at: number | null;
}

export function createAdminSessionsRepo(db: Database.Database) {
  const insert = db.prepare(
    'INSERT OR REPLACE INTO admin_sessions (value_hash, host, created_at, issued_at, expires_at, retired_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const byHash = db.prepare('SELECT host, created_at, issued_at, expires_at, retired_at FROM admin_sessions WHERE value_hash = ?');
  const setExpiry = db.prepare('UPDATE admin_sessions SET expires_at = ? WHERE value_hash = ?');
  const setRetired = db.prepare('UPDATE admin_sessions SET retired_at = ? WHERE value_hash = ?');
  const remove = db.prepare('DELETE FROM admin_sessions WHERE value_hash = ?');
  const removeEnded = db.prepare('DELETE FROM admin_sessions WHERE expires_at <= ? OR retired_at <= ?');
  const removeBeyond = db.prepare(
    'DELETE FROM admin_sessions WHERE value_hash NOT IN (SELECT value_hash FROM admin_sessions ORDER BY issued_at DESC LIMIT ?)',
  );
  const removeAll = db.prepare('DELETE FROM admin_sessions');
  return {
    /** Adds a session, then drops the ended ones and all but the newest `keep`. */
    put(hash: string, session: StoredAdminSession, keep: number): void {
      insert.run(hash, session.host, session.createdAt, session.issuedAt, session.expiresAt, session.retiredAt);
      removeEnded.run(session.issuedAt, session.issuedAt);
      removeBeyond.run(keep);
    },
    get(hash: string): StoredAdminSession | undefined {
      const row = byHash.get(hash) as Row | undefined;
      return row
        ? { host: row.host, createdAt: row.created_at, issuedAt: row.issued_at, expiresAt: row.expires_at, retiredAt: row.retired_at }
        : undefined;
    },
    extend(hash: string, expiresAt: number): void {
      setExpiry.run(expiresAt, hash);
    },
    retire(hash: string, at: number): void {
      setRetired.run(at, hash);
    },
    delete(hash: string): void {
      remove.run(hash);
    },
    /** Ends every browser session (`arena serve --end-ui-sessions`); the number ended. */
    clear(): number {
      return removeAll.run().changes;
    },
  };
}

/** The port the engine last listened on, per host name (`arena serve` takes it again when free). */
export function createEnginePortsRepo(db: Database.Database) {
  const upsert = db.prepare(
    'INSERT INTO engine_ports (host, port, listened_at) VALUES (?, ?, ?) ON CONFLICT (host) DO UPDATE SET port = excluded.port, listened_at = excluded.listened_at',
  );
  const byHost = db.prepare('SELECT port FROM engine_ports WHERE host = ?');
  return {
    record(host: string, port: number, at: number): void {
      upsert.run(host, port, at);
    },
    last(host: string): number | undefined {
      return (byHost.get(host) as { port: number } | undefined)?.port;
    },
  };
}
