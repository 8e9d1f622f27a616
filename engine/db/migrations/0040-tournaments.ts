// Tournaments: one row per run (spec, run manifest, status) and one row per finished game attempt. Every finished
// game is committed in its own transaction; UNIQUE(tournament_id, game_key, attempt) makes a resumed run unable to
// count a game twice. Void attempts (harness faults) are kept for the audit and replayed under the next attempt.
export const name = '0040-tournaments';
export const sql = `
CREATE TABLE tournaments (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  status        TEXT NOT NULL,
  spec          TEXT NOT NULL,
  spec_dir      TEXT NOT NULL,
  manifest      TEXT NOT NULL,
  manifest_hash TEXT NOT NULL,
  planned_games INTEGER NOT NULL,
  planned_exact INTEGER NOT NULL,
  stop_reason   TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  finished_at   INTEGER
) STRICT;

CREATE TABLE tournament_games (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
  game_key       TEXT NOT NULL,
  game_index     INTEGER NOT NULL,
  attempt        INTEGER NOT NULL,
  round          INTEGER NOT NULL,
  pairing_index  INTEGER NOT NULL,
  opening        INTEGER NOT NULL,
  challenge      TEXT NOT NULL,
  seats          TEXT NOT NULL,
  seed           TEXT NOT NULL,
  swap_of        INTEGER,
  set_size       INTEGER NOT NULL,
  session_id     TEXT,
  invites        TEXT NOT NULL,
  termination    TEXT NOT NULL,
  fault          TEXT NOT NULL,
  faulted_seats  TEXT NOT NULL,
  placements     TEXT,
  scores         TEXT,
  detail         TEXT NOT NULL,
  -- The game's messages (both channels, seats by number), committed with the result so exports never depend on
  -- the session outliving its staleness sweep.
  transcript     TEXT NOT NULL,
  agent_ms       REAL NOT NULL,
  started_at     INTEGER NOT NULL,
  ended_at       INTEGER NOT NULL,
  UNIQUE (tournament_id, game_key, attempt)
) STRICT;
CREATE INDEX tournament_games_index_idx ON tournament_games (tournament_id, game_index);
`;
