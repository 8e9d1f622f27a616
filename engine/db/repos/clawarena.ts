// ClawArena store: agents, hashed tokens, lobby queue, matches, seats, event log, idempotency and decision-context
// cursors. JSON columns are parsed here so callers get plain objects.
import type Database from 'better-sqlite3';

export interface StoredClawAgent {
  agentId: number;
  name: string;
  createdAt: number;
  preferredGameType: string | null;
  runtimeKind: string | null;
  preferences: Record<string, unknown>;
  lastSeenAt: number | null;
  lastHeartbeatAt: number | null;
  lastReportAt: number | null;
  heartbeat: Record<string, unknown>;
}

export interface StoredClawToken {
  agentId: number;
  matchId: number | null;
  createdAt: number;
  revokedAt: number | null;
}

export type ClawMatchStatus = 'matched' | 'playing' | 'finished';

export interface StoredClawMatch {
  matchId: number;
  gameType: string;
  origin: 'lobby' | 'scheduled';
  status: ClawMatchStatus;
  seed: string;
  options: Record<string, unknown>;
  state: unknown;
  windowSeq: number;
  windowKey: string | null;
  windowOpenedAt: number | null;
  deadlineAt: number | null;
  startDeadlineAt: number | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  result: Record<string, unknown> | null;
  summary: Record<string, unknown> | null;
}

export interface StoredClawSeat {
  matchId: number;
  seat: number;
  agentId: number;
  name: string;
  connectedAt: number | null;
  offeredWindow: number | null;
  actedWindow: number | null;
  finishedSeen: boolean;
  guidanceHash: string | null;
  placement: number | null;
}

export interface StoredClawEvent {
  eventSeq: number;
  type: string;
  isAuto: boolean;
  visibility: 'public' | number[];
  data: Record<string, unknown>;
  createdAt: number;
}

export interface StoredClawContext {
  historyCursor: number;
  stableId: string | null;
  resynced: boolean;
  /** snapshot=slim: entries consumed per append-only log of the projection. */
  slimCursors?: Record<string, number>;
}

interface AgentRow {
  agent_id: number;
  name: string;
  created_at: number;
  preferred_game_type: string | null;
  runtime_kind: string | null;
  preferences: string;
  last_seen_at: number | null;
  last_heartbeat_at: number | null;
  last_report_at: number | null;
  heartbeat: string;
}

interface MatchRow {
  match_id: number;
  game_type: string;
  origin: 'lobby' | 'scheduled';
  status: ClawMatchStatus;
  seed: string;
  options: string;
  state: string;
  window_seq: number;
  window_key: string | null;
  window_opened_at: number | null;
  deadline_at: number | null;
  start_deadline_at: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  result: string | null;
  summary: string | null;
}

interface SeatRow {
  match_id: number;
  seat: number;
  agent_id: number;
  name: string;
  connected_at: number | null;
  offered_window: number | null;
  acted_window: number | null;
  finished_seen: number;
  guidance_hash: string | null;
  placement: number | null;
}

interface EventRow {
  event_seq: number;
  type: string;
  is_auto: number;
  visibility: string;
  data: string;
  created_at: number;
}

const agentFromRow = (r: AgentRow): StoredClawAgent => ({
  agentId: r.agent_id,
  name: r.name,
  createdAt: r.created_at,
  preferredGameType: r.preferred_game_type,
  runtimeKind: r.runtime_kind,
  preferences: JSON.parse(r.preferences),
  lastSeenAt: r.last_seen_at,
  lastHeartbeatAt: r.last_heartbeat_at,
  lastReportAt: r.last_report_at,
  heartbeat: JSON.parse(r.heartbeat),
});

const matchFromRow = (r: MatchRow): StoredClawMatch => ({
  matchId: r.match_id,
  gameType: r.game_type,
  origin: r.origin,
  status: r.status,
  seed: r.seed,
  options: JSON.parse(r.options),
  state: JSON.parse(r.state),
  windowSeq: r.window_seq,
  windowKey: r.window_key,
  windowOpenedAt: r.window_opened_at,
  deadlineAt: r.deadline_at,
  startDeadlineAt: r.start_deadline_at,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  result: r.result === null ? null : JSON.parse(r.result),
  summary: r.summary === null ? null : JSON.parse(r.summary),
});

const seatFromRow = (r: SeatRow): StoredClawSeat => ({
  matchId: r.match_id,
  seat: r.seat,
  agentId: r.agent_id,
  name: r.name,
  connectedAt: r.connected_at,
  offeredWindow: r.offered_window,
  actedWindow: r.acted_window,
  finishedSeen: r.finished_seen === 1,
  guidanceHash: r.guidance_hash,
  placement: r.placement,
});

const eventFromRow = (r: EventRow): StoredClawEvent => ({
  eventSeq: r.event_seq,
  type: r.type,
  isAuto: r.is_auto === 1,
  visibility: r.visibility === 'public' ? 'public' : (JSON.parse(r.visibility) as number[]),
  data: JSON.parse(r.data),
  createdAt: r.created_at,
});

export function createClawArenaRepo(db: Database.Database) {
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
    insertMatch: db.prepare(`INSERT INTO clawarena_matches (game_type, origin, status, seed, options, state, created_at, start_deadline_at)
      VALUES (@gameType, @origin, @status, @seed, @options, @state, @createdAt, @startDeadlineAt) RETURNING match_id`),
    match: db.prepare('SELECT * FROM clawarena_matches WHERE match_id = ?'),
    matches: db.prepare('SELECT * FROM clawarena_matches ORDER BY match_id DESC LIMIT ?'),
    matchesOfAgent: db.prepare(`SELECT m.* FROM clawarena_matches m
      WHERE m.match_id IN (SELECT match_id FROM clawarena_seats WHERE agent_id = ?) ORDER BY m.match_id DESC LIMIT ?`),
    updateMatch:
      db.prepare(`UPDATE clawarena_matches SET status = @status, state = @state, window_seq = @windowSeq, window_key = @windowKey,
      window_opened_at = @windowOpenedAt, deadline_at = @deadlineAt, start_deadline_at = @startDeadlineAt, started_at = @startedAt,
      finished_at = @finishedAt, result = @result, summary = @summary WHERE match_id = @matchId`),
    openMatches: db.prepare("SELECT match_id FROM clawarena_matches WHERE status IN ('matched', 'playing') ORDER BY match_id"),
    nextDeadline: db.prepare(`SELECT MIN(t) AS t FROM (
      SELECT MIN(deadline_at) AS t FROM clawarena_matches WHERE status = 'playing'
      UNION ALL SELECT MIN(start_deadline_at) FROM clawarena_matches WHERE status = 'matched')`),
    due: db.prepare(`SELECT match_id FROM clawarena_matches WHERE (status = 'playing' AND deadline_at <= @now)
      OR (status = 'matched' AND start_deadline_at <= @now) ORDER BY match_id`),
    insertSeat: db.prepare('INSERT INTO clawarena_seats (match_id, seat, agent_id, name) VALUES (?, ?, ?, ?)'),
    seats: db.prepare('SELECT * FROM clawarena_seats WHERE match_id = ? ORDER BY seat'),
    seatOfAgent: db.prepare('SELECT * FROM clawarena_seats WHERE match_id = ? AND agent_id = ?'),
    latestSeat: db.prepare('SELECT * FROM clawarena_seats WHERE agent_id = ? ORDER BY match_id DESC LIMIT 1'),
    updateSeat:
      db.prepare(`UPDATE clawarena_seats SET connected_at = @connectedAt, offered_window = @offeredWindow, acted_window = @actedWindow,
      finished_seen = @finishedSeen, guidance_hash = @guidanceHash, placement = @placement WHERE match_id = @matchId AND seat = @seat`),
    appendEvent: db.prepare(`INSERT INTO clawarena_events (match_id, event_seq, type, is_auto, visibility, data, created_at)
      SELECT @matchId, COALESCE(MAX(event_seq), 0) + 1, @type, @isAuto, @visibility, @data, @createdAt FROM clawarena_events WHERE match_id = @matchId
      RETURNING event_seq`),
    publicEvents: db.prepare(`SELECT * FROM (SELECT * FROM clawarena_events WHERE match_id = ? AND event_seq > ? AND visibility = 'public'
      ORDER BY event_seq DESC LIMIT ?) ORDER BY event_seq`),
    allEvents: db.prepare('SELECT * FROM clawarena_events WHERE match_id = ? ORDER BY event_seq'),
    lastVisible: db.prepare(`SELECT MAX(event_seq) AS seq FROM clawarena_events WHERE match_id = @matchId AND
      CASE WHEN visibility = 'public' THEN 1 ELSE EXISTS (SELECT 1 FROM json_each(visibility) WHERE value = @seat) END`),
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

    insertMatch(match: {
      gameType: string;
      origin: 'lobby' | 'scheduled';
      status: ClawMatchStatus;
      seed: string;
      options: Record<string, unknown>;
      state: unknown;
      createdAt: number;
      startDeadlineAt: number | null;
    }): number {
      const row = q.insertMatch.get({ ...match, options: JSON.stringify(match.options), state: JSON.stringify(match.state) }) as {
        match_id: number;
      };
      return row.match_id;
    },
    match(matchId: number): StoredClawMatch | undefined {
      const row = q.match.get(matchId) as MatchRow | undefined;
      return row && matchFromRow(row);
    },
    recentMatches(limit: number): StoredClawMatch[] {
      return (q.matches.all(limit) as MatchRow[]).map(matchFromRow);
    },
    /** The matches an agent holds a seat in, newest first. */
    matchesOfAgent(agentId: number, limit: number): StoredClawMatch[] {
      return (q.matchesOfAgent.all(agentId, limit) as MatchRow[]).map(matchFromRow);
    },
    updateMatch(match: StoredClawMatch): void {
      q.updateMatch.run({
        matchId: match.matchId,
        status: match.status,
        state: JSON.stringify(match.state),
        windowSeq: match.windowSeq,
        windowKey: match.windowKey,
        windowOpenedAt: match.windowOpenedAt,
        deadlineAt: match.deadlineAt,
        startDeadlineAt: match.startDeadlineAt,
        startedAt: match.startedAt,
        finishedAt: match.finishedAt,
        result: match.result === null ? null : JSON.stringify(match.result),
        summary: match.summary === null ? null : JSON.stringify(match.summary),
      });
    },
    openMatchIds(): number[] {
      return (q.openMatches.all() as { match_id: number }[]).map((r) => r.match_id);
    },
    nextDeadline(): number | null {
      return (q.nextDeadline.get() as { t: number | null }).t;
    },
    dueMatchIds(now: number): number[] {
      return (q.due.all({ now }) as { match_id: number }[]).map((r) => r.match_id);
    },

    insertSeat(matchId: number, seat: number, agentId: number, name: string): void {
      q.insertSeat.run(matchId, seat, agentId, name);
    },
    seats(matchId: number): StoredClawSeat[] {
      return (q.seats.all(matchId) as SeatRow[]).map(seatFromRow);
    },
    seatOfAgent(matchId: number, agentId: number): StoredClawSeat | undefined {
      const row = q.seatOfAgent.get(matchId, agentId) as SeatRow | undefined;
      return row && seatFromRow(row);
    },
    latestSeatOfAgent(agentId: number): StoredClawSeat | undefined {
      const row = q.latestSeat.get(agentId) as SeatRow | undefined;
      return row && seatFromRow(row);
    },
    updateSeat(seat: StoredClawSeat): void {
      q.updateSeat.run({ ...seat, finishedSeen: seat.finishedSeen ? 1 : 0 });
    },

    appendEvent(matchId: number, event: Omit<StoredClawEvent, 'eventSeq'>): number {
      const row = q.appendEvent.get({
        matchId,
        type: event.type,
        isAuto: event.isAuto ? 1 : 0,
        visibility: event.visibility === 'public' ? 'public' : JSON.stringify(event.visibility),
        data: JSON.stringify(event.data),
        createdAt: event.createdAt,
      }) as { event_seq: number };
      return row.event_seq;
    },
    /** The latest `limit` public events after `after`, oldest first. */
    publicEvents(matchId: number, after: number, limit: number): StoredClawEvent[] {
      return (q.publicEvents.all(matchId, after, limit) as EventRow[]).map(eventFromRow);
    },
    events(matchId: number): StoredClawEvent[] {
      return (q.allEvents.all(matchId) as EventRow[]).map(eventFromRow);
    },
    lastVisibleEventSeq(matchId: number, seat: number): number {
      return (q.lastVisible.get({ matchId, seat }) as { seq: number | null }).seq ?? 0;
    },

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

    /** Deletes every ClawArena row (the test reset hook). */
    clear(): void {
      db.exec(`DELETE FROM clawarena_states; DELETE FROM clawarena_contexts; DELETE FROM clawarena_idempotency; DELETE FROM clawarena_events;
        DELETE FROM clawarena_seats; DELETE FROM clawarena_queue; DELETE FROM clawarena_matches; DELETE FROM clawarena_tokens;
        DELETE FROM clawarena_agents;`);
    },
  };
}

export type ClawArenaRepo = ReturnType<typeof createClawArenaRepo>;
