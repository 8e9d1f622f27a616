// What ClawArena keeps per agent and match between requests: idempotency replies, decision-context cursors and the
// recent states an agent may diff against.
import type Database from 'better-sqlite3';
import type { StoredClawContext } from './clawarena-rows.js';

export function createClawContextRepo(db: Database.Database) {
  const q = {
    idem: db.prepare('SELECT payload, response FROM clawarena_idempotency WHERE agent_id = ? AND key = ?'),
    putIdem: db.prepare('INSERT INTO clawarena_idempotency (agent_id, key, payload, response, created_at) VALUES (?, ?, ?, ?, ?)'),
    context: db.prepare(
      'SELECT history_cursor, stable_id, resynced, slim_cursors FROM clawarena_contexts WHERE agent_id = ? AND match_id = ? AND context_id = ?',
    ),
    putContext: db.prepare(`INSERT INTO clawarena_contexts (agent_id, match_id, context_id, history_cursor, stable_id, resynced,
      slim_cursors, created_at)
      VALUES (@agentId, @matchId, @contextId, @historyCursor, @stableId, @resynced, @slimCursors, @createdAt)
      ON CONFLICT (agent_id, match_id, context_id) DO UPDATE SET history_cursor = excluded.history_cursor, stable_id = excluded.stable_id,
      resynced = excluded.resynced, slim_cursors = excluded.slim_cursors`),
    latestState: db.prepare(
      'SELECT state_seq, checksum, state FROM clawarena_states WHERE agent_id = ? AND match_id = ? ORDER BY state_seq DESC LIMIT 1',
    ),
    state: db.prepare('SELECT state_seq, checksum, state FROM clawarena_states WHERE agent_id = ? AND match_id = ? AND state_seq = ?'),
    insertState: db.prepare('INSERT INTO clawarena_states (agent_id, match_id, state_seq, checksum, state) VALUES (?, ?, ?, ?, ?)'),
    pruneStates: db.prepare('DELETE FROM clawarena_states WHERE agent_id = ? AND match_id = ? AND state_seq < ?'),
  };

  return {
    idempotency(agentId: number, key: string): { payload: string; response: string } | undefined {
      return q.idem.get(agentId, key) as { payload: string; response: string } | undefined;
    },
    putIdempotency(agentId: number, key: string, payload: string, response: string, at: number): void {
      q.putIdem.run(agentId, key, payload, response, at);
    },

    context(agentId: number, matchId: number, contextId: string): StoredClawContext | undefined {
      const row = q.context.get(agentId, matchId, contextId) as
        | { history_cursor: number; stable_id: string | null; resynced: number; slim_cursors: string | null }
        | undefined;
      return (
        row && {
          historyCursor: row.history_cursor,
          stableId: row.stable_id,
          resynced: row.resynced === 1,
          slimCursors: row.slim_cursors === null ? {} : (JSON.parse(row.slim_cursors) as Record<string, number>),
        }
      );
    },
    putContext(agentId: number, matchId: number, contextId: string, context: StoredClawContext, at: number): void {
      q.putContext.run({
        agentId,
        matchId,
        contextId,
        historyCursor: context.historyCursor,
        stableId: context.stableId,
        resynced: context.resynced ? 1 : 0,
        slimCursors: context.slimCursors && Object.keys(context.slimCursors).length > 0 ? JSON.stringify(context.slimCursors) : null,
        createdAt: at,
      });
    },

    latestState(agentId: number, matchId: number): { stateSeq: number; checksum: string; state: string } | undefined {
      const row = q.latestState.get(agentId, matchId) as { state_seq: number; checksum: string; state: string } | undefined;
      return row && { stateSeq: row.state_seq, checksum: row.checksum, state: row.state };
    },
    stateAt(agentId: number, matchId: number, stateSeq: number): { stateSeq: number; checksum: string; state: string } | undefined {
      const row = q.state.get(agentId, matchId, stateSeq) as { state_seq: number; checksum: string; state: string } | undefined;
      return row && { stateSeq: row.state_seq, checksum: row.checksum, state: row.state };
    },
    /** Records a new state and drops those older than the retention window. */
    pushState(agentId: number, matchId: number, stateSeq: number, checksum: string, canonical: string, retain: number): void {
      q.insertState.run(agentId, matchId, stateSeq, checksum, canonical);
      q.pruneStates.run(agentId, matchId, stateSeq - retain + 1);
    },
  };
}
