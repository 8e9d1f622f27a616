// The tournaments list as a library: search by name or id, filter by status, archive, delete (issue 16), and the
// measured game times behind the duration estimate. Kept apart from tournaments.ts (the run's own records).
import type Database from 'better-sqlite3';
import { type StoredTournament, type TournamentRow, type TournamentStatus, tournamentOf } from './tournaments.js';

export interface TournamentSearch {
  /** Case-insensitive substring of the name or the id. */
  text?: string;
  status?: TournamentStatus;
  /** exclude (default): live runs only; only: the archive; include: both. */
  archived?: 'exclude' | 'only' | 'include';
  limit: number;
  offset: number;
}

export interface GameTimes {
  /** Wall-clock milliseconds of the most recent normally ended games, newest first. */
  durations: number[];
}

/** LIKE with the user's text taken literally. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createTournamentLibraryRepo(db: Database.Database) {
  const archivedAt = db.prepare('SELECT archived_at FROM tournaments WHERE id = ?');
  const setArchived = db.prepare('UPDATE tournaments SET archived_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM tournaments WHERE id = ?');
  const durations = db.prepare(`SELECT ended_at - started_at AS ms FROM tournament_games
    WHERE challenge = ? AND fault = 'none' AND ended_at >= started_at ORDER BY seq DESC LIMIT ?`);

  return {
    search(q: TournamentSearch): { items: Array<StoredTournament & { archivedAt: number | null }>; total: number } {
      const where: string[] = [];
      const params: Record<string, unknown> = { limit: q.limit, offset: q.offset };
      if (q.text !== undefined && q.text !== '') {
        where.push("(name LIKE @text ESCAPE '\\' OR id LIKE @text ESCAPE '\\')");
        params.text = likePattern(q.text);
      }
      if (q.status !== undefined) {
        where.push('status = @status');
        params.status = q.status;
      }
      const archived = q.archived ?? 'exclude';
      if (archived === 'exclude') where.push('archived_at IS NULL');
      if (archived === 'only') where.push('archived_at IS NOT NULL');
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const total = (db.prepare(`SELECT COUNT(*) AS n FROM tournaments ${clause}`).get(params) as { n: number }).n;
      const rows = db
        .prepare(`SELECT * FROM tournaments ${clause} ORDER BY created_at DESC, id LIMIT @limit OFFSET @offset`)
        .all(params) as Array<TournamentRow & { archived_at: number | null }>;
      return { items: rows.map((r) => ({ ...tournamentOf(r), archivedAt: r.archived_at })), total };
    },

    archivedAt(id: string): number | null {
      return (archivedAt.get(id) as { archived_at: number | null } | undefined)?.archived_at ?? null;
    },

    setArchived(id: string, at: number | null): void {
      setArchived.run(at, id);
    },

    /** Removes the run and (by the foreign key's cascade) every attempt and transcript it recorded. */
    delete(id: string): boolean {
      return remove.run(id).changes > 0;
    },

    /** Durations of the last `limit` normally ended games of a challenge, across every run in this data folder. */
    gameTimes(challenge: string, limit = 200): GameTimes {
      return { durations: (durations.all(challenge, limit) as Array<{ ms: number }>).map((r) => r.ms) };
    },
  };
}

export type TournamentLibraryRepo = ReturnType<typeof createTournamentLibraryRepo>;
