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
  /** The same for the games whose every seat was one of the given agents (by manifest id), newest first. */
  agentDurations: number[];
}

/** How far back the estimate looks for games of the planned agents among a challenge's games. */
const AGENT_SCAN = 2000;

/** LIKE with the user's text taken literally. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createTournamentLibraryRepo(db: Database.Database) {
  const archivedAt = db.prepare('SELECT archived_at FROM tournaments WHERE id = ?');
  const setArchived = db.prepare('UPDATE tournaments SET archived_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM tournaments WHERE id = ?');
  const durations = db.prepare(`SELECT ended_at - started_at AS ms, tournament_id AS run, seats FROM tournament_games
    WHERE challenge = ? AND fault = 'none' AND ended_at >= started_at ORDER BY seq DESC LIMIT ?`);
  const runAgents = db.prepare(`SELECT json_extract(manifest, '$.agents') AS agents FROM tournaments WHERE id = ?`);

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

    /**
     * Durations of the last `limit` normally ended games of a challenge across every run in this data folder, and of
     * the last `limit` among them (looking further back) in which only `agents` (manifest ids) sat.
     */
    gameTimes(challenge: string, agents: readonly string[] = [], limit = 200): GameTimes {
      const wanted = new Set(agents);
      const scan = wanted.size > 0 ? Math.max(limit, AGENT_SCAN) : limit;
      const rows = durations.all(challenge, scan) as Array<{ ms: number; run: string; seats: string }>;
      const manifestIds = new Map<string, string[]>();
      const idsOf = (run: string): string[] => {
        let ids = manifestIds.get(run);
        if (!ids) {
          const raw = (runAgents.get(run) as { agents: string | null } | undefined)?.agents;
          const list = raw ? (JSON.parse(raw) as Array<{ manifest_id?: string }>) : [];
          ids = list.map((a) => a.manifest_id ?? '');
          manifestIds.set(run, ids);
        }
        return ids;
      };
      const agentDurations: number[] = [];
      if (wanted.size > 0)
        for (const row of rows) {
          if (agentDurations.length >= limit) break;
          const seats = JSON.parse(row.seats) as number[];
          const ids = idsOf(row.run);
          if (seats.every((seat) => wanted.has(ids[seat] ?? ''))) agentDurations.push(row.ms);
        }
      return { durations: rows.slice(0, limit).map((r) => r.ms), agentDurations };
    },
  };
}

export type TournamentLibraryRepo = ReturnType<typeof createTournamentLibraryRepo>;
