// Cached model answers by request key (migration 0300): written when a game that made the calls commits, read by the
// model server's forward before it asks the server.
import type Database from 'better-sqlite3';

export interface CachedAnswer {
  status: number;
  response: unknown;
  /** The run whose call filled the entry. */
  tournamentId: string;
}

export function createModelCacheRepo(db: Database.Database) {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO model_response_cache (key, server, status, response, tournament_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const byKey = db.prepare('SELECT status, response, tournament_id FROM model_response_cache WHERE key = ?');
  return {
    /** Keeps the first answer of a key: a later identical call was answered from it anyway. */
    put(key: string, server: string, status: number, response: unknown, tournamentId: string, at: number): void {
      insert.run(key, server, status, JSON.stringify(response), tournamentId, at);
    },
    get(key: string): CachedAnswer | undefined {
      const row = byKey.get(key) as { status: number; response: string; tournament_id: string } | undefined;
      return row ? { status: row.status, response: JSON.parse(row.response), tournamentId: row.tournament_id } : undefined;
    },
  };
}
