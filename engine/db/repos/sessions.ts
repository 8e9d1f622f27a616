// Sessions ("challenges" on the wire) and their invites. Returns plain objects; JSON columns are parsed here.
import type Database from 'better-sqlite3';
import type { ChallengeOperatorState, GameCategory, SessionStatus } from '../../contract/specarena.js';

export interface StoredSession {
  id: string;
  name: string;
  challengeType: string;
  createdAt: number;
  completedAt: number | null;
  lastActivityAt: number;
  status: SessionStatus;
  gameCategory: GameCategory;
  options: Record<string, unknown>;
  gameState: Record<string, unknown>;
  state: ChallengeOperatorState;
  invites: string[];
  /** Created with seat keys: its invites can be joined and played only with them. */
  seatKeysRequired: boolean;
}

export type SessionSeats = Pick<StoredSession, 'id' | 'invites' | 'status' | 'lastActivityAt'>;

export interface SessionPage {
  items: StoredSession[];
  total: number;
}

export interface SessionFilter {
  challengeType?: string;
  status?: SessionStatus;
  /** Sessions in which this user holds a seat. */
  userId?: string;
  /** false: leave out the sessions tournaments created for their games. */
  tournamentSessions?: boolean;
  limit: number;
  offset: number;
}

interface SessionRow {
  id: string;
  name: string;
  challenge_type: string;
  created_at: number;
  completed_at: number | null;
  last_activity_at: number;
  status: SessionStatus;
  game_category: GameCategory;
  options: string;
  game_state: string;
  state: string;
  invites: string;
  seat_keys_required: number;
}

const COLUMNS = `s.id, s.name, s.challenge_type, s.created_at, s.completed_at, s.last_activity_at, s.status, s.game_category,
  s.options, s.game_state, s.state, s.seat_keys_required, s.invites`;

function fromRow(row: SessionRow): StoredSession {
  return {
    id: row.id,
    name: row.name,
    challengeType: row.challenge_type,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    lastActivityAt: row.last_activity_at,
    status: row.status,
    gameCategory: row.game_category,
    options: JSON.parse(row.options),
    gameState: JSON.parse(row.game_state),
    state: JSON.parse(row.state),
    invites: JSON.parse(row.invites),
    seatKeysRequired: row.seat_keys_required === 1,
  };
}

// Kept whole: a repository: its prepared statements and one short method per query, read like a class.
export function createSessionsRepo(db: Database.Database) {
  const insertSession = db.prepare(`INSERT INTO sessions
    (id, name, challenge_type, created_at, completed_at, last_activity_at, status, game_category, options, game_state, state, seat_keys_required,
      invites)
    VALUES (@id, @name, @challengeType, @createdAt, @completedAt, @lastActivityAt, @status, @gameCategory, @options, @gameState, @state,
      @seatKeysRequired, @invites)`);
  const insertInvite = db.prepare('INSERT INTO session_invites (invite, session_id, slot) VALUES (?, ?, ?)');
  const byId = db.prepare(`SELECT ${COLUMNS} FROM sessions s WHERE s.id = ?`);
  const statusById = db.prepare('SELECT status FROM sessions WHERE id = ?').pluck();
  const activityById = db.prepare('SELECT status, last_activity_at AS lastActivityAt FROM sessions WHERE id = ?');
  const SEATS = 'id, invites, status, last_activity_at AS lastActivityAt';
  const seatsById = db.prepare(`SELECT ${SEATS} FROM sessions WHERE id = ?`);
  const seatsByInvite = db.prepare(`SELECT ${SEATS} FROM sessions WHERE id = (SELECT session_id FROM session_invites WHERE invite = ?)`);
  const playersById = db.prepare(
    "SELECT status, last_activity_at AS lastActivityAt, json_extract(state, '$.players') AS players FROM sessions WHERE id = ?",
  );
  const seatKeysByInvite = db.prepare(
    'SELECT s.seat_keys_required AS required FROM session_invites i JOIN sessions s ON s.id = i.session_id WHERE i.invite = ?',
  );
  const seatKeysById = db.prepare('SELECT seat_keys_required FROM sessions WHERE id = ?').pluck();
  const seatKeyPlayer = db
    .prepare(
      'SELECT 1 FROM session_invites i JOIN sessions s ON s.id = i.session_id WHERE i.user_id = ? AND s.seat_keys_required = 1 LIMIT 1',
    )
    .pluck();
  const userOfInvite = db.prepare('SELECT user_id FROM session_invites WHERE invite = ?').pluck();
  const byInvite = db.prepare(`SELECT ${COLUMNS} FROM sessions s WHERE s.id = (SELECT session_id FROM session_invites WHERE invite = ?)`);
  const updateSession = db.prepare(`UPDATE sessions SET completed_at = @completedAt, last_activity_at = @lastActivityAt,
    status = @status, game_category = @gameCategory, game_state = @gameState, state = @state WHERE id = @id`);
  // Most actions move only the game: naming fewer columns keeps SQLite from rewriting the unfinished-sessions index.
  const updateGame = db.prepare(
    'UPDATE sessions SET last_activity_at = @lastActivityAt, game_state = @gameState, state = @state WHERE id = @id',
  );
  const seatInvite = db.prepare('UPDATE session_invites SET player_index = ?, user_id = ? WHERE invite = ?');
  const touch = db.prepare('UPDATE sessions SET last_activity_at = MAX(last_activity_at, ?) WHERE id = ?');
  const remove = db.prepare('DELETE FROM sessions WHERE id = ?');
  const staleIds = db.prepare(`SELECT id FROM sessions WHERE status != 'ended' AND last_activity_at < ?`);
  const markTournament = db.prepare('INSERT OR IGNORE INTO tournament_sessions (session_id, tournament_id) VALUES (?, ?)');
  const tournamentOf = db.prepare('SELECT tournament_id FROM tournament_sessions WHERE session_id = ?');
  const endedCounts = db.prepare(
    `SELECT challenge_type AS type, COUNT(*) AS n FROM sessions WHERE status = 'ended' GROUP BY challenge_type`,
  );
  const endedInOrder = db.prepare(`SELECT ${COLUMNS} FROM sessions s WHERE s.status = 'ended' ORDER BY s.completed_at, s.created_at, s.id`);
  const listCache = new Map<string, { page: Database.Statement; count: Database.Statement }>();

  function listStatements(filter: SessionFilter) {
    const key = `${filter.challengeType !== undefined}|${filter.status !== undefined}|${filter.userId !== undefined}|${filter.tournamentSessions === false}`;
    let cached = listCache.get(key);
    if (!cached) {
      const where: string[] = [];
      if (filter.challengeType !== undefined) where.push('s.challenge_type = @challengeType');
      if (filter.status !== undefined) where.push('s.status = @status');
      if (filter.userId !== undefined) where.push('s.id IN (SELECT session_id FROM session_invites WHERE user_id = @userId)');
      if (filter.tournamentSessions === false) where.push('s.id NOT IN (SELECT session_id FROM tournament_sessions)');
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      cached = {
        page: db.prepare(`SELECT ${COLUMNS} FROM sessions s ${clause} ORDER BY s.created_at DESC, s.id DESC LIMIT @limit OFFSET @offset`),
        count: db.prepare(`SELECT COUNT(*) AS n FROM sessions s ${clause}`),
      };
      listCache.set(key, cached);
    }
    return cached;
  }

  return {
    insert(session: StoredSession): void {
      insertSession.run({
        ...session,
        options: JSON.stringify(session.options),
        gameState: JSON.stringify(session.gameState),
        state: JSON.stringify(session.state),
        seatKeysRequired: session.seatKeysRequired ? 1 : 0,
        invites: JSON.stringify(session.invites),
      });
      session.invites.forEach((invite, slot) => {
        insertInvite.run(invite, session.id, slot);
      });
    },
    get(id: string): StoredSession | undefined {
      const row = byId.get(id) as SessionRow | undefined;
      return row && fromRow(row);
    },
    status(id: string): SessionStatus | undefined {
      return statusById.get(id) as SessionStatus | undefined;
    },
    /** Status and last activity only: what expiry and chat need, without reading the game. */
    activity(id: string): { status: SessionStatus; lastActivityAt: number } | undefined {
      return activityById.get(id) as { status: SessionStatus; lastActivityAt: number } | undefined;
    },
    /** A session's id and invites with what expiry needs, without reading its game: seat-key checks on every request. */
    seats(ref: { id: string } | { invite: string }): SessionSeats | undefined {
      const row = ('id' in ref ? seatsById.get(ref.id) : seatsByInvite.get(ref.invite)) as
        | (Omit<SessionSeats, 'invites'> & { invites: string })
        | undefined;
      return row && { ...row, invites: JSON.parse(row.invites) as string[] };
    },
    /** Who has joined so far (invites in join order), with what expiry needs, without reading the game. */
    players(id: string): { status: SessionStatus; lastActivityAt: number; players: string[] } | undefined {
      const row = playersById.get(id) as { status: SessionStatus; lastActivityAt: number; players: string | null } | undefined;
      return row && { status: row.status, lastActivityAt: row.lastActivityAt, players: JSON.parse(row.players ?? '[]') as string[] };
    },
    getByInvite(invite: string): StoredSession | undefined {
      const row = byInvite.get(invite) as SessionRow | undefined;
      return row && fromRow(row);
    },
    /** Whether the session holding this invite requires seat keys; a cheap check run on every `from` claim. */
    seatKeysRequiredForInvite(invite: string): boolean {
      const row = seatKeysByInvite.get(invite) as { required: number } | undefined;
      return row?.required === 1;
    },
    seatKeysRequiredForSession(id: string): boolean {
      return seatKeysById.get(id) === 1;
    },
    /** True when `userId` has held a seat in a session only seat keys may play (a runner-launched agent's profile). */
    isSeatKeyPlayer(userId: string): boolean {
      return seatKeyPlayer.get(userId) === 1;
    },
    /** The profile id the seat of `invite` joined as, or null. */
    userOfInvite(invite: string): string | null {
      return (userOfInvite.get(invite) as string | null | undefined) ?? null;
    },
    /**
     * Writes the mutable parts of a session. `lifecycle`: its status, category or completion time changed (otherwise
     * only the game and the activity time are written). Seat rows are written for the `seated` invites only.
     */
    update(session: StoredSession, changes: { lifecycle: boolean; seated: readonly string[] }): void {
      const game = {
        id: session.id,
        lastActivityAt: session.lastActivityAt,
        gameState: JSON.stringify(session.gameState),
        state: JSON.stringify(session.state),
      };
      if (changes.lifecycle) {
        updateSession.run({ ...game, completedAt: session.completedAt, status: session.status, gameCategory: session.gameCategory });
      } else {
        updateGame.run(game);
      }
      for (const invite of changes.seated) {
        const index = session.state.players.indexOf(invite);
        if (index >= 0) seatInvite.run(index, session.state.playerIdentities[invite] ?? null, invite);
      }
    },
    touch(id: string, at: number): void {
      touch.run(at, id);
    },
    delete(id: string): boolean {
      return remove.run(id).changes > 0;
    },
    staleIds(activeSince: number): string[] {
      return (staleIds.all(activeSince) as { id: string }[]).map((r) => r.id);
    },
    list(filter: SessionFilter): SessionPage {
      const { page, count } = listStatements(filter);
      const { tournamentSessions: _owned, ...params } = filter;
      const items = (page.all(params) as SessionRow[]).map(fromRow);
      const total = (count.get(params) as { n: number }).n;
      return { items, total };
    },
    /** Records that a tournament created this session for one of its games. */
    markTournamentSession(sessionId: string, tournamentId: string): void {
      markTournament.run(sessionId, tournamentId);
    },
    /** The tournament that created each of these sessions, for those a tournament created. */
    tournamentsOf(sessionIds: readonly string[]): Map<string, string> {
      const out = new Map<string, string>();
      for (const id of sessionIds) {
        const row = tournamentOf.get(id) as { tournament_id: string } | undefined;
        if (row) out.set(id, row.tournament_id);
      }
      return out;
    },
    endedCountsByType(): Record<string, number> {
      const out: Record<string, number> = {};
      for (const row of endedCounts.all() as { type: string; n: number }[]) out[row.type] = row.n;
      return out;
    },
    /** Every ended session in completion order: the input of a scoring recompute (read whole, since the caller writes meanwhile). */
    endedInCompletionOrder(): StoredSession[] {
      return (endedInOrder.all() as SessionRow[]).map(fromRow);
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
