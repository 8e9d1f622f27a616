// Per-tournament lifecycle figures of warm agents (AgentLifecycleStats[] as JSON), written when they change.
import type Database from 'better-sqlite3';

export interface StoredAgentLifecycle {
  agent: string;
  lifecycle: 'per-game' | 'persistent';
  processes: number;
  restarts: number;
  retired: string | null;
}

export function createLifecyclesRepo(db: Database.Database) {
  const upsert = db.prepare(`INSERT INTO tournament_lifecycles (tournament_id, stats) VALUES (?, ?)
    ON CONFLICT (tournament_id) DO UPDATE SET stats = excluded.stats`);
  const select = db.prepare('SELECT stats FROM tournament_lifecycles WHERE tournament_id = ?');
  return {
    set(tournamentId: string, stats: readonly StoredAgentLifecycle[]): void {
      upsert.run(tournamentId, JSON.stringify(stats));
    },
    /** The last figures written, or null for a tournament that never ran warm agents. */
    get(tournamentId: string): StoredAgentLifecycle[] | null {
      const row = select.get(tournamentId) as { stats: string } | undefined;
      return row ? (JSON.parse(row.stats) as StoredAgentLifecycle[]) : null;
    },
  };
}
