// ClawArena matches, their seats and each match's event log.
import type Database from 'better-sqlite3';
import {
  type ClawMatchStatus,
  type EventRow,
  eventFromRow,
  type MatchRow,
  matchFromRow,
  type SeatRow,
  type StoredClawEvent,
  type StoredClawMatch,
  type StoredClawSeat,
  seatFromRow,
} from './clawarena-rows.js';

// Kept whole: a repository: its prepared statements and one short method per query, read like a class.
export function createClawMatchRepo(db: Database.Database) {
  const q = {
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
  };

  return {
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
  };
}
