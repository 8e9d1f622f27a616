// The recorded model calls of each seat of a game attempt (migration 0230), as ModelCallRecord[] JSON.
import type Database from 'better-sqlite3';
import type { ModelCallRecord } from '../../contract/model-call.js';

export interface StoredSeatCalls {
  gameIndex: number;
  attempt: number;
  seat: number;
  calls: ModelCallRecord[];
}

export function createModelCallsRepo(db: Database.Database) {
  const insert = db.prepare('INSERT INTO tournament_model_calls (tournament_id, game_index, attempt, seat, calls) VALUES (?, ?, ?, ?, ?)');
  const byRun = db.prepare(
    'SELECT game_index, attempt, seat, calls FROM tournament_model_calls WHERE tournament_id = ? ORDER BY game_index, attempt, seat',
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
    /** Rewrites one seat's record (tests alter a recorded answer to see replay name the difference). */
    replace(tournamentId: string, gameIndex: number, attempt: number, seat: number, calls: readonly ModelCallRecord[]): void {
      update.run(JSON.stringify(calls), tournamentId, gameIndex, attempt, seat);
    },
  };
}
