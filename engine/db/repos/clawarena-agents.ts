// ClawArena agents, their hashed tokens and the lobby queue.
import type Database from 'better-sqlite3';
import { type AgentRow, agentFromRow, type StoredClawAgent, type StoredClawToken } from './clawarena-rows.js';

export function createClawAgentRepo(db: Database.Database) {
  const q = {
    insertAgent: db.prepare(`INSERT INTO clawarena_agents (name, created_at, preferred_game_type, runtime_kind, preferences)
      VALUES (@name, @createdAt, @preferredGameType, @runtimeKind, @preferences) RETURNING *`),
    agent: db.prepare('SELECT * FROM clawarena_agents WHERE agent_id = ?'),
    agentByName: db.prepare('SELECT * FROM clawarena_agents WHERE name = ?'),
    agents: db.prepare('SELECT * FROM clawarena_agents ORDER BY agent_id'),
    updateAgent: db.prepare(`UPDATE clawarena_agents SET preferred_game_type = @preferredGameType, runtime_kind = @runtimeKind,
      preferences = @preferences WHERE agent_id = @agentId`),
    touch: db.prepare('UPDATE clawarena_agents SET last_seen_at = MAX(COALESCE(last_seen_at, 0), ?) WHERE agent_id = ?'),
    heartbeat: db.prepare(`UPDATE clawarena_agents SET last_heartbeat_at = @at, last_seen_at = MAX(COALESCE(last_seen_at, 0), @at),
      heartbeat = @body, last_report_at = CASE WHEN @reported = 1 THEN @at ELSE last_report_at END WHERE agent_id = @agentId`),
    insertToken: db.prepare('INSERT INTO clawarena_tokens (secret_hash, agent_id, match_id, created_at) VALUES (?, ?, ?, ?)'),
    token: db.prepare('SELECT agent_id, match_id, created_at, revoked_at FROM clawarena_tokens WHERE secret_hash = ?'),
    revokeUnscoped: db.prepare('UPDATE clawarena_tokens SET revoked_at = ? WHERE agent_id = ? AND match_id IS NULL AND revoked_at IS NULL'),
    revokeMatch: db.prepare('UPDATE clawarena_tokens SET revoked_at = ? WHERE match_id = ? AND revoked_at IS NULL'),
    enqueue: db.prepare('INSERT OR IGNORE INTO clawarena_queue (agent_id, game_type, queued_at) VALUES (?, ?, ?)'),
    dequeue: db.prepare('DELETE FROM clawarena_queue WHERE agent_id = ?'),
    queued: db.prepare('SELECT game_type, queued_at FROM clawarena_queue WHERE agent_id = ?'),
    queue: db.prepare(`SELECT q.agent_id, q.queued_at, a.last_seen_at FROM clawarena_queue q JOIN clawarena_agents a USING (agent_id)
      WHERE q.game_type = ? ORDER BY q.queued_at, q.agent_id`),
  };

  return {
    insertAgent(agent: {
      name: string;
      createdAt: number;
      preferredGameType: string | null;
      runtimeKind: string | null;
      preferences: Record<string, unknown>;
    }) {
      return agentFromRow(q.insertAgent.get({ ...agent, preferences: JSON.stringify(agent.preferences) }) as AgentRow);
    },
    agent(agentId: number): StoredClawAgent | undefined {
      const row = q.agent.get(agentId) as AgentRow | undefined;
      return row && agentFromRow(row);
    },
    agentByName(name: string): StoredClawAgent | undefined {
      const row = q.agentByName.get(name) as AgentRow | undefined;
      return row && agentFromRow(row);
    },
    agents(): StoredClawAgent[] {
      return (q.agents.all() as AgentRow[]).map(agentFromRow);
    },
    updateAgent(agent: Pick<StoredClawAgent, 'agentId' | 'preferredGameType' | 'runtimeKind' | 'preferences'>): void {
      q.updateAgent.run({ ...agent, preferences: JSON.stringify(agent.preferences) });
    },
    touchAgent(agentId: number, at: number): void {
      q.touch.run(at, agentId);
    },
    recordHeartbeat(agentId: number, at: number, body: Record<string, unknown>, reported: boolean): void {
      q.heartbeat.run({ agentId, at, body: JSON.stringify(body), reported: reported ? 1 : 0 });
    },

    insertToken(secretHash: string, agentId: number, matchId: number | null, createdAt: number): void {
      q.insertToken.run(secretHash, agentId, matchId, createdAt);
    },
    token(secretHash: string): StoredClawToken | undefined {
      const row = q.token.get(secretHash) as
        | { agent_id: number; match_id: number | null; created_at: number; revoked_at: number | null }
        | undefined;
      return row && { agentId: row.agent_id, matchId: row.match_id, createdAt: row.created_at, revokedAt: row.revoked_at };
    },
    revokeUnscopedTokens(agentId: number, at: number): void {
      q.revokeUnscoped.run(at, agentId);
    },
    revokeMatchTokens(matchId: number, at: number): void {
      q.revokeMatch.run(at, matchId);
    },

    enqueue(agentId: number, gameType: string, at: number): void {
      q.enqueue.run(agentId, gameType, at);
    },
    dequeue(agentId: number): void {
      q.dequeue.run(agentId);
    },
    queued(agentId: number): { gameType: string; queuedAt: number } | undefined {
      const row = q.queued.get(agentId) as { game_type: string; queued_at: number } | undefined;
      return row && { gameType: row.game_type, queuedAt: row.queued_at };
    },
    queue(gameType: string): { agentId: number; queuedAt: number; lastSeenAt: number | null }[] {
      return (q.queue.all(gameType) as { agent_id: number; queued_at: number; last_seen_at: number | null }[]).map((r) => ({
        agentId: r.agent_id,
        queuedAt: r.queued_at,
        lastSeenAt: r.last_seen_at,
      }));
    },
  };
}
