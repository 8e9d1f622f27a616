// Tournament runs and their finished games. JSON columns are parsed here so callers get plain objects.

import type Database from 'better-sqlite3';
import type { Isolation } from '../../contract/isolation.js';

export type TournamentStatus = 'running' | 'paused' | 'finished' | 'cancelled' | 'failed';

export interface StoredTournament {
  id: string;
  name: string;
  status: TournamentStatus;
  spec: Record<string, unknown>;
  /** Folder the spec was loaded from: agent manifest paths resolve against it. */
  specDir: string;
  manifest: Record<string, unknown>;
  manifestHash: string;
  plannedGames: number;
  plannedExact: boolean;
  stopReason: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** Committed attempts, games with at least one attempt, settled games: kept with every commit. */
  gameAttempts: number;
  gamesStarted: number;
  gamesSettled: number;
}

/** The attempt of a game committed last (what a new attempt supersedes). */
export interface LatestAttempt {
  seq: number;
  attempt: number;
  termination: string;
}

export interface StoredTournamentGame {
  seq: number;
  tournamentId: string;
  gameKey: string;
  gameIndex: number;
  attempt: number;
  round: number;
  pairingIndex: number;
  opening: number;
  challenge: string;
  seats: number[];
  seed: string;
  swapOf: number | null;
  setSize: number;
  sessionId: string | null;
  invites: string[];
  termination: string;
  fault: string;
  faultedSeats: number[];
  placements: number[] | null;
  scores: Array<{ security: number; utility: number }> | null;
  detail: string;
  agentMs: number;
  startedAt: number;
  endedAt: number;
  /** Per seat: model-usage totals of that seat's agent (null for a seat without any); null when no seat had any. */
  usage?: Array<object | null> | null;
  /** Per launched seat (seat order): the isolation its agent process got; null for rows from before it was recorded. */
  isolation?: Isolation[] | null;
  /** The game worker that played the attempt; null when this engine played it. */
  workerId?: string | null;
  /** The worker's public key and signature of the record (games played on workers); null otherwise. */
  workerKey?: string | null;
  workerSignature?: string | null;
}

export type NewTournamentGame = Omit<StoredTournamentGame, 'seq'> & {
  transcript: unknown[];
  /** What the worker's signature covers (canonical JSON, engine/workers/worker-keys.ts); null for local games. */
  workerAttestation?: string | null;
};

/** A worker-played attempt's signature and what it covers, as an audit bundle carries it. */
export interface SignedGameRecord {
  gameIndex: number;
  attempt: number;
  workerId: string;
  workerKey: string;
  signature: string;
  /** Canonical JSON of the attestation; null for rows signed before attestations were kept (migration 0270). */
  attestation: string | null;
}

export interface GameFilter {
  challenge?: string;
  /** Agent index that sat in the game. */
  agent?: number;
  termination?: string;
  /** Only the attempt that counts for each game (drops replayed void attempts). */
  finalOnly?: boolean;
  limit?: number;
  offset?: number;
}

export interface TournamentRow {
  id: string;
  name: string;
  status: string;
  spec: string;
  spec_dir: string;
  manifest: string;
  manifest_hash: string;
  planned_games: number;
  planned_exact: number;
  stop_reason: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  game_attempts: number;
  games_started: number;
  games_settled: number;
}

interface GameRow {
  seq: number;
  tournament_id: string;
  game_key: string;
  game_index: number;
  attempt: number;
  round: number;
  pairing_index: number;
  opening: number;
  challenge: string;
  seats: string;
  seed: string;
  swap_of: number | null;
  set_size: number;
  session_id: string | null;
  invites: string;
  termination: string;
  fault: string;
  faulted_seats: string;
  placements: string | null;
  scores: string | null;
  detail: string;
  agent_ms: number;
  started_at: number;
  ended_at: number;
  usage: string | null;
  isolation: string | null;
  worker_id: string | null;
  worker_key: string | null;
  worker_signature: string | null;
}

export function tournamentOf(row: TournamentRow): StoredTournament {
  return {
    id: row.id,
    name: row.name,
    status: row.status as TournamentStatus,
    spec: JSON.parse(row.spec) as Record<string, unknown>,
    specDir: row.spec_dir,
    manifest: JSON.parse(row.manifest) as Record<string, unknown>,
    manifestHash: row.manifest_hash,
    plannedGames: row.planned_games,
    plannedExact: row.planned_exact === 1,
    stopReason: row.stop_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    gameAttempts: row.game_attempts,
    gamesStarted: row.games_started,
    gamesSettled: row.games_settled,
  };
}

function gameOf(row: GameRow): StoredTournamentGame {
  return {
    seq: row.seq,
    tournamentId: row.tournament_id,
    gameKey: row.game_key,
    gameIndex: row.game_index,
    attempt: row.attempt,
    round: row.round,
    pairingIndex: row.pairing_index,
    opening: row.opening,
    challenge: row.challenge,
    seats: JSON.parse(row.seats) as number[],
    seed: row.seed,
    swapOf: row.swap_of,
    setSize: row.set_size,
    sessionId: row.session_id,
    invites: JSON.parse(row.invites) as string[],
    termination: row.termination,
    fault: row.fault,
    faultedSeats: JSON.parse(row.faulted_seats) as number[],
    placements: row.placements === null ? null : (JSON.parse(row.placements) as number[]),
    scores: row.scores === null ? null : (JSON.parse(row.scores) as StoredTournamentGame['scores']),
    detail: row.detail,
    agentMs: row.agent_ms,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    usage: row.usage === null ? null : (JSON.parse(row.usage) as StoredTournamentGame['usage']),
    isolation: row.isolation === null ? null : (JSON.parse(row.isolation) as StoredTournamentGame['isolation']),
    workerId: row.worker_id,
    workerKey: row.worker_key,
    workerSignature: row.worker_signature,
  };
}

// Kept whole: a repository: its prepared statements and one short method per query, read like a class.
export function createTournamentsRepo(db: Database.Database) {
  const insertTournament = db.prepare(`INSERT INTO tournaments
    (id, name, status, spec, spec_dir, manifest, manifest_hash, planned_games, planned_exact, stop_reason, created_at, updated_at, finished_at)
    VALUES (@id, @name, @status, @spec, @spec_dir, @manifest, @manifest_hash, @planned_games, @planned_exact, NULL, @now, @now, NULL)`);
  const getTournament = db.prepare('SELECT * FROM tournaments WHERE id = ?');
  const listTournaments = db.prepare('SELECT * FROM tournaments ORDER BY created_at DESC, id LIMIT ? OFFSET ?');
  const countTournaments = db.prepare('SELECT COUNT(*) AS n FROM tournaments');
  const byStatus = db.prepare('SELECT * FROM tournaments WHERE status = ? ORDER BY created_at, id');
  const setStatus = db.prepare(`UPDATE tournaments SET status = @status, stop_reason = COALESCE(@stop_reason, stop_reason),
    updated_at = @now, finished_at = @finished_at WHERE id = @id`);
  const insertGame = db.prepare(`INSERT INTO tournament_games
    (tournament_id, game_key, game_index, attempt, round, pairing_index, opening, challenge, seats, seed, swap_of, set_size, session_id,
     invites, termination, fault, faulted_seats, placements, scores, detail, transcript, agent_ms, started_at, ended_at, usage, isolation, worker_id, worker_key, worker_signature, worker_attestation)
    VALUES (@tournament_id, @game_key, @game_index, @attempt, @round, @pairing_index, @opening, @challenge, @seats, @seed, @swap_of,
     @set_size, @session_id, @invites, @termination, @fault, @faulted_seats, @placements, @scores, @detail, @transcript, @agent_ms, @started_at, @ended_at, @usage, @isolation, @worker_id, @worker_key, @worker_signature, @worker_attestation)`);
  const COLUMNS = `seq, tournament_id, game_key, game_index, attempt, round, pairing_index, opening, challenge, seats, seed, swap_of,
    set_size, session_id, invites, termination, fault, faulted_seats, placements, scores, detail, agent_ms, started_at, ended_at, usage, isolation,
    worker_id, worker_key, worker_signature`;
  const allGames = db.prepare(`SELECT ${COLUMNS} FROM tournament_games WHERE tournament_id = ? ORDER BY seq`);
  const signedRecords = db.prepare(`SELECT game_index, attempt, worker_id, worker_key, worker_signature, worker_attestation
    FROM tournament_games WHERE tournament_id = ? AND worker_id IS NOT NULL AND worker_signature IS NOT NULL ORDER BY seq`);
  const attemptsInOrder = db.prepare(`SELECT ${COLUMNS}, superseded FROM tournament_games WHERE tournament_id = ? ORDER BY seq`);
  const gamesWithTranscripts = db.prepare(`SELECT ${COLUMNS}, transcript FROM tournament_games WHERE tournament_id = ? ORDER BY seq`);
  const transcriptOf = db.prepare('SELECT transcript FROM tournament_games WHERE tournament_id = ? AND seq = ?');
  const latestOf = db.prepare(
    'SELECT seq, attempt, termination FROM tournament_games WHERE tournament_id = ? AND game_key = ? ORDER BY attempt DESC LIMIT 1',
  );
  const supersede = db.prepare('UPDATE tournament_games SET superseded = 1 WHERE seq = ?');
  const getGame = db.prepare(
    `SELECT ${COLUMNS} FROM tournament_games WHERE tournament_id = ? AND game_index = ? ORDER BY attempt DESC LIMIT 1`,
  );
  const countCommit = db.prepare(`UPDATE tournaments SET updated_at = @now, game_attempts = game_attempts + 1,
    games_started = games_started + @started, games_settled = games_settled + @settled WHERE id = @id`);
  const getTally = db.prepare(`SELECT t.attempts, t.state, COALESCE(c.trace, '[]') AS trace FROM tournament_tallies t
    LEFT JOIN tournament_tally_traces c ON c.tournament_id = t.tournament_id WHERE t.tournament_id = ?`);
  const tallyAttempts = db.prepare('SELECT attempts FROM tournament_tallies WHERE tournament_id = ?');
  const putTally = db.prepare(`INSERT INTO tournament_tallies (tournament_id, attempts, state) VALUES (@id, @attempts, @state)
    ON CONFLICT (tournament_id) DO UPDATE SET attempts = excluded.attempts, state = excluded.state`);
  const putTrace = db.prepare(`INSERT INTO tournament_tally_traces (tournament_id, trace) VALUES (@id, @trace)
    ON CONFLICT (tournament_id) DO UPDATE SET trace = excluded.trace`);
  const attemptCount = db.prepare('SELECT game_attempts AS n FROM tournaments WHERE id = ?');
  const runnerOf = db.prepare('SELECT runner FROM tournaments WHERE id = ?').pluck();
  const claimRunner = db.prepare('UPDATE tournaments SET runner = @mark WHERE id = @id AND runner IS @expected');
  const releaseRunner = db.prepare('UPDATE tournaments SET runner = NULL WHERE id = ? AND runner = ?');
  const pageStatements = new Map<string, { count: Database.Statement; page: Database.Statement }>();

  return {
    insert(
      t: Omit<
        StoredTournament,
        'status' | 'stopReason' | 'createdAt' | 'updatedAt' | 'finishedAt' | 'gameAttempts' | 'gamesStarted' | 'gamesSettled'
      >,
      now: number,
    ): void {
      insertTournament.run({
        id: t.id,
        name: t.name,
        status: 'running',
        spec: JSON.stringify(t.spec),
        spec_dir: t.specDir,
        manifest: JSON.stringify(t.manifest),
        manifest_hash: t.manifestHash,
        planned_games: t.plannedGames,
        planned_exact: t.plannedExact ? 1 : 0,
        now,
      });
    },

    get(id: string): StoredTournament | undefined {
      const row = getTournament.get(id) as TournamentRow | undefined;
      return row ? tournamentOf(row) : undefined;
    },

    list(limit: number, offset: number): { items: StoredTournament[]; total: number } {
      const rows = listTournaments.all(limit, offset) as TournamentRow[];
      return { items: rows.map(tournamentOf), total: (countTournaments.get() as { n: number }).n };
    },

    withStatus(status: TournamentStatus): StoredTournament[] {
      return (byStatus.all(status) as TournamentRow[]).map(tournamentOf);
    },

    /** The mark of the engine process playing the tournament, or null (engine-identity.ts). */
    runner(id: string): string | null {
      return (runnerOf.get(id) as string | null | undefined) ?? null;
    },

    /** Records `mark` as the tournament's runner if the runner is still `expected`; false when another got there first. */
    claimRunner(id: string, expected: string | null, mark: string): boolean {
      return claimRunner.run({ id, expected, mark }).changes === 1;
    },

    /** Clears the runner if it is still `mark`. */
    releaseRunner(id: string, mark: string): void {
      releaseRunner.run(id, mark);
    },

    setStatus(id: string, status: TournamentStatus, now: number, stopReason: string | null = null): void {
      const done = status === 'finished' || status === 'cancelled' || status === 'failed';
      setStatus.run({ id, status, stop_reason: stopReason, now, finished_at: done ? now : null });
    },

    /**
     * One finished attempt in its own transaction (a savepoint inside the caller's), so a crash never leaves half a
     * game behind: the row, the attempt it supersedes flagged, and the tournament's counts. IMMEDIATE, as in store.ts:
     * it reads before it writes. `settled`: the caller's rule (stats.ts isSettled). Returns the new seq and the
     * attempt it superseded.
     */
    insertGame(game: NewTournamentGame, settled: boolean): { seq: number; previous: LatestAttempt | null } {
      return db
        .transaction(() => {
          const previous = (latestOf.get(game.tournamentId, game.gameKey) as LatestAttempt | undefined) ?? null;
          const info = insertGame.run({
            tournament_id: game.tournamentId,
            game_key: game.gameKey,
            game_index: game.gameIndex,
            attempt: game.attempt,
            round: game.round,
            pairing_index: game.pairingIndex,
            opening: game.opening,
            challenge: game.challenge,
            seats: JSON.stringify(game.seats),
            seed: game.seed,
            swap_of: game.swapOf,
            set_size: game.setSize,
            session_id: game.sessionId,
            invites: JSON.stringify(game.invites),
            termination: game.termination,
            fault: game.fault,
            faulted_seats: JSON.stringify(game.faultedSeats),
            placements: game.placements === null ? null : JSON.stringify(game.placements),
            scores: game.scores === null ? null : JSON.stringify(game.scores),
            detail: game.detail,
            transcript: JSON.stringify(game.transcript),
            agent_ms: game.agentMs,
            started_at: game.startedAt,
            ended_at: game.endedAt,
            usage: game.usage ? JSON.stringify(game.usage) : null,
            isolation: game.isolation ? JSON.stringify(game.isolation) : null,
            worker_id: game.workerId ?? null,
            worker_key: game.workerKey ?? null,
            worker_signature: game.workerSignature ?? null,
            worker_attestation: game.workerAttestation ?? null,
          });
          if (previous) supersede.run(previous.seq);
          countCommit.run({ id: game.tournamentId, now: game.endedAt, started: previous ? 0 : 1, settled: settled ? 1 : 0 });
          return { seq: Number(info.lastInsertRowid), previous };
        })
        .immediate();
    },

    /** The run tally (JSON, its trace apart) and how many attempts it covers; undefined before the first is written. */
    tally(tournamentId: string): { attempts: number; state: string; trace: string } | undefined {
      return getTally.get(tournamentId) as { attempts: number; state: string; trace: string } | undefined;
    },

    /** Attempts committed for the tournament (0 when there is no such tournament). */
    gameAttempts(tournamentId: string): number {
      return (attemptCount.get(tournamentId) as { n: number } | undefined)?.n ?? 0;
    },

    /** Attempts the stored tally covers (without reading it), or null when there is none. */
    tallyAttempts(tournamentId: string): number | null {
      return (tallyAttempts.get(tournamentId) as { attempts: number } | undefined)?.attempts ?? null;
    },

    /** Writes the tally; without `trace`, the stored trace stays (the caller knows it did not change). */
    saveTally(tournamentId: string, attempts: number, state: string, trace?: string): void {
      putTally.run({ id: tournamentId, attempts, state });
      if (trace !== undefined) putTrace.run({ id: tournamentId, trace });
    },

    /**
     * Every committed attempt in commit order, one at a time from a cursor (exports, tally rebuilds); `counts`: it is
     * its game's latest attempt. The connection runs nothing else until the loop ends.
     */
    *eachGame(tournamentId: string): Generator<StoredTournamentGame & { counts: boolean }> {
      for (const row of attemptsInOrder.iterate(tournamentId) as IterableIterator<GameRow & { superseded: number }>)
        yield { ...gameOf(row), counts: row.superseded === 0 };
    },

    /** The same with each attempt's parsed transcript (events.jsonl). */
    *eachGameWithTranscript(tournamentId: string): Generator<StoredTournamentGame & { transcript: unknown[] }> {
      for (const row of gamesWithTranscripts.iterate(tournamentId) as IterableIterator<GameRow & { transcript: string }>)
        yield { ...gameOf(row), transcript: JSON.parse(row.transcript) as unknown[] };
    },

    /** The signature of every worker-played attempt, in commit order (an audit bundle carries them). */
    signedRecords(tournamentId: string): SignedGameRecord[] {
      return (
        signedRecords.all(tournamentId) as Array<{
          game_index: number;
          attempt: number;
          worker_id: string;
          worker_key: string;
          worker_signature: string;
          worker_attestation: string | null;
        }>
      ).map((r) => ({
        gameIndex: r.game_index,
        attempt: r.attempt,
        workerId: r.worker_id,
        workerKey: r.worker_key,
        signature: r.worker_signature,
        attestation: r.worker_attestation,
      }));
    },

    /** Every committed attempt in commit order. */
    games(tournamentId: string): StoredTournamentGame[] {
      return (allGames.all(tournamentId) as GameRow[]).map(gameOf);
    },

    /** The latest attempt of one game. */
    game(tournamentId: string, gameIndex: number): StoredTournamentGame | undefined {
      const row = getGame.get(tournamentId, gameIndex) as GameRow | undefined;
      return row ? gameOf(row) : undefined;
    },

    /** The stored transcript of one attempt (by its seq). */
    transcript(tournamentId: string, seq: number): unknown[] {
      const row = transcriptOf.get(tournamentId, seq) as { transcript: string } | undefined;
      return row ? (JSON.parse(row.transcript) as unknown[]) : [];
    },

    /**
     * Filtered page of attempts in game order, served from an index (tournament, superseded, game order). Without
     * filters the total is the tournament's own count; a filter counts its matches.
     */
    listGames(tournamentId: string, filter: GameFilter = {}): { items: StoredTournamentGame[]; total: number } {
      const where = ['g.tournament_id = @id'];
      const params: Record<string, unknown> = { id: tournamentId, limit: filter.limit ?? 100, offset: filter.offset ?? 0 };
      if (filter.finalOnly) where.push('g.superseded = 0');
      if (filter.challenge !== undefined) {
        where.push('g.challenge = @challenge');
        params.challenge = filter.challenge;
      }
      if (filter.termination !== undefined) {
        where.push('g.termination = @termination');
        params.termination = filter.termination;
      }
      if (filter.agent !== undefined) {
        where.push('EXISTS (SELECT 1 FROM json_each(g.seats) WHERE json_each.value = @agent)');
        params.agent = filter.agent;
      }
      const clause = where.join(' AND ');
      let statements = pageStatements.get(clause);
      if (!statements) {
        statements = {
          count: db.prepare(`SELECT COUNT(*) AS n FROM tournament_games g WHERE ${clause}`),
          page: db.prepare(
            `SELECT ${COLUMNS.replace(/(\w+)/g, 'g.$1')} FROM tournament_games g WHERE ${clause} ORDER BY g.game_index, g.attempt LIMIT @limit OFFSET @offset`,
          ),
        };
        pageStatements.set(clause, statements);
      }
      const rows = statements.page.all(params) as GameRow[];
      const filtered = filter.challenge !== undefined || filter.termination !== undefined || filter.agent !== undefined;
      let total: number;
      if (filtered) total = (statements.count.get(params) as { n: number }).n;
      else {
        const t = getTournament.get(tournamentId) as TournamentRow | undefined;
        total = t ? (filter.finalOnly ? t.games_started : t.game_attempts) : 0;
      }
      return { items: rows.map(gameOf), total };
    },
  };
}

export type TournamentsRepo = ReturnType<typeof createTournamentsRepo>;
