// The recorded model calls of each seat of a game attempt (migration 0230), as ModelCallRecord[] JSON.
import type Database from 'better-sqlite3';
import type { ModelCallRecord } from '../../contract/model-call.js';

export interface StoredSeatCalls {
  gameIndex: number;
  attempt: number;
  seat: number;
  calls: ModelCallRecord[];
}

/** What a server's load is computed from: a call's timing fields, without its request and response bodies. */
export type CallTiming = Pick<ModelCallRecord, 'server' | 'latency_ms' | 'queued_ms' | 'capacity' | 'started_at' | 'replayed' | 'cached'>;

export function createModelCallsRepo(db: Database.Database) {
  const insert = db.prepare('INSERT INTO tournament_model_calls (tournament_id, game_index, attempt, seat, calls) VALUES (?, ?, ?, ?, ?)');
  const byRun = db.prepare(
    'SELECT game_index, attempt, seat, calls FROM tournament_model_calls WHERE tournament_id = ? ORDER BY game_index, attempt, seat',
  );
  // The bodies stay in SQLite: a live view re-reads this after every game, and a long run's bodies are megabytes.
  const timings = db.prepare(
    `SELECT json_extract(c.value, '$.server') AS server, json_extract(c.value, '$.latency_ms') AS latency_ms,
            json_extract(c.value, '$.queued_ms') AS queued_ms, json_extract(c.value, '$.capacity') AS capacity,
            json_extract(c.value, '$.started_at') AS started_at, json_extract(c.value, '$.replayed') AS replayed,
            json_extract(c.value, '$.cached') AS cached
       FROM tournament_model_calls t, json_each(t.calls) c WHERE t.tournament_id = ?`,
  );
  const update = db.prepare(
    'UPDATE tournament_model_calls SET calls = ? WHERE tournament_id = ? AND game_index = ? AND attempt = ? AND seat = ?',
  );
  return {
    add(tournamentId: string, gameIndex: number, attempt: number, seat: number, calls: readonly ModelCallRecord[]): void {
      insert.run(tournamentId, gameIndex, attempt, seat, JSON.stringify(calls));
    },
    /** Every seat's calls of the run, by game, attempt and seat. */
    ofRun(tournamentId: string): StoredSeatCalls[] {
      return (byRun.all(tournamentId) as { game_index: number; attempt: number; seat: number; calls: string }[]).map((r) => ({
        gameIndex: r.game_index,
        attempt: r.attempt,
        seat: r.seat,
        calls: JSON.parse(r.calls) as ModelCallRecord[],
      }));
    },
    /** Every call's timing over the run (every attempt, void ones too: the server answered them). */
    timingsOfRun(tournamentId: string): CallTiming[] {
      type Row = {
        server: string;
        latency_ms: number;
        queued_ms: number;
        capacity: number | null;
        started_at: number;
        replayed: number | null;
        cached: number | null;
      };
      return (timings.all(tournamentId) as Row[]).map((r) => ({
        server: r.server,
        latency_ms: r.latency_ms,
        queued_ms: r.queued_ms,
        ...(r.capacity === null ? {} : { capacity: r.capacity }),
        started_at: r.started_at,
        ...(r.replayed ? { replayed: true } : {}),
        ...(r.cached ? { cached: true } : {}),
      }));
    },
    /** Rewrites one seat's record (tests alter a recorded answer to see replay name the difference). */
    replace(tournamentId: string, gameIndex: number, attempt: number, seat: number, calls: readonly ModelCallRecord[]): void {
      update.run(JSON.stringify(calls), tournamentId, gameIndex, attempt, seat);
    },
  };
}
