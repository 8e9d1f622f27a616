// The scoring store: one row per (challenge type, strategy, player). Global rows use '__global__' for both keys.
import type Database from 'better-sqlite3';

export const GLOBAL_KEY = '__global__';

export interface StoredScoringEntry {
  playerId: string;
  gamesPlayed: number;
  metrics: Record<string, number>;
  state: Record<string, unknown>;
}

interface EntryRow {
  player_id: string;
  games_played: number;
  metrics: string;
  state: string;
}

function fromRow(row: EntryRow): StoredScoringEntry {
  return { playerId: row.player_id, gamesPlayed: row.games_played, metrics: JSON.parse(row.metrics), state: JSON.parse(row.state) };
}

export function createScoringRepo(db: Database.Database) {
  const get = db.prepare(
    'SELECT player_id, games_played, metrics, state FROM scoring_entries WHERE challenge_type = ? AND strategy_name = ? AND player_id = ?',
  );
  const list = db.prepare(`SELECT player_id, games_played, metrics, state FROM scoring_entries
    WHERE challenge_type = ? AND strategy_name = ? ORDER BY games_played DESC, player_id`);
  const forPlayer = db.prepare(
    'SELECT challenge_type, strategy_name, player_id, games_played, metrics, state FROM scoring_entries WHERE player_id = ?',
  );
  const strategiesOf = db.prepare('SELECT DISTINCT strategy_name FROM scoring_entries WHERE challenge_type = ? ORDER BY rowid');
  const upsert = db.prepare(`INSERT INTO scoring_entries (challenge_type, strategy_name, player_id, games_played, metrics, state)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (challenge_type, strategy_name, player_id) DO UPDATE SET
      games_played = excluded.games_played, metrics = excluded.metrics, state = excluded.state`);
  // A game's two players, their rows under the challenge type and the global key, in one statement.
  const ofPlayers = new Map<number, Database.Statement>();
  const playersStatement = (n: number) => {
    let stmt = ofPlayers.get(n);
    if (!stmt) {
      stmt = db.prepare(`SELECT challenge_type, strategy_name, player_id, games_played, metrics, state FROM scoring_entries
        WHERE challenge_type IN (?, ?) AND player_id IN (${Array(n).fill('?').join(', ')})`);
      ofPlayers.set(n, stmt);
    }
    return stmt;
  };
  const upserts = new Map<number, Database.Statement>();
  const upsertStatement = (n: number) => {
    let stmt = upserts.get(n);
    if (!stmt) {
      stmt = db.prepare(`INSERT INTO scoring_entries (challenge_type, strategy_name, player_id, games_played, metrics, state)
        VALUES ${Array(n).fill('(?, ?, ?, ?, ?, ?)').join(', ')}
        ON CONFLICT (challenge_type, strategy_name, player_id) DO UPDATE SET
          games_played = excluded.games_played, metrics = excluded.metrics, state = excluded.state`);
      upserts.set(n, stmt);
    }
    return stmt;
  };
  const countGlobal = db.prepare('SELECT COUNT(*) AS n FROM scoring_entries WHERE challenge_type = ? AND strategy_name = ?');
  const clear = db.prepare('DELETE FROM scoring_entries');

  return {
    get(challengeType: string, strategy: string, playerId: string): StoredScoringEntry | undefined {
      const row = get.get(challengeType, strategy, playerId) as EntryRow | undefined;
      return row && fromRow(row);
    },
    put(challengeType: string, strategy: string, entry: StoredScoringEntry): void {
      upsert.run(challengeType, strategy, entry.playerId, entry.gamesPlayed, JSON.stringify(entry.metrics), JSON.stringify(entry.state));
    },
    /** Every row of these players under the two challenge types (a game's type and the global key). */
    ofPlayers(
      challengeTypes: readonly [string, string],
      playerIds: readonly string[],
    ): Array<{ challengeType: string; strategy: string; entry: StoredScoringEntry }> {
      if (playerIds.length === 0) return [];
      const rows = playersStatement(playerIds.length).all(...challengeTypes, ...playerIds) as (EntryRow & {
        challenge_type: string;
        strategy_name: string;
      })[];
      return rows.map((row) => ({ challengeType: row.challenge_type, strategy: row.strategy_name, entry: fromRow(row) }));
    },
    /** Writes entries in one statement; SQLite upserts its rows in order, so a key given twice keeps its last entry. */
    putMany(entries: ReadonlyArray<{ challengeType: string; strategy: string; entry: StoredScoringEntry }>): void {
      if (entries.length === 0) return;
      const params: unknown[] = [];
      for (const { challengeType, strategy, entry } of entries)
        params.push(challengeType, strategy, entry.playerId, entry.gamesPlayed, JSON.stringify(entry.metrics), JSON.stringify(entry.state));
      upsertStatement(entries.length).run(...params);
    },
    list(challengeType: string, strategy: string): StoredScoringEntry[] {
      return (list.all(challengeType, strategy) as EntryRow[]).map(fromRow);
    },
    strategiesWithData(challengeType: string): string[] {
      return (strategiesOf.all(challengeType) as { strategy_name: string }[]).map((r) => r.strategy_name);
    },
    forPlayer(playerId: string): Array<{ challengeType: string; strategy: string; entry: StoredScoringEntry }> {
      return (forPlayer.all(playerId) as (EntryRow & { challenge_type: string; strategy_name: string })[]).map((row) => ({
        challengeType: row.challenge_type,
        strategy: row.strategy_name,
        entry: fromRow(row),
      }));
    },
    globalParticipants(): number {
      return (countGlobal.get(GLOBAL_KEY, GLOBAL_KEY) as { n: number }).n;
    },
    clear(): void {
      clear.run();
    },
  };
}

export type ScoringRepo = ReturnType<typeof createScoringRepo>;
